/**
 * Metrics: decorates `app.metrics` and serves `GET /metrics` in Prometheus text format,
 * only when METRICS_TOKEN is set and only to `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise);
 * without the token the path is 404 and prom-client is never loaded.
 *
 * Try-ons are counted where the shopper's request is answered (both job modes), credits where
 * the ledger writes them, webhooks where they are answered; the queue depth is read at scrape time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { onCreditEvent } from '../ledger/ledger.js';
import { createPrometheusMetrics, noMetrics, type Metrics } from '../metrics/metrics.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { toAppError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
  interface FastifyRequest {
    /** Set by the try-on route once it has chosen the engine (metrics label). */
    tryOnEngine: string | undefined;
    /** The error code a request was answered with (metrics label). */
    metricsOutcome: string | undefined;
  }
}

const TRYON_PATH = '/api/process-image';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    const token = app.config.metricsToken;
    const queue = app.tryOnQueue;
    const metrics = token
      ? await createPrometheusMetrics(queue ? { queueDepth: () => queue.counts() } : {})
      : noMetrics;
    app.decorate('metrics', metrics);
    app.decorateRequest('tryOnEngine', undefined);
    app.decorateRequest('metricsOutcome', undefined);

    app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
      if (!token) throw new AppError('NOT_FOUND');
      const given = bearerOf(request);
      if (!given || !timingSafeEqual(digest(given), digest(token))) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('UNAUTHORIZED');
      }
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    });
    if (!metrics.enabled) return;

    const stopListening = onCreditEvent((type, amount) => metrics.creditEvent(type, amount));
    app.addHook('onClose', async () => stopListening());

    app.addHook('onError', async (request, _reply, error) => {
      if (request.routeOptions.url === TRYON_PATH) request.metricsOutcome = toAppError(error).code.toLowerCase();
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url;
      if (route === TRYON_PATH) {
        const outcome = request.metricsOutcome ?? (reply.statusCode < 400 ? 'succeeded' : `http_${reply.statusCode}`);
        metrics.tryOnFinished(request.tryOnEngine ?? 'none', outcome, reply.elapsedTime / 1000);
      } else if (route === PADDLE_WEBHOOK_PATH) {
        metrics.webhook('paddle', reply.statusCode < 300 ? 'processed' : reply.statusCode < 500 ? 'refused' : 'failed');
      }
    });
  },
  { name: 'metrics', dependencies: ['tryon'] },
);
