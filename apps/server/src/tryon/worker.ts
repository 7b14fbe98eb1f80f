/**
 * The queue's worker side: `startTryOnWorker` runs queued try-ons (`job.ts`), reporting each
 * stage as the job's progress; `runWorker` is the worker process (`npm run worker`): it opens the
 * database, storage and engines of the given configuration and processes queued try-ons until
 * stopped. An API process with WORKER_IN_PROCESS starts the same worker (`plugins/tryon.ts`).
 */
import { longestEngineDeadlineMs } from '../engines/deadlines.js';
import os from 'node:os';
import type { TryOnEngine } from '@aidressup/engine';
import type { TryOnStage } from '@aidressup/contract';
import type { Config } from '../config.js';
import type { ChildLogSink } from '../logging.js';
import { startJobWorker, type JobWorker, type QueueOptions } from '../queue/job-queue.js';
import { engineEstimate, progressMessage } from './progress.js';
import { TRYON_QUEUE_NAME, processTryOnJob, type TryOnJobData, type TryOnJobDeps, type TryOnJobResult } from './job.js';
import { openDatabase } from '../db/database.js';
import { createStorage } from '../storage/create-storage.js';
import type { Storage } from '../storage/storage.js';
import { createEngineRegistry } from '../engines/registry.js';
import { startProcess } from '../services/recovery.js';
import { createLogger, type Logger } from '../logging.js';
import { announceWorkerSlots } from './line/redis-line.js';
import { newTicket } from './line/admission.js';
import { createSealedStore, photoKeyRing } from '../storage/sealed-store.js';
import { resolveSessionSecret } from '../config/session-secret.js';
import { keptPhotoAccess } from '../services/my-photos.js';

export type TryOnWorker = JobWorker<TryOnJobData, TryOnJobResult>;

/** How many try-ons a worker runs at once: ENGINE_CONCURRENCY, or the number of cores. */
export function workerConcurrency(config: Pick<Config, 'engines'>): number {
  return config.engines.concurrency > 0 ? config.engines.concurrency : Math.max(1, os.availableParallelism());
}

/** Starts processing try-on jobs; concurrency ENGINE_CONCURRENCY, or the number of cores. */
export async function startTryOnWorker(
  config: Config,
  deps: TryOnJobDeps & { log: ChildLogSink },
  options: QueueOptions = {},
): Promise<TryOnWorker> {
  if (!config.redisUrl) throw new Error('startTryOnWorker needs REDIS_URL');
  const concurrency = workerConcurrency(config);
  const worker = await startJobWorker<TryOnJobData, TryOnJobResult>(
    config.redisUrl,
    TRYON_QUEUE_NAME,
    async (job) => {
      const { data } = job;
      // One try-on's lines carry the API request's id, in the API's log and here.
      const log = data.reqId ? deps.log.child({ reqId: data.reqId }) : deps.log;
      const started = Date.now();
      log.info({ tryonId: data.tryonId, engine: data.engine, jobId: job.id }, 'try-on job started');
      const report = (stage: TryOnStage) => {
        if (!data.progressId) return;
        const message = progressMessage(
          {
            progressId: data.progressId,
            userId: data.userId,
            acceptedAt: data.acceptedAt ?? started,
            estimateSeconds: engineEstimate(data.engine, data.lowerGarmentKey !== undefined, config).estimateSeconds,
          },
          stage,
        );
        job
          .updateProgress(message)
          .catch((err: unknown) =>
            log.warn({ err, tryonId: data.tryonId, stage }, "could not report the try-on's progress"),
          );
      };
      const result = await processTryOnJob({ ...deps, log, prices: config.engines.prices }, data, report);
      log.info(
        { tryonId: data.tryonId, engine: data.engine, ok: result.ok, ms: Date.now() - started },
        'try-on job finished',
      );
      return result;
    },
    {
      concurrency,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      onError: (err) => deps.log.warn({ err }, 'queue worker error'),
    },
  );
  // The line (`redis-line.ts`) admits no more try-ons than the live workers' slots.
  const slots = await announceWorkerSlots({
    redisUrl: config.redisUrl,
    workerId: deps.ownerId ?? newTicket(),
    slots: concurrency,
    pool: TRYON_QUEUE_NAME,
  });
  return {
    worker: worker.worker,
    async close() {
      await slots.stop();
      await worker.close();
    },
  };
}

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
      { db: database.db, storage, clock, deadlineMs: longestEngineDeadlineMs(config), log },
      'worker',
    );
    const stop = new AbortController();
    // Kept person photos: opened with the API's key (PHOTO_KEY, or one derived from the session
    // secret, SESSION_SECRET or the one in DATA_DIR as the API resolves it).
    const keptPhotos = keptPhotoAccess({
      db: database.db,
      vault: createSealedStore(storage, photoKeyRing(config.photos, resolveSessionSecret(config))),
      clock,
      log,
    });
    const worker = await startTryOnWorker(
      config,
      { db: database.db, storage, engines, clock, ownerId: registered.id, log, stop: stop.signal, keptPhotos },
      options,
    );
    // Warm while already waiting for jobs, so the first try-on does not pay for loading models.
    void engines
      .warmAll((id, err) => log.warn({ err, engine: id }, 'engine failed to warm up'))
      .then(() => log.info({ engines: engines.status() }, 'engines warmed'));
    const process = registered;
    return {
      log,
      async close() {
        // No new job is taken (those waiting stay on the queue for other workers); the ones under
        // way get SHUTDOWN_GRACE_MS to finish, then give up and are refunded.
        const grace = setTimeout(() => {
          log.warn({ graceMs: config.shutdownGraceMs }, 'shutdown grace is over: refunding the try-ons still running');
          stop.abort();
        }, config.shutdownGraceMs);
        try {
          await worker.close();
        } finally {
          clearTimeout(grace);
        }
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
