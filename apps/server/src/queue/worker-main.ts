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
import { startTryOnWorker, type QueueOptions } from './tryon-queue.js';

export interface WorkerProcess {
  close(): Promise<void>;
}

export interface RunWorkerOptions extends QueueOptions {
  /** Engines to use instead of the ones configuration enables (tests). */
  engines?: Record<string, TryOnEngine>;
  storage?: Storage;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

export async function runWorker(config: Config, options: RunWorkerOptions = {}): Promise<WorkerProcess> {
  if (!config.redisUrl) throw new Error('REDIS_URL is not set');
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = options.storage ?? createStorage(config);
  const engines = createEngineRegistry(config, options.engines);
  try {
    const worker = await startTryOnWorker(config, { db: database.db, storage, engines, ...(options.log ? { log: options.log } : {}) }, options);
    return {
      async close() {
        await worker.close();
        await engines.closeAll();
        await database.close();
      },
    };
  } catch (err) {
    await engines.closeAll();
    await database.close();
    throw err;
  }
}
