/**
 * GET /api/tryon-progress/{progressId}: one try-on's stages as Server-Sent Events.
 *
 * - Session required (401 without one); a progressId that is not a UUID: 400; one that belongs to
 *   another user: 404 (as if it did not exist).
 * - 200 `text/event-stream`; each event is `data: <TryOnProgressEvent as JSON>` and a blank line.
 *   The latest event, if any, comes at once; the stream ends after `done` or `failed`.
 * - The stream may open before the try-on is posted: it waits (a comment line every `heartbeatMs`,
 *   default 15 s, keeps proxies from closing it) until the post comes or `waitMs` (default 2
 *   minutes) passes, then ends. Once events flow, it also ends when none has come for the try-on's
 *   deadline plus `waitMs` (the API process holding the try-on is gone).
 * - Limited per IP and per user like the try-on route, at twice its rate (a page may reconnect).
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProgressIdSchema, TryOnProgressEventSchema, type TryOnProgressEvent } from '@aidressup/contract';
import { AppError } from '../../errors.js';
import { requireSessionUserId } from '../../http/session.js';
import { isTerminal } from '../../tryon/progress.js';
import { ERROR_RESPONSES } from '../../http/schemas.js';

const DEFAULT_WAIT_MS = 2 * 60_000;
const DEFAULT_HEARTBEAT_MS = 15_000;

export default async function progressRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const waitMs = app.tryOnProgressOptions.waitMs ?? DEFAULT_WAIT_MS;
  const heartbeatMs = app.tryOnProgressOptions.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  /** Open streams, ended when the server closes (they would hold it open). */
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get(
    '/api/tryon-progress/:progressId',
    {
      onRequest: app.perRouteLimit('tryon-progress', config.rateLimits.tryOnPerMinute * 2),
      schema: {
        summary:
          'One try-on’s stages as Server-Sent Events: each `data:` line is one event as JSON; the stream ends after done or failed',
        tags: ['tryon'],
        security: [{ session: [] }],
        params: z.object({ progressId: ProgressIdSchema }),
        // The route writes the stream itself; the schema documents one event.
        response: {
          200: {
            description: 'text/event-stream',
            content: { 'text/event-stream': { schema: TryOnProgressEventSchema } },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const userId = requireSessionUserId(request);
      const { progressId } = request.params;

      const raw: ServerResponse = reply.raw;
      let ended = false;
      let heartbeat: NodeJS.Timeout | undefined = undefined;
      let idle: NodeJS.Timeout | undefined;
      const pending: TryOnProgressEvent[] = [];
      let started = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(idle);
        if (subscription.ok) subscription.unsubscribe();
        open.delete(end);
        if (!raw.writableEnded) raw.end();
      };
      const armIdle = (ms: number) => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          if (!raw.writableEnded) raw.write(': no progress, closing\n\n');
          end();
        }, ms);
      };
      const send = (event: TryOnProgressEvent) => {
        if (ended) return;
        if (!started) {
          pending.push(event);
          return;
        }
        raw.write(`data: ${JSON.stringify(event)}\n\n`);
        if (isTerminal(event.stage)) end();
        else armIdle(config.engines.deadlineMs + waitMs);
      };

      const subscription = app.tryOnProgress.subscribe(progressId, userId, send);
      // Someone else's try-on: as if there were none.
      if (!subscription.ok) throw new AppError('NOT_FOUND');

      reply.hijack();
      raw.writeHead(200, {
        // Helmet's, CORS and rate-limit headers set so far.
        ...(reply.getHeaders() as Record<string, string | number | string[]>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.on('close', end);
      open.add(end);
      raw.write(': progress\n\n');
      started = true;
      heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), heartbeatMs);
      heartbeat.unref();
      // Until the first event (the post), wait at most waitMs.
      armIdle(waitMs);
      const first = subscription.last;
      if (first) send(first);
      for (const event of pending.splice(0)) send(event);
    },
  );
}
