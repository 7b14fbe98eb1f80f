/**
 * The operator console's reports queue and a shopper's result as an operator sees it (each view
 * audited). Operators only (`http/operator.ts`, run for every route of this plugin).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminReportDecisionRequestSchema,
  AdminReportDecisionResponseSchema,
  AdminReportIdParamsSchema,
  AdminReportListQuerySchema,
  AdminReportListResponseSchema,
  AdminTryOnIdParamsSchema,
} from '@aidressup/contract';
import { AppError } from '../../errors.js';
import { ERROR_RESPONSES, IMAGE_RESPONSE } from '../../http/schemas.js';
import { operatorGuard, operatorOf } from '../../http/operator.js';
import { decideReport, listAdminReports } from '../../services/admin/reports.js';
import { viewResultAsOperator } from '../../services/admin/result-views.js';
import type { AdminDeps } from '../../services/admin/users.js';

export default async function adminReportRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('preValidation', operatorGuard(app));
  const deps = (): AdminDeps => ({ db: app.db, config: app.config, clock: app.clock });
  const tags = ['admin'];
  const security = [{ session: [] }];

  app.get(
    '/api/admin/reports',
    {
      schema: {
        summary: 'Reports of bad results in one state (pending: oldest first; decided: newest first)',
        tags,
        security,
        querystring: AdminReportListQuerySchema,
        response: { 200: AdminReportListResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      success: true as const,
      items: await listAdminReports(deps(), request.query.status, request.query.limit),
    }),
  );

  app.post(
    '/api/admin/reports/:id',
    {
      schema: {
        summary: 'Refund or reject a pending report, once (a second decision: 409 REPORT_DECIDED)',
        tags,
        security,
        params: AdminReportIdParamsSchema,
        body: AdminReportDecisionRequestSchema,
        response: { 200: AdminReportDecisionResponseSchema, ...ERROR_RESPONSES },
      },
      config: { invalidInput: { fields: { id: 'NOT_FOUND' }, otherwise: 'VALIDATION_ERROR' } },
    },
    async (request) => ({
      success: true as const,
      report: await decideReport(deps(), operatorOf(request), {
        reportId: request.params.id,
        decision: request.body.decision,
        note: request.body.note,
      }),
    }),
  );

  app.get(
    '/api/admin/tryons/:id/result',
    {
      schema: {
        summary: 'A shopper’s result image, for an operator (each GET is written to the audit log; a HEAD is not)',
        tags,
        security,
        params: AdminTryOnIdParamsSchema,
        response: {
          200: IMAGE_RESPONSE,
          ...ERROR_RESPONSES,
        },
      },
      config: { invalidInput: { otherwise: 'NOT_FOUND' } },
    },
    async (request, reply) => {
      // Only a GET sends the image: a HEAD is no view and leaves no audit row.
      const row = await viewResultAsOperator(deps(), operatorOf(request), request.params.id, {
        view: request.method === 'GET',
      });
      const object = await app.storage.open(`results/${row.result_name}`);
      if (!object) throw new AppError('NOT_FOUND');
      if (object.size !== undefined) reply.header('content-length', object.size);
      return reply.type(object.contentType).header('cache-control', 'private, no-store').send(object.stream);
    },
  );
}
