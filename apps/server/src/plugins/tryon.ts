/**
 * The try-on plugin: decorates `app.tryOns`, the try-on pipeline (`tryon/pipeline.ts`) that the
 * try-on route calls, and `app.tryOnRunner`, where reserved try-ons run. With REDIS_URL that is the
 * queue (`app.tryOnQueue`, try-ons then run in worker processes) and, with WORKER_IN_PROCESS=true,
 * this process also processes jobs. Without REDIS_URL the engines run in this process,
 * `app.tryOnQueue` is undefined and bullmq is never loaded.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createInProcessRunner } from '../tryon/in-process-runner.js';
import { createTryOnService, type TryOnService } from '../tryon/pipeline.js';
import { createTryOnQueue, type TryOnQueue } from '../tryon/queued-runner.js';
import type { TryOnRunner } from '../tryon/runner.js';
import { startTryOnWorker } from '../tryon/worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    tryOnQueue: TryOnQueue | undefined;
    tryOnRunner: TryOnRunner;
    tryOns: TryOnService;
  }
}

async function createRunner(app: FastifyInstance): Promise<TryOnRunner> {
  const { config } = app;
  if (!config.redisUrl) {
    app.decorate('tryOnQueue', undefined);
    return createInProcessRunner({ db: app.db, storage: app.storage, engines: app.engines, config, clock: app.clock });
  }
  const queue = await createTryOnQueue(
    config,
    { db: app.db, storage: app.storage, queueLimit: config.engines.queueLimit },
    { progress: app.tryOnProgress },
  );
  app.decorate('tryOnQueue', queue);
  const worker = config.workerInProcess
    ? await startTryOnWorker(config, {
        db: app.db,
        storage: app.storage,
        engines: app.engines,
        log: app.log,
        ownerId: app.processId,
      })
    : undefined;
  app.addHook('onClose', async () => {
    await worker?.close();
    await queue.close();
  });
  return queue;
}

export default fp(
  async function tryOnPlugin(app: FastifyInstance) {
    const runner = await createRunner(app);
    app.decorate('tryOnRunner', runner);
    app.decorate(
      'tryOns',
      createTryOnService({
        db: app.db,
        config: app.config,
        clock: app.clock,
        log: app.log,
        runner,
        progress: app.tryOnProgress,
        processId: app.processId,
        engines: app.engines,
        storage: app.storage,
      }),
    );
  },
  { name: 'tryon', dependencies: ['db', 'storage', 'recovery', 'progress'] },
);
