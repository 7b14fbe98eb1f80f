/**
 * Sign-in: POST /api/auth/anonymous and GET /api/auth/user/:id, email sign-in
 * (POST /api/auth/email/start, /verify) and POST /api/auth/logout. The session cookie is the only
 * key to an account; a device id only limits free trials.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnonymousSignInRequestSchema,
  AuthResponseSchema,
  ConfirmOtherBrowserResponseSchema,
  EmailStartRequestSchema,
  EmailVerifyRequestSchema,
  EmailVerifyResponseSchema,
  LogoutResponseSchema,
  SuccessResponseSchema,
  UserResponseSchema,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { endSession, requireSession, startSession, userOf } from '../http/session.js';
import { findUserById, touchUser } from '../repositories/users.js';
import { createAnonymousUser, toApiUser } from '../services/users.js';
import { startEmailSignIn, verifyEmailSignIn } from '../services/accounts.js';
import { ERROR_RESPONSES, ErrorReplySchema } from '../http/schemas.js';
import { bindSignIn, signInBinding } from '../http/sign-in-binding.js';
import { webOrigin } from '../http/public-origin.js';
import { markEmailSignIn } from '../repositories/admin-sessions.js';

const UserParamsSchema = z.object({ id: z.string().min(1).max(64) });
/** HTTP 409: CONFIRM_OTHER_BROWSER with the masked address (or another conflict). */
const ConfirmOtherBrowserOrError = z.union([ConfirmOtherBrowserResponseSchema, ErrorReplySchema]);

export default async function authRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const userOpts = () => ({ freeTrialsLimit: config.freeTrialsLimit, now: app.clock() });
  const accountDeps = () => ({
    db: app.db,
    config,
    clock: app.clock,
    secret: app.sessionSecret,
    log: app.log,
    storage: app.storage,
  });

  app.post(
    '/api/auth/anonymous',
    {
      onRequest: app.perRouteLimit('signin', config.rateLimits.signInPerMinute),
      schema: {
        summary: 'Sign in anonymously: the session’s user, or a new one',
        tags: ['auth'],
        body: AnonymousSignInRequestSchema,
        response: { 200: AuthResponseSchema, ...ERROR_RESPONSES },
      },
      // A missing or malformed device id (or no JSON object at all) is INVALID_DEVICE_ID.
      config: { invalidInput: { fields: { '': 'INVALID_DEVICE_ID', deviceId: 'INVALID_DEVICE_ID' } } },
    },
    async (request, reply) => {
      const body = request.body;
      const now = app.clock();
      // With a valid session: that session's user. The device id opens no one's account.
      if (request.sessionUserId) {
        const existing = await findUserById(app.db, request.sessionUserId);
        if (existing && existing.deleted_at === null && existing.merged_into === null) {
          await touchUser(app.db, existing.id, body.deviceInfo, now);
          const user = await toApiUser(app.db, existing, userOpts());
          return reply.send({ success: true, user, isNew: false });
        }
      }
      // Without one: always a new user.
      const created = await createAnonymousUser(app.db, {
        deviceId: body.deviceId,
        deviceInfo: body.deviceInfo,
        ip: request.ip,
        now,
        secret: app.sessionSecret,
        freeTrialsLimit: config.freeTrialsLimit,
        newUsersPerIpPerDay: config.rateLimits.newUsersPerIpPerDay,
      });
      await startSession(app, request, reply, created.id);
      const user = await toApiUser(app.db, created, userOpts());
      return reply.send({ success: true, user, isNew: true });
    },
  );

  app.get(
    '/api/auth/user/:id',
    {
      schema: {
        summary: 'The session’s own user (to refresh a cached copy)',
        tags: ['auth'],
        security: [{ session: [] }],
        params: UserParamsSchema,
        response: { 200: UserResponseSchema, ...ERROR_RESPONSES },
      },
      preValidation: requireSession,
      preHandler: [
        // Only the session's own user: another id is refused before anything is loaded.
        async (request) => {
          if (request.params.id !== request.sessionUserId) throw new AppError('FORBIDDEN');
        },
        app.requireUser,
      ],
    },
    async (request) => {
      const user = await toApiUser(app.db, userOf(request), userOpts());
      return { success: true as const, user };
    },
  );

  app.post(
    '/api/auth/email/start',
    {
      onRequest: app.perRouteLimit('email', config.rateLimits.emailPerMinute),
      schema: {
        summary: 'Mail a 6-digit sign-in code and a magic link (the same answer for any well-formed address)',
        tags: ['auth'],
        body: EmailStartRequestSchema,
        response: { 200: SuccessResponseSchema, ...ERROR_RESPONSES },
      },
      // A bad address (or no JSON object) is INVALID_EMAIL; a language we do not speak, VALIDATION_ERROR.
      config: {
        invalidInput: { fields: { '': 'INVALID_EMAIL', email: 'INVALID_EMAIL' }, otherwise: 'VALIDATION_ERROR' },
      },
    },
    async (request, reply) => {
      await startEmailSignIn(
        { ...accountDeps(), mailer: app.mailer },
        {
          email: request.body.email,
          linkOrigin: webOrigin(app, request),
          locale: request.body.locale,
          clientAddress: request.ip,
          bindingHash: bindSignIn(request, reply, config),
        },
      );
      return reply.send({ success: true as const });
    },
  );

  app.post(
    '/api/auth/email/verify',
    {
      onRequest: app.perRouteLimit('email-verify', config.rateLimits.signInPerMinute),
      schema: {
        summary:
          'Sign in with the mailed code or the magic link’s token; the session moves to that account (another browser than the one that asked: 409 CONFIRM_OTHER_BROWSER, then `confirm: true`, which merges nothing)',
        tags: ['auth'],
        body: EmailVerifyRequestSchema,
        response: { 200: EmailVerifyResponseSchema, 409: ConfirmOtherBrowserOrError, ...ERROR_RESPONSES },
      },
      // A bad address (or no JSON object) is INVALID_EMAIL; with a good one, a bad code or token is INVALID_CODE.
      config: { invalidInput: { fields: { '': 'INVALID_EMAIL', email: 'INVALID_EMAIL' }, otherwise: 'INVALID_CODE' } },
    },
    async (request, reply) => {
      const body = request.body;
      const {
        user: row,
        merged,
        moved,
      } = await verifyEmailSignIn(accountDeps(), {
        email: body.email,
        ...('code' in body ? { code: body.code } : { token: body.token }),
        currentUserId: request.sessionUserId,
        clientAddress: request.ip,
        binding: signInBinding(request, config),
        confirm: body.confirm === true,
      });
      // A new session for the account (never keep a session id across a sign-in).
      await endSession(app, request, reply);
      await startSession(app, request, reply, row.id);
      // When this session signed in by email: operator routes need a recent one.
      if (request.sessionToken) await markEmailSignIn(app.db, request.sessionToken, app.clock());
      const user = await toApiUser(app.db, row, userOpts());
      return reply.send({ success: true, user, merged, moved });
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        summary: 'End the session',
        tags: ['auth'],
        response: { 200: LogoutResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      await endSession(app, request, reply);
      return reply.send({ success: true });
    },
  );
}
