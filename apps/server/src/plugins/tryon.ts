/**
 * The try-on plugin: decorates `app.tryOns`, the try-on pipeline (`tryon/pipeline.ts`) that the
 * try-on route calls, and `app.tryOnRunner`, where reserved try-ons run. With REDIS_URL that is the
 * queue (`app.tryOnQueue`, try-ons then run in worker processes) and, with WORKER_IN_PROCESS=true,
 * this process also processes jobs. Without REDIS_URL the engines run in this process,
 * `app.tryOnQueue` is undefined and bullmq is never loaded.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMemoryLine, type AdmissionLine } from '../tryon/line/admission.js';
import { createInProcessRunner } from '../tryon/in-process-runner.js';
import { createRedisLine } from '../tryon/line/redis-line.js';
import { createTryOnService, type TryOnService } from '../tryon/pipeline.js';
import { createTryOnQueue, type TryOnQueue } from '../tryon/queued-runner.js';
import type { TryOnRunner } from '../tryon/runner.js';
import { startTryOnWorker, workerConcurrency } from '../tryon/worker.js';
import { keptPhotoAccess } from '../services/my-photos.js';
import { createMemoryHolds, createRedisHolds, type ShopperHolds } from '../tryon/line/holds.js';
import { closeRedis, connectRedis } from '../redis/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    tryOnQueue: TryOnQueue | undefined;
    tryOnRunner: TryOnRunner;
    /** Where try-ons wait for a slot, uncharged (`tryon/line/admission.ts`). */
    tryOnLine: AdmissionLine;
    tryOns: TryOnService;
  }
}

/** How long a ticket keeps its place after its Retry-After has passed. */
const TICKET_GRACE_MS = 30_000;

/** A shopper's hold outlives the longest wait in line by this much (its photos checked meanwhile). */
const HOLD_MARGIN_MS = 60_000;

async function createRunner(
  app: FastifyInstance,
  stop: AbortSignal,
): Promise<{ runner: TryOnRunner; line: AdmissionLine; holds: ShopperHolds }> {
  const { config } = app;
  const limits = {
    maxWaiting: config.engines.queueLimit,
    maxWaitMs: config.engines.lineWaitMs,
    ticketGraceMs: TICKET_GRACE_MS,
    maxTicketsPerUser: config.engines.lineTicketsPerUser,
    maxTicketsPerAddress: config.engines.lineTicketsPerAddress,
  };
  // Kept person photos (My photos): a worker reads them, and keeps an analysis the engine made again.
  const keptPhotos = keptPhotoAccess({ db: app.db, vault: app.photoVault, clock: app.clock, log: app.log });
  if (!config.redisUrl) {
    app.decorate('tryOnQueue', undefined);
    const runner = createInProcessRunner({
      db: app.db,
      storage: app.storage,
      engines: app.engines,
      config,
      clock: app.clock,
      log: app.log,
      keptPhotos,
    });
    // The line's slots are the engine's: as many as its limiter runs at once.
    const line = createMemoryLine({ ...limits, capacity: (engineId) => runner.limiter(engineId).limit });
    return { runner, line, holds: createMemoryHolds() };
  }
  const queue = await createTryOnQueue(
    config,
    { db: app.db, storage: app.storage, processId: app.processId, log: app.log },
    { progress: app.tryOnProgress },
  );
  app.decorate('tryOnQueue', queue);
  const line = await createRedisLine({
    ...limits,
    redisUrl: config.redisUrl,
    progress: app.tryOnProgress,
    // When Redis fails, the line falls back to this process's own: as many slots as a worker here would run.
    fallbackCapacity: workerConcurrency(config),
  });
  const worker = config.workerInProcess
    ? await startTryOnWorker(config, {
        db: app.db,
        storage: app.storage,
        engines: app.engines,
        log: app.log,
        ownerId: app.processId,
        stop,
        keptPhotos,
      })
    : undefined;
  // What shoppers hold in line, shared by the API processes like the line.
  const holdsClient = await connectRedis(config.redisUrl);
  const holds = createRedisHolds({ client: holdsClient, ttlMs: config.engines.lineWaitMs + HOLD_MARGIN_MS });
  app.addHook('onClose', async () => {
    await worker?.close();
    await queue.close();
    await line.close();
    await holds.close();
    await closeRedis(holdsClient);
  });
  return { runner: queue, line, holds };
}

export default fp(
  async function tryOnPlugin(app: FastifyInstance) {
    // Closing (SIGTERM): no new request is taken (Fastify answers 503) and the try-ons under way
    // get SHUTDOWN_GRACE_MS to finish; then they give up and are refunded, so the close completes.
    const stop = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    app.addHook('preClose', async () => {
      grace = setTimeout(() => {
        app.log.warn(
          { graceMs: app.config.shutdownGraceMs },
          'shutdown grace is over: refunding the try-ons still running',
        );
        stop.abort();
      }, app.config.shutdownGraceMs);
    });
    app.addHook('onClose', async () => clearTimeout(grace));
    const { runner, line, holds } = await createRunner(app, stop.signal);
    app.decorate('tryOnRunner', runner);
    app.decorate('tryOnLine', line);
    app.decorate(
      'tryOns',
      createTryOnService({
        db: app.db,
        config: app.config,
        clock: app.clock,
        log: app.log,
        runner,
        line,
        holds,
        progress: app.tryOnProgress,
        processId: app.processId,
        stop: stop.signal,
        engines: app.engines,
        vault: app.photoVault,
      }),
    );
  },
  { name: 'tryon', dependencies: ['db', 'storage', 'recovery', 'progress'] },
);
