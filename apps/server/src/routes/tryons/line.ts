/**
 * POST /api/tryon-line/leave: "Leave the line" while away. Between an ENGINE_BUSY answer and the
 * page's next post no request holds the shopper's place, so closing a connection cannot give it
 * up: the page sends the ticket here instead, and the place goes at once (`AdmissionLine.leaveTicket`)
 * rather than being kept, with a slot held for its holder, until it expires.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LeaveLineRequestSchema, LeaveLineResponseSchema } from '@aidressup/contract';
import { requireSession, requireSessionUserId } from '../../http/session.js';
import { ERROR_RESPONSES } from '../../http/schemas.js';
import { linePool } from '../../tryon/pipeline.js';

export default async function lineRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/tryon-line/leave',
    {
      onRequest: app.perRouteLimit('tryon-line', app.config.rateLimits.tryOnPerMinute * 2),
      preValidation: requireSession,
      schema: {
        summary: 'Leave the try-on line while away: the ticket of an ENGINE_BUSY answer gives its place up at once',
        description:
          'Only the session user’s own ticket, and only while no request holds it (a held request is given up by closing its connection). `left` is false when there was no such place (expired, held, another user’s, unknown). Nothing was charged either way.',
        tags: ['tryon'],
        security: [{ session: [] }],
        body: LeaveLineRequestSchema,
        response: { 200: LeaveLineResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const userId = requireSessionUserId(request);
      const engineId = request.body.api ?? app.engines.defaultEngine;
      const left = app.engines.has(engineId)
        ? await app.tryOnLine.leaveTicket({
            pool: linePool(app.tryOnRunner, engineId),
            ticket: request.body.ticket,
            userId,
          })
        : false;
      return { success: true as const, left };
    },
  );
}
