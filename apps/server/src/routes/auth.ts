/** POST /api/auth/anonymous and GET /api/auth/user/:id (spec §7, DESIGN §3). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AnonymousSignInRequestSchema, AuthResponseSchema, DEVICE_ID_PATTERN, UserResponseSchema } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { requireSessionUserId, setSessionCookie } from '../plugins/session.js';
import { findUserById } from '../repositories/users.js';
import { signInAnonymous, toApiUser } from '../services/users.js';

const ParamsSchema = z.object({ id: z.string().min(1).max(64) });

export default async function authRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;

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
      const { user, isNew } = await signInAnonymous(app.db, {
        deviceId: parsed.data.deviceId,
        deviceInfo: parsed.data.deviceInfo,
        ip: request.ip,
        now,
        secret: app.sessionSecret,
        freeTrialsLimit: config.freeTrialsLimit,
        newUsersPerIpPerDay: config.rateLimits.newUsersPerIpPerDay,
      });
      setSessionCookie(reply, config, user.id);
      const apiUser = await toApiUser(app.db, user, { freeTrialsLimit: config.freeTrialsLimit, now });
      return reply.send(AuthResponseSchema.parse({ success: true, user: apiUser, isNew }));
    },
  );

  app.get('/api/auth/user/:id', async (request) => {
    const sessionUser = requireSessionUserId(request);
    const params = ParamsSchema.safeParse(request.params);
    if (!params.success) throw new AppError('VALIDATION_ERROR');
    if (params.data.id !== sessionUser) throw new AppError('FORBIDDEN');
    const row = await findUserById(app.db, sessionUser);
    if (!row) throw new AppError('UNAUTHORIZED');
    const user = await toApiUser(app.db, row, { freeTrialsLimit: config.freeTrialsLimit, now: app.clock() });
    return UserResponseSchema.parse({ success: true, user });
  });
}
