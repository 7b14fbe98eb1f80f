/**
 * The try-on runner plugin: decorates `app.tryOnRunner`, where reserved try-ons run. With
 * REDIS_URL that is the queue (`app.tryOnQueue`, try-ons then run in worker processes) and, with
 * WORKER_IN_PROCESS=true, this process also processes jobs. Without REDIS_URL the engines run in
 * this process, `app.tryOnQueue` is undefined and bullmq is never loaded.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createInProcessRunner, type TryOnRunner } from '../services/tryon-runner.js';
import { createTryOnQueue, startTryOnWorker, type TryOnQueue } from './tryon-queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    tryOnQueue: TryOnQueue | undefined;
    tryOnRunner: TryOnRunner;
  }
}

export default fp(
  async function queuePlugin(app: FastifyInstance) {
    const { config } = app;
    if (!config.redisUrl) {
      app.decorate('tryOnQueue', undefined);
      app.decorate(
        'tryOnRunner',
        createInProcessRunner({ db: app.db, storage: app.storage, engines: app.engines, config, clock: app.clock }),
      );
      return;
    }
    const queue = await createTryOnQueue(
      config,
      { db: app.db, storage: app.storage, queueLimit: config.engines.queueLimit },
      { progress: app.tryOnProgress },
    );
    app.decorate('tryOnQueue', queue);
    app.decorate('tryOnRunner', queue);
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
  },
  { name: 'queue', dependencies: ['db', 'storage', 'recovery', 'progress'] },
);
