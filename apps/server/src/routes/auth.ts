/**
 * Sign-in: POST /api/auth/anonymous and GET /api/auth/user/:id (the spec's calls), email sign-in
 * (POST /api/auth/email/start, /verify) and POST /api/auth/logout. The session cookie is the only
 * key to an account; a device id only limits free trials.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AnonymousSignInRequestSchema,
  AuthResponseSchema,
  DEVICE_ID_PATTERN,
  EmailStartRequestSchema,
  EmailVerifyRequestSchema,
  EmailVerifyResponseSchema,
  LogoutResponseSchema,
  SuccessResponseSchema,
  UserResponseSchema,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { endSession, requireSessionUserId, startSession } from '../plugins/session.js';
import { findUserById, touchUser } from '../repositories/users.js';
import { createAnonymousUser, toApiUser } from '../services/users.js';
import { startEmailSignIn, verifyEmailSignIn } from '../services/accounts.js';

const ParamsSchema = z.object({ id: z.string().min(1).max(64) });
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/;

/**
 * Where the magic link points: PUBLIC_URL (or the separately hosted web app). Without one, the
 * request's own origin only when it is this machine (a newcomer on localhost): a Host header from
 * anyone else must never decide where a sign-in link sends its token.
 */
function linkOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const configured = app.config.corsOrigin ?? app.config.publicUrl;
  if (configured) return new URL(configured).origin;
  const host = request.headers.host ?? '';
  if (LOOPBACK_HOST.test(host)) return `${request.protocol}://${host}`;
  return `http://localhost:${app.config.port}`;
}

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const userOpts = () => ({ freeTrialsLimit: config.freeTrialsLimit, now: app.clock() });
  const accountDeps = () => ({ db: app.db, config, clock: app.clock, secret: app.sessionSecret, log: app.log });

  app.post(
    '/api/auth/anonymous',
    { onRequest: app.perRouteLimit('signin', config.rateLimits.signInPerMinute) },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body.deviceId !== 'string' || !DEVICE_ID_PATTERN.test(body.deviceId)) {
        throw new AppError('INVALID_DEVICE_ID');
      }
      const parsed = AnonymousSignInRequestSchema.safeParse(body);
      if (!parsed.success) throw new AppError('VALIDATION_ERROR');
      const now = app.clock();
      // With a valid session: that session's user. The device id opens no one's account.
      if (request.sessionUserId) {
        const existing = await findUserById(app.db, request.sessionUserId);
        if (existing && existing.deleted_at === null && existing.merged_into === null) {
          await touchUser(app.db, existing.id, parsed.data.deviceInfo, now);
          const user = await toApiUser(app.db, existing, userOpts());
          return reply.send(AuthResponseSchema.parse({ success: true, user, isNew: false }));
        }
      }
      // Without one: always a new user.
      const created = await createAnonymousUser(app.db, {
        deviceId: parsed.data.deviceId,
        deviceInfo: parsed.data.deviceInfo,
        ip: request.ip,
        now,
        secret: app.sessionSecret,
        freeTrialsLimit: config.freeTrialsLimit,
        newUsersPerIpPerDay: config.rateLimits.newUsersPerIpPerDay,
      });
      await startSession(app, request, reply, created.id);
      const user = await toApiUser(app.db, created, userOpts());
      return reply.send(AuthResponseSchema.parse({ success: true, user, isNew: true }));
    },
  );

  app.get('/api/auth/user/:id', async (request) => {
    const sessionUser = requireSessionUserId(request);
    const params = ParamsSchema.safeParse(request.params);
    if (!params.success) throw new AppError('VALIDATION_ERROR');
    if (params.data.id !== sessionUser) throw new AppError('FORBIDDEN');
    const row = await findUserById(app.db, sessionUser);
    if (!row) throw new AppError('UNAUTHORIZED');
    const user = await toApiUser(app.db, row, userOpts());
    return UserResponseSchema.parse({ success: true, user });
  });

  app.post(
    '/api/auth/email/start',
    { onRequest: app.perRouteLimit('email', config.rateLimits.emailPerMinute) },
    async (request) => {
      const parsed = EmailStartRequestSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError('INVALID_EMAIL');
      await startEmailSignIn({ ...accountDeps(), mailer: app.mailer }, { email: parsed.data.email, linkOrigin: linkOrigin(app, request) });
      return SuccessResponseSchema.parse({ success: true });
    },
  );

  app.post(
    '/api/auth/email/verify',
    { onRequest: app.perRouteLimit('email-verify', config.rateLimits.signInPerMinute) },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const email = EmailStartRequestSchema.safeParse({ email: body.email });
      if (!email.success) throw new AppError('INVALID_EMAIL');
      const parsed = EmailVerifyRequestSchema.safeParse(body);
      if (!parsed.success) throw new AppError('INVALID_CODE');
      const { user: row, merged } = await verifyEmailSignIn(accountDeps(), {
        email: parsed.data.email,
        ...('code' in parsed.data ? { code: parsed.data.code } : { token: parsed.data.token }),
        currentUserId: request.sessionUserId,
      });
      // A new session for the account (never keep a session id across a sign-in).
      await endSession(app, request, reply);
      await startSession(app, request, reply, row.id);
      const user = await toApiUser(app.db, row, userOpts());
      return reply.send(EmailVerifyResponseSchema.parse({ success: true, user, merged }));
    },
  );

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(app, request, reply);
    return reply.send(LogoutResponseSchema.parse({ success: true }));
  });
}
