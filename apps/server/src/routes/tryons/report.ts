/**
 * POST /api/tryons/:id/report: a shopper reports one of their results as bad. Their first
 * AUTO_REFUND_REPORTS reports in 30 days are refunded at once (a free trial as a free trial, a
 * whole outfit's two units both); later ones wait for an operator (docs/operations.md).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ReportTryOnRequestSchema, ReportTryOnResponseSchema, TryOnIdParamsSchema } from '@aidressup/contract';
import { requireSession, requireSessionUserId } from '../../http/session.js';
import { ERROR_RESPONSES } from '../../http/schemas.js';
import { reportTryOn } from '../../services/admin/reports.js';

export default async function reportRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/tryons/:id/report',
    {
      onRequest: app.perRouteLimit('report', app.config.rateLimits.tryOnPerMinute),
      preValidation: requireSession,
      schema: {
        summary: 'Report one of the session user’s results as bad: refunded at once, or left for an operator',
        description:
          'The first AUTO_REFUND_REPORTS reports in 30 days are refunded at once (status refunded), later ones wait (pending). Another user’s or an unknown try-on: 404 NOT_FOUND; not succeeded: 409 NOT_REPORTABLE; reported already: 409 ALREADY_REPORTED.',
        tags: ['gallery'],
        security: [{ session: [] }],
        params: TryOnIdParamsSchema,
        body: ReportTryOnRequestSchema,
        response: { 200: ReportTryOnResponseSchema, ...ERROR_RESPONSES },
      },
      config: { invalidInput: { fields: { id: 'NOT_FOUND' }, otherwise: 'VALIDATION_ERROR' } },
    },
    async (request) => {
      const deps = { db: app.db, config: app.config, clock: app.clock };
      return reportTryOn(deps, requireSessionUserId(request), {
        tryonId: request.params.id,
        reason: request.body.reason,
        note: request.body.note,
      });
    },
  );
}
