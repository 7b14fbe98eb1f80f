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
import { createLogger, type Logger } from '../logging.js';
import { startTryOnWorker, type QueueOptions } from './tryon-queue.js';

export interface WorkerProcess {
  close(): Promise<void>;
  readonly log: Logger;
}

export interface RunWorkerOptions extends QueueOptions {
  /** Engines to use instead of the ones configuration enables (tests). */
  engines?: Record<string, TryOnEngine>;
  storage?: Storage;
  /** Default: a pino logger with the server's shared options, on stdout. */
  log?: Logger;
  /** The time source for the ledger; default the system clock. */
  clock?: () => Date;
}

export async function runWorker(config: Config, options: RunWorkerOptions = {}): Promise<WorkerProcess> {
  if (!config.redisUrl) throw new Error('REDIS_URL is not set');
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const storage = options.storage ?? createStorage(config);
  const log = options.log ?? createLogger(config, config.sessionSecret ? { addressKey: config.sessionSecret } : {});
  const engines = createEngineRegistry(config, options.engines, { log });
  const clock = options.clock ?? (() => new Date());
  let registered: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    // Registers this worker and settles at once the try-ons of workers (or API processes) that are gone.
    registered = await startProcess(
      { db: database.db, storage, clock, deadlineMs: config.engines.deadlineMs, log },
      'worker',
    );
    const worker = await startTryOnWorker(
      config,
      { db: database.db, storage, engines, clock, ownerId: registered.id, log },
      options,
    );
    const process = registered;
    return {
      log,
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
