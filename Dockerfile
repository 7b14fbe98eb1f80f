# syntax=docker/dockerfile:1
# AI Dress Up: one image for the API (the default command) and the queue worker
# (`node apps/server/dist/worker.js`). Built by `npm run image:build` (tools/image-build.sh), or:
#   docker build -t localhost/aidressup .
# NODE_IMAGE is the base of every stage: a Debian bookworm image with Node 22 or later and npm on
# the PATH (the default: Node 24, the LTS line; or one built from Debian where no registry is
# reachable; see docs/deploy.md). The image runs as an unprivileged user and writes only under DATA_DIR (/data,
# a volume), so `--read-only` works.
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

# ---- build: every dependency, then `npm run build` (server, engine, contract, web app)
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/engine/package.json packages/engine/
COPY packages/paddle-stand-in/package.json packages/paddle-stand-in/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# No install scripts: on Node 22 and later the server loads better-sqlite3 13, whose build ships in
# its package; sharp, esbuild and rollup come as prebuilt platform packages. The CA bundle, when the
# build mounts one (a proxy that re-signs HTTPS), is trusted besides Node's own.
RUN NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm ci --ignore-scripts 2>&1 | grep -v 'Ignoring extra certs' ; test -d node_modules/typescript
COPY . .
RUN npm run build

# ---- production dependencies of the server, the engine and the contract only
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=build /src/package.json /src/package-lock.json /src/.npmrc ./
COPY --from=build /src/packages/contract/package.json packages/contract/
COPY --from=build /src/packages/engine/package.json packages/engine/
COPY --from=build /src/packages/paddle-stand-in/package.json packages/paddle-stand-in/
COPY --from=build /src/apps/server/package.json apps/server/
COPY --from=build /src/apps/web/package.json apps/web/
COPY --from=build /src/e2e/package.json e2e/
COPY --from=build /src/bench/package.json bench/
# Then: better-sqlite3 12 is Node 20's driver (never loaded on 22 and later); of 13 only this
# platform's build; no source maps; the test-only workspace's link goes.
RUN NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm ci --omit=dev --ignore-scripts \
      --workspace=@aidressup/server --workspace=@aidressup/engine --workspace=@aidressup/contract \
      2>&1 | grep -v 'Ignoring extra certs' ; test -d node_modules/fastify \
  && rm -rf node_modules/better-sqlite3 node_modules/better-sqlite3-13/deps node_modules/better-sqlite3-13/src \
       node_modules/@aidressup/paddle-stand-in \
  && find node_modules/better-sqlite3-13/prebuilds -type f ! -name "linux-$(node -p process.arch).node" -delete \
  && find node_modules -name '*.map' -type f -delete

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG SOURCE=https://aidressup.app
ARG LICENSE=LicenseRef-Proprietary
LABEL org.opencontainers.image.title="AI Dress Up" \
      org.opencontainers.image.description="Virtual try-on: API server (default) and queue worker" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="${LICENSE}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    HOME=/tmp
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /src/package.json ./
COPY --from=build /src/packages/contract/package.json packages/contract/
COPY --from=build /src/packages/contract/dist packages/contract/dist
# The message catalogs: the server writes the share page and the sign-in mail from them.
COPY --from=build /src/packages/contract/catalogs packages/contract/catalogs
COPY --from=build /src/packages/engine/package.json packages/engine/
COPY --from=build /src/packages/engine/dist packages/engine/dist
COPY --from=build /src/packages/engine/models packages/engine/models
COPY --from=build /src/apps/server/package.json apps/server/
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
# The data folder belongs to the unprivileged user; a named volume mounted here takes its owner.
RUN mkdir -p /data && chown 10001:10001 /data \
  && find apps packages -name '*.tsbuildinfo' -delete
VOLUME ["/data"]
USER 10001:10001
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself (graceful shutdown, SHUTDOWN_GRACE_MS). The worker:
#   docker run … localhost/aidressup node apps/server/dist/worker.js
CMD ["node", "apps/server/dist/server.js"]
