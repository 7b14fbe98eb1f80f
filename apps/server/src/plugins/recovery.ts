/**
 * The recovery plugin: registers this API process (`app.processId` owns the try-ons it reserves),
 * settles at once the try-ons of processes that are gone (before listening), then keeps a
 * heartbeat and, with background work on, sweeps every couple of seconds (services/recovery.ts).
 */
import { longestEngineDeadlineMs } from '../engines/deadlines.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startProcess } from '../services/recovery.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's id in `processes`; the owner of the try-ons it runs. */
    processId: string;
  }
}

export default fp(
  async function recoveryPlugin(app: FastifyInstance, opts: { sweep: boolean }) {
    const handle = await startProcess(
      {
        db: app.db,
        storage: app.storage,
        clock: app.clock,
        deadlineMs: longestEngineDeadlineMs(app.config),
        log: app.log,
      },
      'api',
      { sweep: opts.sweep },
    );
    app.decorate('processId', handle.id);
    // Before the database closes (onClose hooks run in reverse order of registration).
    app.addHook('onClose', async () => {
      await handle.stop();
    });
  },
  { name: 'recovery', dependencies: ['db', 'storage'] },
);
