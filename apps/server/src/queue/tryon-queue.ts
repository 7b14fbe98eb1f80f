/**
 * The try-on queue on Redis (BullMQ), used only when REDIS_URL is set; bullmq is imported then
 * and only then. The API side stores the normalised uploads, enqueues and waits for the job;
 * `startTryOnWorker` processes jobs (in `npm run worker`, or in the API with WORKER_IN_PROCESS).
 */
import os from 'node:os';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { TryOnResponse } from '@aidressup/contract';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { balance, refundTryOn } from '../ledger/ledger.js';
import { findTryOn } from '../repositories/tryons.js';
import type { NormalisedImage } from '../services/images.js';
import {
  TRYON_QUEUE_NAME,
  deleteUploads,
  newUploadKey,
  processTryOnJob,
  type TryOnJobData,
  type TryOnJobDeps,
  type TryOnJobResult,
} from './tryon-job.js';

/** How long putting a job on the queue may take before the try-on fails (Redis unreachable). */
const ENQUEUE_TIMEOUT_MS = 5_000;

export interface QueueOptions {
  /** Redis key prefix (default BullMQ's `bull`); lets tests keep queues apart. */
  prefix?: string;
}

/** Connection options for ioredis from a redis:// or rediss:// URL. */
function connectionOf(redisUrl: string, forWorker: boolean) {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) || 0 } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    // Workers block on Redis and must retry for ever; the API side fails fast when Redis is down.
    maxRetriesPerRequest: forWorker ? null : 1,
    enableOfflineQueue: forWorker,
    connectTimeout: 5_000,
  };
}

export interface QueuedTryOn {
  tryonId: string;
  userId: string;
  charge: 'trial' | 'credit';
  category: TryOnJobData['category'];
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** epoch ms */
  deadlineAt: number;
}

export interface TryOnQueueDeps {
  db: TryOnJobDeps['db'];
  storage: TryOnJobDeps['storage'];
  clock: () => Date;
  log: { warn(obj: object, msg: string): void };
}

export interface TryOnQueue {
  readonly mode: 'redis';
  /** Runs a reserved try-on through the queue and answers like the in-process pipeline. */
  run(deps: TryOnQueueDeps, t: QueuedTryOn): Promise<TryOnResponse>;
  /** Job counts for the health check; throws when Redis cannot be reached. */
  counts(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out`)), Math.max(0, ms));
    }),
  ]).finally(() => clearTimeout(timer));
}

/** How often the waiting API side looks at the try-on's row. */
const ROW_POLL_MS = 1_000;
const SETTLED_ELSEWHERE = { ok: false, code: 'ENGINE_FAILED', message: '' } as const satisfies TryOnJobResult;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with SETTLED_ELSEWHERE once the try-on's row is no longer `processing`. */
function watchRow(deps: TryOnQueueDeps, tryonId: string): { settled: Promise<typeof SETTLED_ELSEWHERE>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const settled = new Promise<typeof SETTLED_ELSEWHERE>((resolve) => {
    const tick = () => {
      if (stopped) return;
      findTryOn(deps.db, tryonId).then(
        (row) => {
          if (stopped) return;
          if (row && row.status !== 'processing') resolve(SETTLED_ELSEWHERE);
          else timer = setTimeout(tick, ROW_POLL_MS);
        },
        () => {
          if (!stopped) timer = setTimeout(tick, ROW_POLL_MS);
        },
      );
    };
    timer = setTimeout(tick, ROW_POLL_MS);
  });
  return {
    settled,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export async function createTryOnQueue(config: Config, options: QueueOptions = {}): Promise<TryOnQueue> {
  if (!config.redisUrl) throw new Error('createTryOnQueue needs REDIS_URL');
  const { Queue, QueueEvents } = await import('bullmq');
  const prefix = options.prefix ? { prefix: options.prefix } : {};
  const queue: Queue<TryOnJobData, TryOnJobResult> = new Queue(TRYON_QUEUE_NAME, {
    connection: connectionOf(config.redisUrl, false),
    ...prefix,
    defaultJobOptions: { attempts: 1, removeOnComplete: { count: 1000, age: 3600 }, removeOnFail: { count: 1000, age: 24 * 3600 } },
  });
  const events: QueueEvents = new QueueEvents(TRYON_QUEUE_NAME, { connection: connectionOf(config.redisUrl, true), ...prefix });
  // Errors surface through the calls that need Redis; don't let the emitters crash the process.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  const eventsReady = events.waitUntilReady().catch(() => undefined);

  async function run(deps: TryOnQueueDeps, t: QueuedTryOn): Promise<TryOnResponse> {
    const data: TryOnJobData = {
      tryonId: t.tryonId,
      userId: t.userId,
      personKey: newUploadKey(t.person),
      garmentKey: newUploadKey(t.garment),
      category: t.category,
      engine: t.engineId,
      deadlineAt: t.deadlineAt,
    };
    const remaining = () => t.deadlineAt - Date.now();
    let result: TryOnJobResult;
    let jobId: string | undefined;
    try {
      await Promise.all([
        deps.storage.put(data.personKey, t.person.data, t.person.mimeType),
        deps.storage.put(data.garmentKey, t.garment.data, t.garment.mimeType),
      ]);
      // Enqueueing takes milliseconds; when Redis is down it fails fast instead of using up the deadline.
      const job = await withTimeout(queue.add('tryon', data, { jobId: t.tryonId }), Math.min(remaining(), ENQUEUE_TIMEOUT_MS), 'enqueueing');
      jobId = job.id;
      await withTimeout(eventsReady, remaining(), 'connecting to the queue events');
      const finished = job.waitUntilFinished(events, Math.max(1, remaining())) as Promise<TryOnJobResult>;
      finished.catch(() => undefined);
      // Also watch the row: when recovery settles it (the worker holding the job is gone), answer
      // at once instead of at the deadline.
      const watch = watchRow(deps, t.tryonId);
      try {
        result = await Promise.race([finished, watch.settled]);
      } finally {
        watch.stop();
      }
      if (result === SETTLED_ELSEWHERE) {
        // The job's own answer (a refusal's message) usually follows within moments.
        result = await Promise.race([finished, sleep(1_500).then(() => ({ ok: false, code: 'ENGINE_FAILED', message: '' }) as const)]).catch(
          () => ({ ok: false, code: 'ENGINE_FAILED', message: '' }) as const,
        );
        if (jobId) await queue.remove(jobId).catch(() => undefined);
        await deleteUploads(deps.storage, data).catch(() => undefined);
      }
    } catch (err) {
      const timedOut = remaining() <= 0;
      const code = timedOut ? 'ENGINE_TIMEOUT' : 'ENGINE_FAILED';
      deps.log.warn({ tryonId: t.tryonId, engine: t.engineId, code, detail: (err as Error)?.message }, 'queued try-on did not finish; refunding');
      result = { ok: false, code, message: '' };
      // Whichever side notices first settles the row; the other finds it no longer processing.
      await refundTryOn(deps.db, { tryonId: t.tryonId, errorCode: code, now: deps.clock() });
      // A job no worker has taken yet will never run; the uploads go now either way.
      if (jobId) await queue.remove(jobId).catch(() => undefined);
      await deleteUploads(deps.storage, data).catch(() => undefined);
    }

    // The row says how it ended (a worker may have completed it just as the wait gave up).
    const row = await findTryOn(deps.db, t.tryonId);
    if (row?.status === 'succeeded' && row.result_name) {
      return {
        success: true,
        imageUrl: `/api/results/${row.result_name}`,
        usedFreeTrial: t.charge === 'trial',
        creditsRemaining: await balance(deps.db, t.userId, deps.clock()),
        tryonId: t.tryonId,
      };
    }
    if (row?.status === 'processing') {
      // The job said it failed but the row was not settled (should not happen): settle it now.
      await refundTryOn(deps.db, { tryonId: t.tryonId, errorCode: result.ok ? 'ENGINE_FAILED' : result.code, now: deps.clock() });
    }
    const code = result.ok ? 'ENGINE_FAILED' : result.code;
    const message = !result.ok && result.message ? result.message : undefined;
    throw new AppError(code, message);
  }

  return {
    mode: 'redis',
    run,
    async counts() {
      const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
      return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
    },
    async close() {
      // Closing waits for Redis; when it cannot be reached, drop the connections instead.
      // (QueueEvents.close waits for a connection that may never come; its RedisConnection
      // closes at once when forced.)
      await withTimeout(Promise.allSettled([events.close(), queue.close()]), 2_000, 'closing the queue').catch(async () => {
        const forced = [events, queue].map((c) => (c as unknown as { connection?: { close(force: boolean): Promise<void> } }).connection?.close(true));
        await Promise.allSettled(forced);
      });
    },
  };
}

export interface TryOnWorker {
  close(): Promise<void>;
  /** The underlying BullMQ worker (events for logging). */
  readonly worker: Worker<TryOnJobData, TryOnJobResult>;
}

/** Starts processing try-on jobs; concurrency ENGINE_CONCURRENCY, or the number of cores. */
export async function startTryOnWorker(config: Config, deps: TryOnJobDeps, options: QueueOptions = {}): Promise<TryOnWorker> {
  if (!config.redisUrl) throw new Error('startTryOnWorker needs REDIS_URL');
  const { Worker } = await import('bullmq');
  const concurrency = config.engines.concurrency > 0 ? config.engines.concurrency : Math.max(1, os.availableParallelism());
  const worker: Worker<TryOnJobData, TryOnJobResult> = new Worker(
    TRYON_QUEUE_NAME,
    async (job) => processTryOnJob(deps, job.data),
    {
      connection: connectionOf(config.redisUrl, true),
      concurrency,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      // A job is never retried: a second run could not be paid for twice, but it could run late.
      maxStalledCount: 0,
    },
  );
  worker.on('error', (err) => deps.log?.warn({ err }, 'queue worker error'));
  await worker.waitUntilReady();
  return {
    worker,
    async close() {
      await worker.close();
    },
  };
}
