/** GET /api/config (the public subset of the configuration: engines with their kind and estimate, billing, plans, limits) and GET /api/health (database, storage, engines, queue). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HealthResponseSchema,
  MAX_UPLOAD_BYTES,
  PLANS,
  PublicConfigSchema,
  type PublicConfig,
} from '@aidressup/contract';
import { VERSION } from '../version.js';
import { photoKeyNote } from '../config/photos.js';
import { detailedHealth, publicHealth, type HealthDeps } from '../services/health.js';
import { ERROR_RESPONSES, ErrorReplySchema } from '../http/schemas.js';
import { engineEstimate } from '../tryon/progress.js';

function publicConfig(app: FastifyInstance): PublicConfig {
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

/** What the health report reads, from the app. */
export function healthDeps(app: FastifyInstance, startedAt: number): HealthDeps {
  return {
    db: app.db,
    dbKind: app.dbKind,
    storage: app.storage,
    engines: app.engines,
    queue: app.tryOnQueue,
    version: VERSION,
    startedAt,
  };
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
        summary:
          'Health of the service and its dependencies, states only (503 when one is down); the details are GET /api/admin/health',
        tags: ['meta'],
        response: {
          ...ERROR_RESPONSES,
          200: HealthResponseSchema,
          503: z.union([HealthResponseSchema, ErrorReplySchema]),
        },
      },
    },
    async (_request, reply) => {
      // States only: reasons, addresses and errors are for operators (GET /api/admin/health).
      const body = publicHealth(await detailedHealth(healthDeps(app, started), photoKeyNote(app.config)));
      reply.header('cache-control', 'no-store');
      return reply.status(body.status === 'down' ? 503 : 200).send(body);
    },
  );
}
