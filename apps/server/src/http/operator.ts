/**
 * The operator guard: the one check every `/api/admin/*` route runs (each admin route plugin adds
 * it as a preValidation hook for all its routes, so a request is refused before its input is
 * looked at). Anonymous: 401 UNAUTHORIZED; a shopper: 403 FORBIDDEN; an operator whose email
 * sign-in is 12 hours old or more: 401 REAUTH_REQUIRED. Routes then read the operator with
 * `operatorOf`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { findUserById } from '../repositories/users.js';
import { emailSignInOf } from '../repositories/admin-sessions.js';
import { isOperatorEmail, isRecentSignIn, type Operator } from '../services/admin/operators.js';

const operators = new WeakMap<FastifyRequest, Operator>();

/** The preValidation hook that lets only operators through. */
export function operatorGuard(app: FastifyInstance): (request: FastifyRequest) => Promise<void> {
  return async function requireOperator(request: FastifyRequest): Promise<void> {
    const userId = request.sessionUserId;
    const token = request.sessionToken;
    if (!userId || !token) throw new AppError('UNAUTHORIZED');
    const user = await findUserById(app.db, userId);
    if (!user || user.deleted_at !== null || user.merged_into !== null) throw new AppError('UNAUTHORIZED');
    if (!isOperatorEmail(app.config, user.email)) throw new AppError('FORBIDDEN');
    const now = app.clock();
    if (!isRecentSignIn(await emailSignInOf(app.db, token, now), now)) throw new AppError('REAUTH_REQUIRED');
    operators.set(request, { id: user.id, email: user.email! });
  };
}

/** The operator the guard let through (401 UNAUTHORIZED on a route without the guard). */
export function operatorOf(request: FastifyRequest): Operator {
  const operator = operators.get(request);
  if (!operator) throw new AppError('UNAUTHORIZED');
  return operator;
}
