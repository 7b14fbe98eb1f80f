/**
 * The operator console's statistics and audit log. Operators only (`http/operator.ts`, run for
 * every route of this plugin).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminAuditQuerySchema,
  AdminAuditResponseSchema,
  AdminStatsQuerySchema,
  AdminStatsResponseSchema,
} from '@aidressup/contract';
import { ERROR_RESPONSES } from '../../http/schemas.js';
import { operatorGuard } from '../../http/operator.js';
import { adminStats } from '../../services/admin/stats.js';
import { auditPage } from '../../services/admin/audit.js';

export default async function adminStatsRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('preValidation', operatorGuard(app));
  const tags = ['admin'];
  const security = [{ session: [] }];

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
