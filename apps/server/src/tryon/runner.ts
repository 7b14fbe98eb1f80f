/**
 * Where a reserved try-on's engine work runs: the TryOnRunner. The pipeline (`pipeline.ts`)
 * reserves, hands the job to a runner, then settles from the runner's RunResult (one refund path,
 * one response). Two runners:
 * - in-process (`in-process-runner.ts`): the engine runs here, at most N at a time (JobLimiter);
 * - queued (`queued-runner.ts`, with REDIS_URL): the job goes to a worker process (`worker.ts`).
 * A runner never throws and never refunds: failures come back as `{ ok: false }`.
 */
import type { ErrorCode, TryOnCategory } from '@aidressup/contract';
import { EngineError, isEngineError } from '@aidressup/engine';
import { isAppError } from '../errors.js';
import type { NormalisedImage } from '../services/images.js';
import type { ProgressReporter } from './progress.js';

/** A reserved try-on, ready to run. */
export interface TryOnJob {
  tryonId: string;
  userId: string;
  category: TryOnCategory;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** A whole outfit's bottom (then `garment` is the top, category upper_body). */
  lowerGarment?: NormalisedImage | undefined;
  /** `person` is one of the shopper's kept photos (My photos). */
  keptPerson?: KeptPersonRef | undefined;
  /** When the try-on's deadline passes (epoch milliseconds). */
  deadlineAt: number;
  /** Started before other waiting try-ons (the buyer's plan includes priority processing). */
  priority?: boolean | undefined;
  /** The result's longest side at most (a free trial's result); none: the engine's full size. */
  resultMaxSide?: number | undefined;
  /** The id of the API request that posted it (log lines of every process carry it). */
  reqId?: string | undefined;
  progress?: ProgressReporter | undefined;
  /** Aborted when the process is shutting down and its grace is over: the run gives up (and is refunded). */
  stop?: AbortSignal | undefined;
  /**
   * Aborted when the shopper goes away. Before the engine starts, the run gives up and answers
   * `shopperLeft()` (the pipeline refunds it at once); once the engine has started, it runs on.
   */
  left?: AbortSignal | undefined;
}

/** A kept person photo in a try-on: its id and the engine's analysis kept with it (none: made again). */
export interface KeptPersonRef {
  photoId: string;
  analysis?: Uint8Array | undefined;
}

/** Where a kept photo's analysis goes when the engine had to make it again (`services/my-photos.ts`). */
export interface KeptAnalysisSink {
  replaceAnalysis(photoId: string, analysis: Uint8Array): Promise<void>;
}

/** The engine's view of a kept person photo: the photo's id is its key. */
export function keptPersonInput(ref: KeptPersonRef | undefined) {
  return ref ? { key: ref.photoId, ...(ref.analysis ? { analysis: ref.analysis } : {}) } : undefined;
}

/** A kept photo's analysis made again, kept for the next try-ons; a failure only costs the next one the analysis. */
export async function keepAnalysis(
  deps: { keptPhotos?: KeptAnalysisSink | undefined; log?: { warn(obj: object, msg?: string): void } | undefined },
  photoId: string,
  analysis: Uint8Array,
): Promise<void> {
  try {
    await deps.keptPhotos?.replaceAnalysis(photoId, analysis);
  } catch (err) {
    deps.log?.warn({ err, photoId }, 'a kept photo’s new analysis could not be stored');
  }
}

export type RunFailure = {
  ok: false;
  code: ErrorCode;
  /** Safe to show; empty: the code's default message. */
  message: string;
  /** For the log only. */
  detail?: string | undefined;
};
/** `engineId`: the engine that made the result (another than the job's after a failover). */
export type RunResult = { ok: true; resultName: string; engineId?: string | undefined } | RunFailure;

export interface TryOnRunner {
  readonly mode: 'in-process' | 'redis';
  /** Runs the engine for a reserved try-on and stores its result; never throws. */
  run(job: TryOnJob): Promise<RunResult>;
  /**
   * Whether a try-on could be handed on now (the queue: its Redis connection is up); checked
   * before anything is charged. None: always.
   */
  available?(): boolean;
}

const SHOPPER_LEFT = 'the shopper left before the engine started';

/** A run that gave up because its shopper left before the engine started: nothing ran. */
export function shopperLeft(): RunFailure {
  return { ok: false, code: 'ENGINE_BUSY', message: '', detail: SHOPPER_LEFT };
}

/** Whether a run gave up because its shopper left before the engine started. */
export function isShopperLeft(result: RunResult): boolean {
  return !result.ok && result.detail === SHOPPER_LEFT;
}

/** Any error as a RunFailure: engine errors and AppErrors keep their code, anything else is ENGINE_FAILED. */
export function failureOf(err: unknown): RunFailure {
  if (isAppError(err)) return { ok: false, code: err.code, message: err.message };
  const e = isEngineError(err)
    ? err
    : new EngineError('ENGINE_FAILED', undefined, (err as Error)?.message ?? String(err));
  return { ok: false, code: e.code, message: e.message, detail: e.detail ?? (err as Error)?.message };
}

/** The failure of a try-on cut short because its process is shutting down (refunded like any failure). */
export function interruptedByShutdown(): EngineError {
  return new EngineError('ENGINE_FAILED', undefined, 'interrupted: the process is shutting down');
}

/**
 * A run's limit: its deadline, or with `stop` whichever comes first; `error()` is the failure for
 * the one that came (ENGINE_TIMEOUT, or the shutdown's).
 */
export function runLimit(deadlineAt: number, stop?: AbortSignal): { signal: AbortSignal; error: () => EngineError } {
  const deadline = AbortSignal.timeout(Math.max(0, deadlineAt - Date.now()));
  return {
    signal: stop ? AbortSignal.any([deadline, stop]) : deadline,
    error: () => (stop?.aborted ? interruptedByShutdown() : new EngineError('ENGINE_TIMEOUT')),
  };
}
