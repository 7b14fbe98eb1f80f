/**
 * One spelling per API path (docs/architecture.md, "15. Abuse limits and security headers"): a
 * request whose path is, once decoded and normalised, under /api but is not written in its
 * canonical form (`/%61pi/…`, `/api/./…`, `//api/…`, a trailing slash, `;` parameters, upper
 * case, an absolute-form target…) is answered 404 NOT_FOUND before the cross-site check, the
 * session and the rate limit run. Those key on `isApiRequest` (`http/paths.ts`) anyway; this
 * makes sure whatever reads a request's URL (a hook, a log, a proxy's rule) sees one spelling.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { isApiRequest, isCanonicalApiTarget } from '../http/paths.js';

export default fp(
  async function canonicalPaths(app: FastifyInstance) {
    app.addHook('onRequest', async (request) => {
      if (isApiRequest(request) && !isCanonicalApiTarget(request.url)) throw new AppError('NOT_FOUND');
    });
  },
  { name: 'canonical-paths' },
);
