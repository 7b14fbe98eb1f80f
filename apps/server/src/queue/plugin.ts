/**
 * The queue plugin: with REDIS_URL, decorates `app.tryOnQueue` (try-ons then run in worker
 * processes) and, with WORKER_IN_PROCESS=true, also processes jobs in this process.
 * Without REDIS_URL `app.tryOnQueue` is undefined and bullmq is never loaded.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createTryOnQueue, startTryOnWorker, type TryOnQueue } from './tryon-queue.js';

declare module 'fastify' {
  interface FastifyInstance {
    tryOnQueue: TryOnQueue | undefined;
  }
}

export default fp(
  async function queuePlugin(app: FastifyInstance) {
    const { config } = app;
    if (!config.redisUrl) {
      app.decorate('tryOnQueue', undefined);
      return;
    }
    const queue = await createTryOnQueue(config);
    app.decorate('tryOnQueue', queue);
    const worker = config.workerInProcess
      ? await startTryOnWorker(config, { db: app.db, storage: app.storage, engines: app.engines, log: app.log, ownerId: app.processId })
      : undefined;
    app.addHook('onClose', async () => {
      await worker?.close();
      await queue.close();
    });
  },
  { name: 'queue', dependencies: ['db', 'storage', 'recovery'] },
);
