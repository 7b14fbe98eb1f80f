/**
 * Blocked accounts (the operator console, docs/operations.md): a request whose session belongs to
 * a blocked account is refused with 403 ACCOUNT_BLOCKED on every route that needs a session (its
 * schema declares the `session` security) and on sign-in, so the account can neither try anything
 * on nor sign in, nor pass its credits to another account. Public routes (configuration, health,
 * sign-out) still answer, so the page can say why.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { isUserBlocked } from '../repositories/admin-users.js';

/** Sign-in routes that would otherwise hand a blocked session's user on (or merge it into another account). */
const SIGN_IN_ROUTES = new Set(['/api/auth/anonymous', '/api/auth/email/verify']);

function needsSession(request: FastifyRequest): boolean {
  if (SIGN_IN_ROUTES.has(request.routeOptions.url ?? '')) return true;
  const security = request.routeOptions.schema?.security;
  return Array.isArray(security) && security.some((s) => Object.hasOwn(s, 'session'));
}

export default fp(
  async function blockedPlugin(app: FastifyInstance) {
    app.addHook('onRequest', async (request) => {
      if (!request.sessionUserId || !needsSession(request)) return;
      if (await isUserBlocked(app.db, request.sessionUserId)) throw new AppError('ACCOUNT_BLOCKED');
    });
  },
  { name: 'blocked', dependencies: ['session'] },
);
