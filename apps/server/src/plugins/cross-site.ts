/**
 * No cross-site requests: a state-changing request (POST, PUT, PATCH, DELETE) to any /api/
 * route, present or future (the operator routes under /api/admin/ included), is refused with 403
 * CROSS_SITE_REQUEST when it comes from another site. Registered before the session plugin, so a
 * refused request never reaches the session or the database.
 */
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { isApiRequest } from '../http/paths.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes state-changing requests from any site: only for requests that prove
     * themselves without a cookie (a signed webhook). Every other /api/ route refuses them.
     */
    anySite?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether an Origin header names the host the request was sent to (the same scheme's default port counts). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (!host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  return URL.canParse(`${url.protocol}//${host}`) && new URL(`${url.protocol}//${host}`).host === url.host;
}

/**
 * An onRequest hook: a state-changing request (POST, PUT, PATCH, DELETE) to any /api/ route,
 * present or future, under any spelling of its path (`isApiRequest`: the route that matched, or
 * the decoded, normalised path; never the raw URL), is refused with 403 CROSS_SITE_REQUEST when its Origin is neither the
 * product's own (PUBLIC_URL; without it, the host the request was sent to) nor CORS_ORIGIN, or,
 * without an Origin, when the browser says `Sec-Fetch-Site: cross-site`. A route marked
 * `config.anySite` (the signed Paddle webhook) is exempt. Requests without either header (curl,
 * servers) carry no shopper's cookie by accident and pass.
 */
export function refuseCrossSite(config: Config): onRequestAsyncHookHandler {
  const allowed = new Set(
    [config.publicUrl, config.corsOrigin].filter((u): u is string => u !== undefined).map((u) => new URL(u).origin),
  );
  return async (request) => {
    if (!STATE_CHANGING.has(request.method) || !isApiRequest(request)) return;
    if (request.routeOptions.config?.anySite === true) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (allowed.has(origin)) return;
      if (config.publicUrl === undefined && sameHost(origin, request.headers.host)) return;
      throw new AppError('CROSS_SITE_REQUEST');
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CROSS_SITE_REQUEST');
  };
}

export default fp(
  async function crossSite(app: FastifyInstance, opts: { config: Config }) {
    app.addHook('onRequest', refuseCrossSite(opts.config));
  },
  { name: 'cross-site' },
);
