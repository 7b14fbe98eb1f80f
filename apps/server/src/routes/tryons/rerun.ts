/**
 * POST /api/tryons/:id/rerun ("Make it photo-real"): a quick preview of the session user's,
 * run again on a hosted engine from the photos kept for it for 30 minutes. The answer is
 * POST /api/process-image's; the try-on is charged as a new one (`tryon/rerun.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES, RerunTryOnRequestSchema, TryOnIdParamsSchema, TryOnResponseSchema } from '@aidressup/contract';
import { watchClientGone } from '../../http/client-gone.js';
import { loadSessionUser, requireSessionUserId } from '../../http/session.js';
import { TRYON_ERROR_RESPONSES } from '../../http/schemas.js';

export default async function rerunRoute(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;

  app.post(
    '/api/tryons/:id/rerun',
    {
      // The same limiter as a try-on post: a rerun is a try-on.
      onRequest: app.perRouteLimit('tryon', config.rateLimits.tryOnPerMinute),
      schema: {
        summary:
          'Make a quick preview photo-real: the same try-on again on a hosted engine, from the photos kept for it for 30 minutes (charged as a new try-on)',
        description:
          'Only the owner’s succeeded result of the built-in engine, while its photos are kept. Another user’s or an unknown try-on: 404 NOT_FOUND; a result of a hosted engine: 409 NOT_RERUNNABLE; photos deleted (30 minutes after the try-on, or with the result): 410 PHOTOS_GONE; `api` local or not enabled: 400 ENGINE_UNAVAILABLE. It waits in the same line as a try-on: 503 ENGINE_BUSY carries a `ticket` that, sent back as `lineTicket`, keeps the place; a shopper who goes away (the connection closes) gives up the place and is charged nothing. The answer is POST /api/process-image’s.',
        tags: ['tryon'],
        security: [{ session: [] }],
        params: TryOnIdParamsSchema,
        body: RerunTryOnRequestSchema,
        response: { 200: TryOnResponseSchema, ...TRYON_ERROR_RESPONSES },
      },
      // An id that is not one: not found; an engine name that is not one: not available.
      // The database or Redis away for a moment: 503 SERVICE_UNAVAILABLE, nothing charged.
      config: {
        invalidInput: { fields: { id: 'NOT_FOUND', api: 'ENGINE_UNAVAILABLE' } },
        outageMessage: MESSAGES.tryOnOutage,
      },
    },
    async (request, reply) => {
      const acceptedAt = Date.now();
      const userId = requireSessionUserId(request);
      await loadSessionUser(app, request);
      const { api, progressId: wanted, lineTicket } = request.body;
      const progressId = wanted && app.tryOnProgress.claim(wanted, userId) ? wanted : undefined;
      request.tryOnProgressId = progressId;
      request.tryOnEngine = api;
      // The shopper who goes away gives up the place and is charged nothing.
      const gone = watchClientGone(request, reply);
      try {
        return await app.tryOns.rerun({
          userId,
          tryonId: request.params.id,
          engineId: api,
          progressId,
          reqId: request.id,
          acceptedAt,
          address: request.ip,
          ticket: lineTicket,
          signal: gone.signal,
        });
      } finally {
        gone.stop();
      }
    },
  );
}
