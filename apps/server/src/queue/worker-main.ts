/**
 * The worker process (`npm run worker`): opens the database, storage and engines of the given
 * configuration and processes queued try-ons until stopped.
 */
import type { TryOnEngine } from '@aidressup/engine';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createStorage } from '../storage/create-storage.js';
import type { Storage } from '../storage/storage.js';
import { createEngineRegistry } from '../engines/registry.js';
import { startProcess } from '../services/recovery.js';
import { startTryOnWorker, type QueueOptions } from './tryon-queue.js';

export interface WorkerProcess {
  close(): Promise<void>;
}

export interface RunWorkerOptions extends QueueOptions {
  /** Engines to use instead of the ones configuration enables (tests). */
  engines?: Record<string, TryOnEngine>;
  storage?: Storage;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** The time source for the ledger; default the system clock. */
  clock?: () => Date;
}

export async function runWorker(config: Config, options: RunWorkerOptions = {}): Promise<WorkerProcess> {
  if (!config.redisUrl) throw new Error('REDIS_URL is not set');
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = options.storage ?? createStorage(config);
  const engines = createEngineRegistry(config, options.engines);
  const clock = options.clock ?? (() => new Date());
  let registered: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    // Registers this worker and settles at once the try-ons of workers (or API processes) that are gone.
    registered = await startProcess({ db: database.db, storage, clock, deadlineMs: config.engines.deadlineMs, ...(options.log ? { log: options.log } : {}) }, 'worker');
    const worker = await startTryOnWorker(
      config,
      { db: database.db, storage, engines, clock, ownerId: registered.id, ...(options.log ? { log: options.log } : {}) },
      options,
    );
    const process = registered;
    return {
      async close() {
        await worker.close();
        await process.stop();
        await engines.closeAll();
        await database.close();
      },
    };
  } catch (err) {
    await registered?.stop();
    await engines.closeAll();
    await database.close();
    throw err;
  }
}
