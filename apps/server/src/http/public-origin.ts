/**
 * The origin written into links the server hands out (a sign-in mail's magic link, a result's
 * share link). A configured address wins; without one, the request's own origin only when it is
 * this machine (a newcomer on localhost): a Host header from anyone else must never decide where
 * a link points.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/;

/**
 * `configured` is the address to prefer, in order (e.g. the web app's, then the product's);
 * the first one set wins.
 */
function publicOrigin(
  app: FastifyInstance,
  request: FastifyRequest,
  configured: readonly (string | undefined)[],
): string {
  const first = configured.find((url) => url !== undefined && url !== '');
  if (first) return new URL(first).origin;
  const host = request.headers.host ?? '';
  if (LOOPBACK_HOST.test(host)) return `${request.protocol}://${host}`;
  return `http://localhost:${app.config.port}`;
}

/** Where the web app's pages are: the separately hosted web app, else the product's address. */
export function webOrigin(app: FastifyInstance, request: FastifyRequest): string {
  return publicOrigin(app, request, [app.config.corsOrigin, app.config.publicUrl]);
}

/** Where this server's own pages are (share pages): the product's address, else the web app's. */
export function serverOrigin(app: FastifyInstance, request: FastifyRequest): string {
  return publicOrigin(app, request, [app.config.publicUrl, app.config.corsOrigin]);
}
