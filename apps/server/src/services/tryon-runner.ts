/**
 * Where a reserved try-on's engine work runs: the TryOnRunner. The pipeline (`tryon.ts`) reserves,
 * hands the job to a runner, then settles from the runner's RunResult (one refund path, one
 * response). Two runners:
 * - in-process (this file): the engine runs here, at most N at a time (JobLimiter);
 * - queue (`queue/tryon-queue.ts`, with REDIS_URL): the job goes to a worker process via BullMQ.
 * A runner never throws and never refunds: failures come back as `{ ok: false }`.
 */
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Category, ErrorCode } from '@aidressup/contract';
import { EngineError, isEngineError } from '@aidressup/engine';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import { AppError, isAppError } from '../errors.js';
import type { NormalisedImage } from './images.js';
import { JobLimiter } from './job-limiter.js';
import { withTimeout } from './deadline.js';
import { storeResult } from './results.js';
import { runEngine } from './outfit.js';
import type { ProgressReporter } from './progress.js';

/** A reserved try-on, ready to run. */
export interface TryOnJob {
  tryonId: string;
  userId: string;
  category: Category;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** A whole outfit's bottom (then `garment` is the top, category upper_body). */
  lowerGarment?: NormalisedImage | undefined;
  /** When the try-on's deadline passes (epoch milliseconds). */
  deadlineAt: number;
  /** Started before other waiting try-ons (the buyer's plan includes priority processing). */
  priority?: boolean | undefined;
  /** The result's longest side at most (a free trial's result); none: the engine's full size. */
  resultMaxSide?: number | undefined;
  /** The id of the API request that posted it (log lines of every process carry it). */
  reqId?: string | undefined;
  progress?: ProgressReporter | undefined;
}

export type RunFailure = {
  ok: false;
  code: ErrorCode;
  /** Safe to show; empty: the code's default message. */
  message: string;
  /** For the log only. */
  detail?: string | undefined;
};
export type RunResult = { ok: true; resultName: string } | RunFailure;

export interface TryOnRunner {
  readonly mode: 'in-process' | 'redis';
  /** Runs the engine for a reserved try-on and stores its result; never throws. */
  run(job: TryOnJob): Promise<RunResult>;
  /** True when a new try-on on this engine would be refused at once (ENGINE_BUSY). */
  busy(engineId: string): Promise<boolean>;
}

/** Any error as a RunFailure: engine errors and AppErrors keep their code, anything else is ENGINE_FAILED. */
export function failureOf(err: unknown): RunFailure {
  if (isAppError(err)) return { ok: false, code: err.code, message: err.message };
  const e = isEngineError(err)
    ? err
    : new EngineError('ENGINE_FAILED', undefined, (err as Error)?.message ?? String(err));
  return { ok: false, code: e.code, message: e.message, detail: e.detail ?? (err as Error)?.message };
}

export interface InProcessRunnerDeps {
  db: Kysely<Database>;
  storage: Storage;
  engines: EngineRegistry;
  config: { engines: { concurrency: number; queueLimit: number } };
  clock: () => Date;
}

/** Runs engines in this process, with at most ENGINE_CONCURRENCY (default: cores, or 16 for hosted engines) at a time per engine. */
export function createInProcessRunner(
  deps: InProcessRunnerDeps,
): TryOnRunner & { limiter(engineId: string): JobLimiter } {
  const limiters = new Map<string, JobLimiter>();
  function limiter(engineId: string): JobLimiter {
    let l = limiters.get(engineId);
    if (!l) {
      const configured = deps.config.engines.concurrency;
      // The built-in engine is CPU-bound; hosted engines mostly wait on the network.
      const auto = engineId === 'local' ? Math.max(1, os.availableParallelism()) : 16;
      l = new JobLimiter(
        configured > 0 ? configured : auto,
        deps.config.engines.queueLimit,
        () => new AppError('ENGINE_BUSY'),
      );
      limiters.set(engineId, l);
    }
    return l;
  }

  async function run(job: TryOnJob): Promise<RunResult> {
    const signal = AbortSignal.timeout(Math.max(0, job.deadlineAt - Date.now()));
    const timeout = () => new EngineError('ENGINE_TIMEOUT');
    try {
      const engine = await deps.engines.get(job.engineId);
      // Waiting for a slot is `queued` (reported when the try-on was accepted).
      const output = await limiter(job.engineId).run(
        () => {
          // The photos were decoded before the slot: reading is over as soon as it starts.
          job.progress?.report('reading');
          job.progress?.report('fitting');
          const call = {
            person: job.person.data,
            garment: job.garment.data,
            category: job.category,
            lowerGarment: job.lowerGarment?.data,
            signal,
          };
          return withTimeout(runEngine(engine, call), signal, timeout);
        },
        signal,
        timeout,
        job.priority ? 'priority' : 'normal',
      );
      job.progress?.report('finishing');
      const resultName = await storeResult(deps, job.tryonId, output.image, signal, deps.clock(), {
        maxSide: job.resultMaxSide,
      });
      return { ok: true, resultName };
    } catch (err) {
      return failureOf(err);
    }
  }

  return {
    mode: 'in-process',
    run,
    busy: async (engineId) => limiter(engineId).saturated,
    limiter,
  };
}
