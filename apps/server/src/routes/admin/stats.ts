/**
 * The operator console's health, statistics and audit log. Operators only (`http/operator.ts`,
 * run for every route of this plugin).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminAuditQuerySchema,
  AdminHealthResponseSchema,
  AdminAuditResponseSchema,
  AdminStatsQuerySchema,
  AdminStatsResponseSchema,
} from '@aidressup/contract';
import { ERROR_RESPONSES, ErrorReplySchema } from '../../http/schemas.js';
import { photoKeyNote } from '../../config/photos.js';
import { detailedHealth } from '../../services/health.js';
import { healthDeps } from '../meta.js';
import { operatorGuard } from '../../http/operator.js';
import { adminStats } from '../../services/admin/stats.js';
import { auditPage } from '../../services/admin/audit.js';

export default async function adminStatsRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('preValidation', operatorGuard(app));
  const tags = ['admin'];
  const security = [{ session: [] }];
  const started = Date.now();

  app.get(
    '/api/admin/health',
    {
      schema: {
        summary:
          'The health report with each engine’s details and reasons and how kept photos are sealed (503 when a dependency is down)',
        tags,
        security,
        response: {
          ...ERROR_RESPONSES,
          200: AdminHealthResponseSchema,
          503: z.union([AdminHealthResponseSchema, ErrorReplySchema]),
        },
      },
    },
    async (_request, reply) => {
      const body = await detailedHealth(healthDeps(app, started), photoKeyNote(app.config));
      reply.header('cache-control', 'no-store');
      return reply.status(body.status === 'down' ? 503 : 200).send(body);
    },
  );

  app.get(
    '/api/admin/stats',
    {
      schema: {
        summary:
          'Daily series over the last N days (1–90): try-ons by engine and outcome with engine time, new users, purchases and revenue, reports; and totals',
        tags,
        security,
        querystring: AdminStatsQuerySchema,
        response: { 200: AdminStatsResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => adminStats({ db: app.db, config: app.config, clock: app.clock }, request.query.days),
  );

  app.get(
    '/api/admin/audit',
    {
      schema: {
        summary: 'The audit log of operator actions, newest first, a page at a time (`nextCursor` → `before`)',
        tags,
        security,
        querystring: AdminAuditQuerySchema,
        response: { 200: AdminAuditResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({ success: true as const, ...(await auditPage(app.db, request.query)) }),
  );
}
