/**
 * The queued TryOnRunner (`runner.ts`), used when REDIS_URL is set: `createTryOnQueue` stores the
 * normalised uploads, puts the job on the queue (`queue/job-queue.ts`, BullMQ) and waits for its
 * answer, while watching the try-on's row so that a try-on settled elsewhere answers at once. A
 * worker (`worker.ts`, in `npm run worker` or in the API with WORKER_IN_PROCESS) runs the job.
 *
 * Progress: the worker reports each stage as the job's progress and every API process relays the
 * progress events it sees on the queue's event stream to its own SSE subscribers, so the stream
 * may be held by any API process.
 *
 * Redis restarted empty (no persistence) loses the jobs no worker had taken yet: while its try-on
 * is still this process's (no worker has claimed it), the waiting side looks every few seconds
 * that its job is still on the queue, and puts it back when it is not.
 */
import type { Config } from '../config.js';
import type { TryOnRow } from '../db/schema.js';
import { untilDatabaseAnswers } from '../db/outage.js';
import type { LogSink } from '../logging.js';
import { findTryOn } from '../repositories/tryons.js';
import { openJobQueue, type QueuedJob, type QueueOptions } from '../queue/job-queue.js';
import { isRedisUnreachable } from '../redis/client.js';
import { valueWithin, withTimeout } from '../timeout.js';
import { ProgressMessageSchema, type ProgressHub, type ProgressMessage } from './progress.js';
import { interruptedByShutdown, shopperLeft, type RunResult, type TryOnJob, type TryOnRunner } from './runner.js';
import {
  JOB_PRIORITY,
  TRYON_QUEUE_NAME,
  deleteUploads,
  newUploadKey,
  type TryOnJobData,
  type TryOnJobDeps,
  type TryOnJobResult,
} from './job.js';

/** How long putting a job on the queue may take before the try-on fails (Redis unreachable). */
const ENQUEUE_TIMEOUT_MS = 5_000;
/**
 * A wait that ends this close to the deadline ended because of it: Node's timers run on a
 * monotonic clock rounded to the millisecond, so `Date.now()` may still read a millisecond or
 * two before the deadline when the deadline's timer fires.
 */
const DEADLINE_SLACK_MS = 20;

export interface TryOnQueueOptions extends QueueOptions {
  /** Where the progress events seen on the queue go (this process's SSE subscribers). */
  progress?: Pick<ProgressHub, 'publish'>;
}

export interface TryOnQueueDeps {
  db: TryOnJobDeps['db'];
  storage: TryOnJobDeps['storage'];
  /** This API process's id, the owner of the try-ons it reserves until a worker claims one. */
  processId?: string | undefined;
  log?: LogSink | undefined;
}

export interface TryOnQueue extends TryOnRunner {
  readonly mode: 'redis';
  /** Job counts for the health check; throws when Redis cannot be reached. */
  counts(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

/** How often the waiting API side looks at the try-on's row. */
const ROW_POLL_MS = 1_000;
/** How often, while no worker has claimed a try-on, the waiting side makes sure its job is on the queue. */
const JOB_CHECK_MS = 3_000;
const SETTLED_ELSEWHERE = { ok: false, code: 'ENGINE_FAILED', message: '' } as const satisfies TryOnJobResult;

const LEFT = { ok: false, code: 'ENGINE_BUSY', message: '' } as const satisfies TryOnJobResult;

/** Resolves with LEFT when `signal` aborts (the shopper went away); never without one. */
function whenLeft(signal: AbortSignal | undefined): Promise<typeof LEFT> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve(LEFT);
    else signal.addEventListener('abort', () => resolve(LEFT), { once: true });
  });
}

/**
 * Resolves with SETTLED_ELSEWHERE once the try-on's row is no longer `processing`; until then
 * `still(row)` runs after each look (its failure waits for the next one).
 */
function watchRow(
  deps: Pick<TryOnQueueDeps, 'db'>,
  tryonId: string,
  still: (row: TryOnRow) => Promise<void> = async () => undefined,
): { settled: Promise<typeof SETTLED_ELSEWHERE>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const settled = new Promise<typeof SETTLED_ELSEWHERE>((resolve) => {
    const tick = () => {
      if (stopped) return;
      void findTryOn(deps.db, tryonId)
        .then(async (row) => {
          if (row && row.status !== 'processing') {
            resolve(SETTLED_ELSEWHERE);
            return true;
          }
          if (row && !stopped) await still(row);
          return false;
        })
        .catch(() => false)
        .then((done) => {
          if (!done && !stopped) timer = setTimeout(tick, ROW_POLL_MS);
        });
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
function tryOnJobOptions(t: Pick<TryOnJob, 'tryonId' | 'priority'>): { jobId: string; priority: number } {
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
  // Every API process relays every try-on's progress to its own subscribers (the hub keeps each
  // id to its owner and drops repeats).
  const hub = options.progress;
  const queue = await openJobQueue<TryOnJobData, TryOnJobResult>(config.redisUrl, TRYON_QUEUE_NAME, {
    ...(options.prefix ? { prefix: options.prefix } : {}),
    ...(hub
      ? {
          onProgress: (data: unknown) => {
            const message = progressOf(data);
            if (message) hub.publish(message);
          },
        }
      : {}),
  });
  const timedOut = (what: string) => () => new Error(`${what} timed out`);

  async function run(t: TryOnJob): Promise<RunResult> {
    const data: TryOnJobData = {
      tryonId: t.tryonId,
      userId: t.userId,
      // A kept photo stays sealed where it is: the worker reads it by its id.
      ...(t.keptPerson ? { keptPhotoId: t.keptPerson.photoId } : { personKey: newUploadKey(t.person) }),
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
    let job: QueuedJob<TryOnJobResult> | undefined;
    // The shopper went away before a worker took the job: it is taken off the queue (the pipeline
    // refunds it at once, only while no worker has claimed it, `refundFailedTryOn`).
    if (t.left?.aborted) return shopperLeft();
    try {
      const lower = t.lowerGarment;
      await Promise.all([
        ...(data.personKey ? [deps.storage.put(data.personKey, t.person.data, t.person.mimeType)] : []),
        deps.storage.put(data.garmentKey, t.garment.data, t.garment.mimeType),
        ...(lower && data.lowerGarmentKey ? [deps.storage.put(data.lowerGarmentKey, lower.data, lower.mimeType)] : []),
      ]);
      // Enqueueing takes milliseconds; when Redis is down it fails fast instead of using up the deadline.
      job = await withTimeout(
        queue.add(data, tryOnJobOptions(t)),
        Math.min(remaining(), ENQUEUE_TIMEOUT_MS),
        timedOut('enqueueing'),
      );
      const added = job;
      // From now on this side's stages also go out as the job's progress, for the other API processes.
      t.progress?.relayThrough((message) => added.updateProgress(message));
      t.progress?.report('queued');
      await withTimeout(queue.ready(), remaining(), timedOut('connecting to the queue events'));
      const finished = job.finished(remaining());
      finished.catch(() => undefined);
      // Also watch the row: when recovery settles it (the worker holding the job is gone), answer
      // at once instead of at the deadline. While no worker has claimed it, keep its job queued.
      let checkedAt = Date.now();
      const keepQueued = async (row: TryOnRow) => {
        if (!deps.processId || row.owner_id !== deps.processId || Date.now() - checkedAt < JOB_CHECK_MS) return;
        checkedAt = Date.now();
        if (await queue.has(t.tryonId)) return;
        await queue.add(data, tryOnJobOptions(t));
        deps.log?.warn(
          { tryonId: t.tryonId },
          'the queue had lost a try-on no worker had taken (Redis restarted empty?): queued again',
        );
      };
      const watch = watchRow(deps, t.tryonId, keepQueued);
      let answer: TryOnJobResult | typeof SETTLED_ELSEWHERE | typeof LEFT;
      try {
        // Shutting down past its grace: stop waiting (the catch below removes a job not yet taken).
        const first = Promise.race([finished, watch.settled, whenLeft(t.left)]);
        answer = await (t.stop ? withTimeout(first, t.stop, interruptedByShutdown) : first);
      } finally {
        watch.stop();
      }
      if (answer === LEFT) {
        // A job no worker has taken yet will never run. One a worker has claimed (the engine has
        // started) runs on and settles itself: the pipeline's refund then changes nothing.
        t.progress?.report('failed');
        await queue.remove(t.tryonId).catch(() => undefined);
        await deleteUploads(deps.storage, data).catch(() => undefined);
        const row = await settledRow(t.tryonId);
        if (row?.status === 'succeeded' && row.result_name)
          return { ok: true, resultName: row.result_name, engineId: row.engine };
        return shopperLeft();
      }
      if (answer === SETTLED_ELSEWHERE) {
        // The job's own answer (a refusal's message) usually follows within moments.
        answer = await valueWithin(finished, 1_500, SETTLED_ELSEWHERE);
        // No answer but a completed row (the job's end went unheard: Redis was away) is a success.
        const row = answer === SETTLED_ELSEWHERE ? await settledRow(t.tryonId) : undefined;
        if (row?.status === 'succeeded' && row.result_name) {
          answer = { ok: true, resultName: row.result_name };
        } else if (!answer.ok) {
          t.progress?.report('failed');
          await queue.remove(t.tryonId).catch(() => undefined);
          await deleteUploads(deps.storage, data).catch(() => undefined);
        }
      }
      result = answer.ok ? answer : { ok: false, code: answer.code, message: answer.message };
    } catch (err) {
      // Redis away before the job was on the queue: nothing ran, try again in a moment (refunded).
      const unreachable = !job && (isRedisUnreachable(err) || !queue.reachable());
      const code = unreachable
        ? 'SERVICE_UNAVAILABLE'
        : remaining() <= DEADLINE_SLACK_MS && !t.stop?.aborted
          ? 'ENGINE_TIMEOUT'
          : 'ENGINE_FAILED';
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
    const row = await settledRow(t.tryonId);
    if (row?.status === 'succeeded' && row.result_name)
      return { ok: true, resultName: row.result_name, engineId: row.engine };
    return result.ok ? { ok: false, code: 'ENGINE_FAILED', message: '' } : result;
  }

  /** The try-on's row, waiting for a database that is restarting; undefined when it never answered. */
  function settledRow(tryonId: string): Promise<TryOnRow | undefined> {
    return untilDatabaseAnswers(() => findTryOn(deps.db, tryonId)).catch(() => undefined);
  }

  return {
    mode: 'redis',
    run,
    available: () => queue.reachable(),
    counts: () => queue.counts(),
    close: () => queue.close(),
  };
}
