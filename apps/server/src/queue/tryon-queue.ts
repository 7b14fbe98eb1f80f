/**
 * The try-on queue on Redis (BullMQ), used only when REDIS_URL is set; bullmq is imported then
 * and only then. `createTryOnQueue` is the queue TryOnRunner: it stores the normalised uploads,
 * enqueues and waits for the job; `startTryOnWorker` processes jobs (in `npm run worker`, or in
 * the API with WORKER_IN_PROCESS).
 *
 * Progress: the worker reports each stage as the job's progress (`job.updateProgress`) and every
 * API process relays the progress events it sees on the queue's event stream (QueueEvents) to its
 * own SSE subscribers, so the stream may be held by any API process.
 */
import os from 'node:os';
import type { Job, Queue, QueueEvents, Worker } from 'bullmq';
import type { TryOnStage } from '@aidressup/contract';
import type { Config } from '../config.js';
import type { ChildLogSink } from '../logging.js';
import { findTryOn } from '../repositories/tryons.js';
import { valueWithin, withTimeout } from '../services/deadline.js';
import {
  ProgressMessageSchema,
  progressMessage,
  engineEstimate,
  type ProgressHub,
  type ProgressMessage,
} from '../services/progress.js';
import type { RunResult, TryOnJob, TryOnRunner } from '../services/tryon-runner.js';
import {
  JOB_PRIORITY,
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
/**
 * A wait that ends this close to the deadline ended because of it: Node's timers run on a
 * monotonic clock rounded to the millisecond, so `Date.now()` may still read a millisecond or
 * two before the deadline when the deadline's timer fires.
 */
const DEADLINE_SLACK_MS = 20;
/** How long the ENGINE_BUSY check waits for the queue's job counts. */
const QUEUE_COUNT_TIMEOUT_MS = 1_000;

export interface QueueOptions {
  /** Redis key prefix (default BullMQ's `bull`); lets tests keep queues apart. */
  prefix?: string;
}

export interface TryOnQueueOptions extends QueueOptions {
  /** Where the progress events seen on the queue go (this process's SSE subscribers). */
  progress?: Pick<ProgressHub, 'publish'>;
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

export interface TryOnQueueDeps {
  db: TryOnJobDeps['db'];
  storage: TryOnJobDeps['storage'];
  /** The queue's depth limit for the ENGINE_BUSY check (ENGINE_QUEUE_LIMIT). */
  queueLimit: number;
}

export interface TryOnQueue extends TryOnRunner {
  readonly mode: 'redis';
  /** Job counts for the health check; throws when Redis cannot be reached. */
  counts(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

/** How often the waiting API side looks at the try-on's row. */
const ROW_POLL_MS = 1_000;
const SETTLED_ELSEWHERE = { ok: false, code: 'ENGINE_FAILED', message: '' } as const satisfies TryOnJobResult;

/** Resolves with SETTLED_ELSEWHERE once the try-on's row is no longer `processing`. */
function watchRow(
  deps: Pick<TryOnQueueDeps, 'db'>,
  tryonId: string,
): { settled: Promise<typeof SETTLED_ELSEWHERE>; stop(): void } {
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

/** A try-on's BullMQ job options: its id is the try-on's, and priority jobs go first (JOB_PRIORITY). */
export function tryOnJobOptions(t: Pick<TryOnJob, 'tryonId' | 'priority'>): { jobId: string; priority: number } {
  return { jobId: t.tryonId, priority: t.priority ? JOB_PRIORITY.priority : JOB_PRIORITY.normal };
}

/** A progress event from the queue's event stream, if it is one of ours. */
function progressOf(data: unknown): ProgressMessage | undefined {
  const parsed = ProgressMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

export async function createTryOnQueue(
  config: Config,
  deps: TryOnQueueDeps,
  options: TryOnQueueOptions = {},
): Promise<TryOnQueue> {
  if (!config.redisUrl) throw new Error('createTryOnQueue needs REDIS_URL');
  const { Queue, QueueEvents } = await import('bullmq');
  const prefix = options.prefix ? { prefix: options.prefix } : {};
  const queue: Queue<TryOnJobData, TryOnJobResult> = new Queue(TRYON_QUEUE_NAME, {
    connection: connectionOf(config.redisUrl, false),
    ...prefix,
    defaultJobOptions: {
      attempts: 1,
      removeOnComplete: { count: 1000, age: 3600 },
      removeOnFail: { count: 1000, age: 24 * 3600 },
    },
  });
  const events: QueueEvents = new QueueEvents(TRYON_QUEUE_NAME, {
    connection: connectionOf(config.redisUrl, true),
    ...prefix,
  });
  // Errors surface through the calls that need Redis; don't let the emitters crash the process.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  // Every API process relays every try-on's progress to its own subscribers (the hub keeps each
  // id to its owner and drops repeats).
  const hub = options.progress;
  if (hub) {
    events.on('progress', ({ data }) => {
      const message = progressOf(data);
      if (message) hub.publish(message);
    });
  }
  const eventsReady = events.waitUntilReady().catch(() => undefined);
  const timedOut = (what: string) => () => new Error(`${what} timed out`);

  async function run(t: TryOnJob): Promise<RunResult> {
    const data: TryOnJobData = {
      tryonId: t.tryonId,
      userId: t.userId,
      personKey: newUploadKey(t.person),
      garmentKey: newUploadKey(t.garment),
      ...(t.lowerGarment ? { lowerGarmentKey: newUploadKey(t.lowerGarment) } : {}),
      category: t.category,
      engine: t.engineId,
      deadlineAt: t.deadlineAt,
      ...(t.resultMaxSide !== undefined ? { resultMaxSide: t.resultMaxSide } : {}),
      ...(t.reqId ? { reqId: t.reqId } : {}),
      ...(t.progress ? { progressId: t.progress.progressId, acceptedAt: t.progress.acceptedAt } : {}),
    };
    const remaining = () => t.deadlineAt - Date.now();
    let result: RunResult;
    let job: Job<TryOnJobData, TryOnJobResult> | undefined;
    try {
      const lower = t.lowerGarment;
      await Promise.all([
        deps.storage.put(data.personKey, t.person.data, t.person.mimeType),
        deps.storage.put(data.garmentKey, t.garment.data, t.garment.mimeType),
        ...(lower && data.lowerGarmentKey ? [deps.storage.put(data.lowerGarmentKey, lower.data, lower.mimeType)] : []),
      ]);
      // Enqueueing takes milliseconds; when Redis is down it fails fast instead of using up the deadline.
      job = await withTimeout(
        queue.add('tryon', data, tryOnJobOptions(t)),
        Math.min(remaining(), ENQUEUE_TIMEOUT_MS),
        timedOut('enqueueing'),
      );
      const added = job;
      // From now on this side's stages also go out as the job's progress, for the other API processes.
      t.progress?.relayThrough((message) => added.updateProgress(message));
      t.progress?.report('queued');
      await withTimeout(eventsReady, remaining(), timedOut('connecting to the queue events'));
      const finished = job.waitUntilFinished(events, Math.max(1, remaining()));
      finished.catch(() => undefined);
      // Also watch the row: when recovery settles it (the worker holding the job is gone), answer
      // at once instead of at the deadline.
      const watch = watchRow(deps, t.tryonId);
      let answer: TryOnJobResult | typeof SETTLED_ELSEWHERE;
      try {
        answer = await Promise.race([finished, watch.settled]);
      } finally {
        watch.stop();
      }
      if (answer === SETTLED_ELSEWHERE) {
        // The job's own answer (a refusal's message) usually follows within moments.
        answer = await valueWithin(finished, 1_500, SETTLED_ELSEWHERE);
        t.progress?.report('failed');
        await queue.remove(t.tryonId).catch(() => undefined);
        await deleteUploads(deps.storage, data).catch(() => undefined);
      }
      result = answer.ok ? answer : { ok: false, code: answer.code, message: answer.message };
    } catch (err) {
      const code = remaining() <= DEADLINE_SLACK_MS ? 'ENGINE_TIMEOUT' : 'ENGINE_FAILED';
      result = {
        ok: false,
        code,
        message: '',
        detail: `queued try-on did not finish: ${(err as Error)?.message ?? String(err)}`,
      };
      // Told to the other API processes before the job (and its progress) goes.
      if (job) t.progress?.report('failed');
      // A job no worker has taken yet will never run; the uploads go now either way.
      if (job) await queue.remove(t.tryonId).catch(() => undefined);
      await deleteUploads(deps.storage, data).catch(() => undefined);
    }
    // The row says how it ended (a worker may have completed it just as the wait gave up).
    const row = await findTryOn(deps.db, t.tryonId);
    if (row?.status === 'succeeded' && row.result_name) return { ok: true, resultName: row.result_name };
    return result.ok ? { ok: false, code: 'ENGINE_FAILED', message: '' } : result;
  }

  async function counts() {
    const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
    return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
  }

  return {
    mode: 'redis',
    run,
    async busy() {
      // Redis unreachable: no answer here (the try-on then fails fast, refunded, when it is enqueued).
      const c = await valueWithin(counts(), QUEUE_COUNT_TIMEOUT_MS, undefined);
      return c !== undefined && c.waiting >= deps.queueLimit;
    },
    counts,
    async close() {
      // Closing waits for Redis; when it cannot be reached, drop the connections instead.
      // (QueueEvents.close waits for a connection that may never come; its RedisConnection
      // closes at once when forced.)
      await withTimeout(
        Promise.allSettled([events.close(), queue.close()]),
        2_000,
        timedOut('closing the queue'),
      ).catch(async () => {
        const forced = [events, queue].map((c) =>
          (c as unknown as { connection?: { close(force: boolean): Promise<void> } }).connection?.close(true),
        );
        await Promise.allSettled(forced.filter((p): p is Promise<void> => p !== undefined));
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
export async function startTryOnWorker(
  config: Config,
  deps: TryOnJobDeps & { log: ChildLogSink },
  options: QueueOptions = {},
): Promise<TryOnWorker> {
  if (!config.redisUrl) throw new Error('startTryOnWorker needs REDIS_URL');
  const { Worker } = await import('bullmq');
  const concurrency =
    config.engines.concurrency > 0 ? config.engines.concurrency : Math.max(1, os.availableParallelism());
  const worker: Worker<TryOnJobData, TryOnJobResult> = new Worker(
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
            estimateSeconds: engineEstimate(data.engine, data.lowerGarmentKey !== undefined).estimateSeconds,
          },
          stage,
        );
        job
          .updateProgress(message)
          .catch((err: unknown) =>
            log.warn({ err, tryonId: data.tryonId, stage }, "could not report the try-on's progress"),
          );
      };
      const result = await processTryOnJob({ ...deps, log }, data, report);
      log.info(
        { tryonId: data.tryonId, engine: data.engine, ok: result.ok, ms: Date.now() - started },
        'try-on job finished',
      );
      return result;
    },
    {
      connection: connectionOf(config.redisUrl, true),
      concurrency,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      // A job is never retried: a second run could not be paid for twice, but it could run late.
      maxStalledCount: 0,
    },
  );
  worker.on('error', (err) => deps.log.warn({ err }, 'queue worker error'));
  await worker.waitUntilReady();
  return {
    worker,
    async close() {
      await worker.close();
    },
  };
}
