/**
 * The try-on pipeline (DESIGN §4 steps 2–5): reserve a free trial or a credit, run the engine
 * under a deadline with bounded concurrency, store the result under an unguessable name, and
 * answer; on any failure give the trial or credit back in one transaction.
 */
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Category, TryOnResponse } from '@aidressup/contract';
import { EngineError, isEngineError, type TryOnEngine } from '@aidressup/engine';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import { AppError, isAppError } from '../errors.js';
import { balance, canReserveTryOn, completeTryOn, refundTryOn, reserveTryOn } from '../ledger/ledger.js';
import { findUserById } from '../repositories/users.js';
import { stageResult } from '../repositories/tryons.js';
import { toApiUser } from './users.js';
import { EXTENSION_OF, cleanEngineOutput, type NormalisedImage } from './images.js';
import { JobLimiter } from './job-limiter.js';
import type { TryOnQueue } from '../queue/tryon-queue.js';

/** Result names: 32 random bytes in base64url, then the extension. */
export const RESULT_NAME_PATTERN = /^[A-Za-z0-9_-]{43}\.(jpg|png|webp)$/;

export function newResultName(ext: string): string {
  return `${randomBytes(32).toString('base64url')}${ext}`;
}

export interface TryOnDeps {
  db: Kysely<Database>;
  storage: Storage;
  engines: EngineRegistry;
  config: Config;
  clock: () => Date;
  log: FastifyBaseLogger;
  limiters: Map<string, JobLimiter>;
  /** With REDIS_URL: run the engine in a worker through this queue instead of in-process. */
  queue?: TryOnQueue | undefined;
  /** This process's id (crash recovery): the owner of the try-ons it reserves. */
  processId?: string;
}

export interface TryOnRequest {
  userId: string;
  category: Category;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
}

export function limiterFor(deps: Pick<TryOnDeps, 'config' | 'limiters'>, engineId: string): JobLimiter {
  let limiter = deps.limiters.get(engineId);
  if (!limiter) {
    const configured = deps.config.engines.concurrency;
    // The built-in engine is CPU-bound; hosted engines mostly wait on the network.
    const auto = engineId === 'local' ? Math.max(1, os.availableParallelism()) : 16;
    limiter = new JobLimiter(configured > 0 ? configured : auto, deps.config.engines.queueLimit, () => new AppError('ENGINE_BUSY'));
    deps.limiters.set(engineId, limiter);
  }
  return limiter;
}

/** Runs the engine under the signal: an engine that ignores the signal still loses the race. */
export function raceDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new EngineError('ENGINE_TIMEOUT'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** How long the ENGINE_BUSY check waits for the queue's job counts. */
const QUEUE_COUNT_TIMEOUT_MS = 1_000;

/** NO_CREDITS, with the user as the page needs it. */
export async function noCreditsError(deps: Pick<TryOnDeps, 'db' | 'config' | 'clock'>, userId: string): Promise<AppError> {
  const row = await findUserById(deps.db, userId);
  if (!row) return new AppError('UNAUTHORIZED');
  const user = await toApiUser(deps.db, row, { freeTrialsLimit: deps.config.freeTrialsLimit, now: deps.clock() });
  return new AppError('NO_CREDITS', undefined, { user });
}

/**
 * The cheap refusals, before the photos are decoded: nothing left to spend (read-only, nothing
 * reserved), or every engine slot and waiting place taken (ENGINE_BUSY, 503 with Retry-After).
 */
export async function refuseEarly(deps: TryOnDeps, userId: string, engineId: string): Promise<void> {
  if (!(await canReserveTryOn(deps.db, { userId, freeTrialsLimit: deps.config.freeTrialsLimit, now: deps.clock() }))) {
    throw await noCreditsError(deps, userId);
  }
  if (deps.queue) {
    // Redis unreachable: no answer here (the try-on then fails fast, refunded, when it is enqueued).
    let timer: NodeJS.Timeout | undefined;
    const counts = await Promise.race([
      deps.queue.counts().catch(() => undefined),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), QUEUE_COUNT_TIMEOUT_MS))),
    ]).finally(() => clearTimeout(timer));
    if (counts && counts.waiting >= deps.config.engines.queueLimit) throw new AppError('ENGINE_BUSY');
  } else if (limiterFor(deps, engineId).saturated) {
    throw new AppError('ENGINE_BUSY');
  }
}

/**
 * Reserves, runs and settles one try-on. Throws AppError NO_CREDITS (with the user) when
 * nothing is left, or the engine's error after refunding.
 */
export async function performTryOn(deps: TryOnDeps, req: TryOnRequest): Promise<TryOnResponse> {
  const { db, config } = deps;
  const reservation = await reserveTryOn(db, {
    userId: req.userId,
    freeTrialsLimit: config.freeTrialsLimit,
    category: req.category,
    engine: req.engineId,
    now: deps.clock(),
    ownerId: deps.processId ?? null,
  });
  if (!reservation.ok) throw await noCreditsError(deps, req.userId);
  const tryonId = reservation.tryon.id;
  if (deps.queue) {
    return deps.queue.run(deps, {
      tryonId,
      userId: req.userId,
      charge: reservation.charge,
      category: req.category,
      engineId: req.engineId,
      person: req.person,
      garment: req.garment,
      deadlineAt: Date.now() + config.engines.deadlineMs,
    });
  }
  const signal = AbortSignal.timeout(config.engines.deadlineMs);
  try {
    const engine: TryOnEngine = await deps.engines.get(req.engineId);
    const output = await limiterFor(deps, req.engineId).run(
      () =>
        raceDeadline(
          engine.tryOn({ person: req.person.data, garment: req.garment.data, category: req.category, signal }),
          signal,
        ),
      signal,
      () => new EngineError('ENGINE_TIMEOUT'),
    );
    const name = await storeResult({ db, storage: deps.storage }, tryonId, output.image, signal, deps.clock());
    const creditsRemaining = await balance(db, req.userId, deps.clock());
    return {
      success: true,
      imageUrl: `/api/results/${name}`,
      usedFreeTrial: reservation.charge === 'trial',
      creditsRemaining,
      tryonId,
    };
  } catch (err) {
    if (isAppError(err) && err.code === 'ENGINE_BUSY') {
      // Every waiting place was taken meanwhile: nothing ran, nothing is charged.
      await refundTryOn(db, { tryonId, errorCode: 'ENGINE_BUSY', now: deps.clock() });
      throw err;
    }
    const engineErr = isEngineError(err) ? err : new EngineError('ENGINE_FAILED', undefined, (err as Error)?.message);
    deps.log.warn({ tryonId, engine: req.engineId, code: engineErr.code, detail: engineErr.detail ?? (err as Error)?.message }, 'try-on failed; refunding');
    await refundTryOn(db, { tryonId, errorCode: engineErr.code, now: deps.clock() });
    throw new AppError(engineErr.code, engineErr.message);
  }
}

/**
 * Stores an engine's output as the try-on's result and marks the row succeeded. Throws
 * ENGINE_FAILED when the output is not an image, ENGINE_TIMEOUT when the deadline passed or the
 * row was settled elsewhere; the stored file is removed whenever the row was not completed.
 * Returns the result's name.
 */
export async function storeResult(
  deps: { db: Kysely<Database>; storage: Storage },
  tryonId: string,
  image: Uint8Array,
  signal: AbortSignal,
  now: Date,
): Promise<string> {
  const clean = await cleanEngineOutput(image);
  if (!clean) throw new EngineError('ENGINE_FAILED', undefined, 'engine returned something that is not a JPEG, PNG or WEBP image');
  if (signal.aborted) throw new EngineError('ENGINE_TIMEOUT');
  const name = newResultName(EXTENSION_OF[clean.mimeType]);
  const key = `results/${name}`;
  // Named on the row first: a crash after the file is stored still completes the try-on (recovery).
  if (!(await stageResult(deps.db, tryonId, name))) throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled elsewhere (past its deadline)');
  await deps.storage.put(key, clean.data, clean.mimeType);
  try {
    const completed = await completeTryOn(deps.db, { tryonId, resultName: name, now });
    if (!completed) throw new EngineError('ENGINE_TIMEOUT', undefined, 'try-on was settled elsewhere (past its deadline)');
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    throw err;
  }
  return name;
}
