/** GET /api/config (the public subset of the configuration: engines with their kind and estimate, billing, plans, limits) and GET /api/health (database, storage, engines, queue). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HealthResponseSchema,
  MAX_UPLOAD_BYTES,
  PLANS,
  PublicConfigSchema,
  type HealthResponse,
  type PublicConfig,
} from '@aidressup/contract';
import { pingDatabase } from '../db/database.js';
import { VERSION } from '../version.js';
import { ERROR_RESPONSES, ErrorReplySchema } from '../http/schemas.js';
import { engineEstimate } from '../tryon/progress.js';

export function publicConfig(app: FastifyInstance): PublicConfig {
  const { config } = app;
  const paddle = config.billing.provider === 'paddle' ? config.billing.paddle : undefined;
  return PublicConfigSchema.parse({
    engines: app.engines
      .list()
      .map((e) => ({ ...e, categories: [...e.categories], ...engineEstimate(e.id, false, config) })),
    defaultEngine: app.engines.defaultEngine,
    billing: {
      provider: config.billing.provider,
      environment: paddle?.environment ?? null,
      clientToken: paddle?.clientToken ?? null,
    },
    plans: PLANS.map((p) => ({ ...p, paddlePriceId: paddle?.prices[p.id] ?? null })),
    freeTrialsLimit: config.freeTrialsLimit,
    supportEmail: config.supportEmail,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    keptPhotoDays: config.photos.keptPhotoDays,
  });
}

async function timed(
  check: () => Promise<void>,
  timeoutMs = 3000,
): Promise<{ status: 'ok' | 'down'; latencyMs?: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      }),
    ]);
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { status: 'down' };
  } finally {
    clearTimeout(timer);
  }
}

/** In-process jobs: disabled; with REDIS_URL: the queue's waiting and active jobs, or down. */
async function queueCheck(app: FastifyInstance): Promise<HealthResponse['checks']['queue']> {
  const queue = app.tryOnQueue;
  if (!queue) return { status: 'disabled', mode: 'in-process' };
  let counts = { waiting: 0, active: 0 };
  const check = await timed(async () => {
    counts = await queue.counts();
  });
  return check.status === 'ok' ? { ...check, mode: 'redis', ...counts } : { status: 'down', mode: 'redis' };
}

export default async function metaRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const started = Date.now();
  const cached = publicConfig(app);

  app.get(
    '/api/config',
    {
      schema: {
        summary: 'The public configuration: engines, billing, plans, limits',
        tags: ['meta'],
        response: { 200: PublicConfigSchema, ...ERROR_RESPONSES },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      // Each engine's state as /api/health has it: the page does not offer one that is down.
      const health = app.engines.status();
      return { ...cached, engines: cached.engines.map((e) => ({ ...e, status: health[e.id]?.status ?? 'ok' })) };
    },
  );

  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Health of the service and its dependencies (503 when one is down)',
        tags: ['meta'],
        response: {
          ...ERROR_RESPONSES,
          200: HealthResponseSchema,
          503: z.union([HealthResponseSchema, ErrorReplySchema]),
        },
      },
    },
    async (_request, reply) => {
      const [database, storage, queue] = await Promise.all([
        timed(() => pingDatabase(app.db)),
        timed(() => app.storage.check()),
        queueCheck(app),
      ]);
      const engines = app.engines.status();
      const engineDown = Object.values(engines).some((e) => e.status !== 'ok');
      const down = database.status === 'down' || storage.status === 'down' || queue.status === 'down';
      const body: HealthResponse = {
        status: down ? 'down' : engineDown ? 'degraded' : 'ok',
        version: VERSION,
        uptime: Math.round((Date.now() - started) / 1000),
        checks: {
          database: { ...database, kind: app.dbKind },
          storage: { ...storage, kind: app.storage.kind },
          engines,
          queue,
        },
      };
      reply.header('cache-control', 'no-store');
      return reply.status(down ? 503 : 200).send(body);
    },
  );
}
