/**
 * The job queue on Redis (BullMQ): the transport only, used only when REDIS_URL is set; bullmq is
 * imported then and only then. It knows nothing of try-ons: `openJobQueue` adds jobs, waits for
 * their answers and hands on their progress events; `startJobWorker` runs a processor on them.
 * The try-on runner built on it is `tryon/queued-runner.ts`; the worker's processor is
 * `tryon/worker.ts`.
 */
import type { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { COMMAND_TIMEOUT_MS, reconnectDelayMs, watchConnection, type Redis } from '../redis/client.js';
import { withTimeout } from '../timeout.js';

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
    // Workers block on Redis and must retry for ever; the API side fails fast when Redis is down
    // (and when it does not answer: a command that hangs fails).
    maxRetriesPerRequest: forWorker ? null : 1,
    enableOfflineQueue: forWorker,
    ...(forWorker ? {} : { commandTimeout: COMMAND_TIMEOUT_MS }),
    connectTimeout: 5_000,
    // Reached again within a second of Redis's return, however long it was away.
    retryStrategy: reconnectDelayMs,
  };
}

/**
 * Hands BullMQ's connection (once it has one) to the watchdog (`redis/client.ts`), which drops it
 * when Redis stops answering on it without closing it; `blocking`: it waits on blocking commands.
 */
function watchClient(client: Promise<unknown>, blocking: boolean): void {
  client.then(
    (c) => watchConnection(c as Redis, { blocking }),
    () => undefined,
  );
}

/**
 * How long a worker waits before trying again a call to Redis that failed for want of a
 * connection (taking the next job, recording a job's end). BullMQ's default is 15 s: a worker
 * whose Redis came back would sit idle that long.
 */
const WORKER_RETRY_DELAY_MS = 1_000;

/** A job as its processor sees it. */
export interface RunningJob<D> {
  readonly id?: string | undefined;
  readonly data: D;
  /** Sent to every process listening to the queue's events (`onProgress`). */
  updateProgress(progress: object): Promise<void>;
}

/** A job on the queue, as the process that added it sees it. */
export interface QueuedJob<R> {
  /** The processor's answer; rejects when the job fails or `ms` pass first. */
  finished(ms: number): Promise<R>;
  updateProgress(progress: object): Promise<void>;
}

export interface JobQueue<D, R> {
  /** Adds a job; a job with the same id already on the queue is kept as it is (nothing is added). */
  add(data: D, options: { jobId: string; priority: number }): Promise<QueuedJob<R>>;
  /** Whether the job is on the queue (waiting, running or finished and kept); throws when Redis cannot be reached. */
  has(jobId: string): Promise<boolean>;
  /** Resolves when the queue's event stream is connected (waiting for an answer needs it). */
  ready(): Promise<void>;
  /** Removes a job no worker has taken yet (a taken one stays). */
  remove(jobId: string): Promise<void>;
  /** Job counts; throws when Redis cannot be reached. */
  counts(): Promise<{ waiting: number; active: number }>;
  /** Whether the connection that adds jobs is up now (false while Redis is away; no round trip). */
  reachable(): boolean;
  close(): Promise<void>;
}

export interface JobQueueOptions extends QueueOptions {
  /** Every job's progress events, from whichever process reports them. */
  onProgress?: (progress: unknown) => void;
}

export async function openJobQueue<D, R>(
  redisUrl: string,
  name: string,
  options: JobQueueOptions = {},
): Promise<JobQueue<D, R>> {
  const { Queue, QueueEvents } = await import('bullmq');
  const prefix = options.prefix ? { prefix: options.prefix } : {};
  const queue: Queue<D, R> = new Queue<D, R>(name, {
    connection: connectionOf(redisUrl, false),
    ...prefix,
    defaultJobOptions: {
      attempts: 1,
      removeOnComplete: { count: 1000, age: 3600 },
      removeOnFail: { count: 1000, age: 24 * 3600 },
    },
  });
  const events: QueueEvents = new QueueEvents(name, { connection: connectionOf(redisUrl, true), ...prefix });
  // Errors surface through the calls that need Redis; don't let the emitters crash the process.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  watchClient(queue.client, false);
  let adder: Redis | undefined;
  queue.client.then(
    (c) => (adder = c as unknown as Redis),
    () => undefined,
  );
  // The event stream waits in XREAD BLOCK.
  watchClient(events.client, true);
  const onProgress = options.onProgress;
  if (onProgress) events.on('progress', ({ data }) => onProgress(data));
  const eventsReady = events.waitUntilReady().then(
    () => undefined,
    () => undefined,
  );

  return {
    async add(data, jobOptions) {
      // Every job is named after its queue. (BullMQ types the name from the data type's own
      // `name` when it has one; ours are plain payloads.)
      const job = (await (queue as unknown as Queue).add(name, data, jobOptions)) as Job<D, R>;
      return {
        finished: (ms) => job.waitUntilFinished(events, Math.max(1, ms)),
        updateProgress: (progress) => job.updateProgress(progress),
      };
    },
    ready: () => eventsReady,
    async has(jobId) {
      return (await queue.getJob(jobId)) !== undefined;
    },
    async remove(jobId) {
      await queue.remove(jobId);
    },
    reachable: () => adder?.status === 'ready',
    async counts() {
      const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
      return { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0), active: c.active ?? 0 };
    },
    async close() {
      // Closing waits for Redis; when it cannot be reached, drop the connections instead.
      // (QueueEvents.close waits for a connection that may never come; its RedisConnection
      // closes at once when forced.)
      await withTimeout(
        Promise.allSettled([events.close(), queue.close()]),
        2_000,
        () => new Error('closing the queue timed out'),
      ).catch(async () => {
        const forced = [events, queue].map((c) =>
          (c as unknown as { connection?: { close(force: boolean): Promise<void> } }).connection?.close(true),
        );
        await Promise.allSettled(forced.filter((p): p is Promise<void> => p !== undefined));
      });
    },
  };
}

export interface JobWorker<D, R> {
  close(): Promise<void>;
  /** The underlying BullMQ worker (events for logging). */
  readonly worker: Worker<D, R>;
}

/** Runs `processor` on the queue's jobs, `concurrency` at a time; a job is never retried. */
export async function startJobWorker<D, R>(
  redisUrl: string,
  name: string,
  processor: (job: RunningJob<D>) => Promise<R>,
  options: QueueOptions & { concurrency: number; onError: (err: Error) => void },
): Promise<JobWorker<D, R>> {
  const { Worker } = await import('bullmq');
  const worker: Worker<D, R> = new Worker<D, R>(name, (job) => processor(job), {
    connection: connectionOf(redisUrl, true),
    concurrency: options.concurrency,
    ...(options.prefix ? { prefix: options.prefix } : {}),
    // A job is never retried: a second run could not be paid for twice, but it could run late.
    maxStalledCount: 0,
    runRetryDelay: WORKER_RETRY_DELAY_MS,
  });
  worker.on('error', options.onError);
  await worker.waitUntilReady();
  // Its blocking connection has a watchdog of BullMQ's own (it reconnects when a wait outlasts its timeout).
  watchClient(worker.client, false);
  return {
    worker,
    async close() {
      await worker.close();
    },
  };
}
