/**
 * The in-process TryOnRunner (`runner.ts`), used without REDIS_URL: the engine runs in this
 * process, at most ENGINE_CONCURRENCY try-ons at a time per engine (JobLimiter, whose limit is also
 * the line's number of slots, `admission.ts`), each under its deadline; the result is stored
 * before the run answers.
 */
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import { AppError } from '../errors.js';
import { withTimeout } from '../timeout.js';
import { JobLimiter } from './line/job-limiter.js';
import { storeResult } from './results.js';
import { runWithFailover } from './engine-call.js';
import { tryOnCostMicros } from '../config/engine-costs.js';
import type { EnginePrice } from '../config/engine-costs.js';
import {
  failureOf,
  keepAnalysis,
  keptPersonInput,
  runLimit,
  shopperLeft,
  type KeptAnalysisSink,
  type RunResult,
  type TryOnJob,
  type TryOnRunner,
} from './runner.js';

export interface InProcessRunnerDeps {
  db: Kysely<Database>;
  storage: Storage;
  engines: EngineRegistry;
  config: { engines: { concurrency: number; prices?: ReadonlyMap<string, EnginePrice> } };
  clock: () => Date;
  /** Where failovers are logged. */
  log?: { warn(obj: Record<string, unknown>, msg: string): void };
  /** Keeps a kept photo's analysis the engine made again. */
  keptPhotos?: KeptAnalysisSink | undefined;
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
      // The line (`admission.ts`) admits at most `limit` try-ons, so nobody waits here: waiting
      // happens in line, before the try-on is charged.
      l = new JobLimiter(configured > 0 ? configured : auto);
      limiters.set(engineId, l);
    }
    return l;
  }

  async function run(job: TryOnJob): Promise<RunResult> {
    // The deadline, or the end of the shutdown's grace.
    const { signal, error: timeout } = runLimit(job.deadlineAt, job.stop);
    let left = false;
    try {
      // Waiting for a slot is `queued` (reported when the try-on was accepted).
      const made = await limiter(job.engineId).run(
        () => {
          // The engine starts now, unless the shopper has gone: then nothing runs.
          if (job.left?.aborted) {
            left = true;
            throw new AppError('ENGINE_BUSY');
          }
          // The photos were decoded before the slot: reading is over as soon as it starts.
          job.progress?.report('reading');
          job.progress?.report('fitting');
          const call = {
            person: job.person.data,
            garment: job.garment.data,
            category: job.category,
            lowerGarment: job.lowerGarment?.data,
            keptPerson: keptPersonInput(job.keptPerson),
            signal,
            deadlineAt: job.deadlineAt,
          };
          return withTimeout(runWithFailover(deps.engines, job.engineId, call, deps.log), signal, timeout);
        },
        signal,
        timeout,
        job.priority ? 'priority' : 'normal',
      );
      job.progress?.report('finishing');
      if (made.output.keptPersonAnalysis && job.keptPerson)
        await keepAnalysis(deps, job.keptPerson.photoId, made.output.keptPersonAnalysis);
      const resultName = await storeResult(deps, job.tryonId, made.output.image, signal, deps.clock(), {
        maxSide: job.resultMaxSide,
        made: { engine: made.engineId, costMicros: tryOnCostMicros(deps.config.engines.prices, made) },
      });
      return { ok: true, resultName, engineId: made.engineId };
    } catch (err) {
      return left ? shopperLeft() : failureOf(err);
    }
  }

  return {
    mode: 'in-process',
    run,
    limiter,
  };
}
