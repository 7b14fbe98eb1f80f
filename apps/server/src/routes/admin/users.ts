/**
 * The operator console's users: search, a user's page, credits, block and unblock. Operators only
 * (`http/operator.ts`, run for every route of this plugin before its input is read).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminBlockRequestSchema,
  AdminCreditsRequestSchema,
  AdminUserDetailResponseSchema,
  AdminUserIdParamsSchema,
  AdminUserResponseSchema,
  AdminUserSearchQuerySchema,
  AdminUserSearchResponseSchema,
} from '@aidressup/contract';
import { ERROR_RESPONSES } from '../../http/schemas.js';
import { operatorGuard, operatorOf } from '../../http/operator.js';
import {
  adjustUserCredits,
  adminUserDetail,
  blockUser,
  searchAdminUsers,
  unblockUser,
  type AdminDeps,
} from '../../services/admin/users.js';

export default async function adminUserRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('preValidation', operatorGuard(app));
  const deps = (): AdminDeps => ({ db: app.db, config: app.config, clock: app.clock });
  const tags = ['admin'];
  const security = [{ session: [] }];
  const idRoute = { invalidInput: { fields: { id: 'NOT_FOUND' as const }, otherwise: 'VALIDATION_ERROR' as const } };

  app.get(
    '/api/admin/users',
    {
      schema: {
        summary: 'Find users by part of their email, their id or an id prefix, or a device id (at most 50)',
        tags,
        security,
        querystring: AdminUserSearchQuerySchema,
        response: { 200: AdminUserSearchResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({ success: true as const, items: await searchAdminUsers(deps(), request.query.query) }),
  );

  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        summary: 'A user’s page: every credit movement, try-ons with their reports, payments, sessions',
        tags,
        security,
        params: AdminUserIdParamsSchema,
        response: { 200: AdminUserDetailResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({ success: true as const, user: await adminUserDetail(deps(), request.params.id) }),
  );

  app.post(
    '/api/admin/users/:id/credits',
    {
      schema: {
        summary: 'Add credits, or (negative) take them back, never below zero: through the ledger, with a reason',
        tags,
        security,
        params: AdminUserIdParamsSchema,
        body: AdminCreditsRequestSchema,
        response: { 200: AdminUserResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      user: await adjustUserCredits(deps(), operatorOf(request), {
        userId: request.params.id,
        amount: request.body.amount,
        reason: request.body.reason,
      }),
    }),
  );

  app.post(
    '/api/admin/users/:id/block',
    {
      schema: {
        summary: 'Block an account: its sessions are refused at once (403 ACCOUNT_BLOCKED), it cannot sign in',
        tags,
        security,
        params: AdminUserIdParamsSchema,
        body: AdminBlockRequestSchema,
        response: { 200: AdminUserResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      user: await blockUser(deps(), operatorOf(request), { userId: request.params.id, reason: request.body.reason }),
    }),
  );

  app.post(
    '/api/admin/users/:id/unblock',
    {
      schema: {
        summary: 'Unblock an account (its old sessions stay ended: the person signs in again)',
        tags,
        security,
        params: AdminUserIdParamsSchema,
        body: AdminBlockRequestSchema,
        response: { 200: AdminUserResponseSchema, ...ERROR_RESPONSES },
      },
      config: idRoute,
    },
    async (request) => ({
      success: true as const,
      user: await unblockUser(deps(), operatorOf(request), { userId: request.params.id, reason: request.body.reason }),
    }),
  );
}
