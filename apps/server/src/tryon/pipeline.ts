/**
 * The try-on pipeline: reserve a free trial or a credit, hand the job to the runner (in this
 * process or on the queue) under a deadline, and settle: answer with the stored result, or give the
 * trial or credit back in one transaction and answer the error. The runner only runs; refunding and
 * the response live here, once. The route sees only `TryOnService` (built by `plugins/tryon.ts`).
 */
import { engineDeadlineMs } from '../engines/deadlines.js';
import type { Kysely } from 'kysely';
import {
  FREE_RESULT_MAX_SIDE,
  PRIORITY_PLAN_IDS,
  TRYONS_PER_OUTFIT,
  type TryOnCategory,
  type TryOnResponse,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { LogSink } from '../logging.js';
import { AppError } from '../errors.js';
import { balance, canReserveTryOn, holdsPlanCredits, reserveTryOn } from '../ledger/ledger.js';
import { findTryOn } from '../repositories/tryons.js';
import { findUserById } from '../repositories/users.js';
import { toApiUser } from '../services/users.js';
import type { NormalisedImage } from '../services/images.js';
import type { Storage } from '../storage/storage.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { TryOnRunner } from './runner.js';
import { createProgressReporter, type ProgressHub } from './progress.js';
import { refundFailedTryOn } from './settle.js';
import { keepPhotos, keepsPhotos } from './kept-photos.js';
import { rerunTryOn, type RerunRequest } from './rerun.js';

export interface TryOnDeps {
  db: Kysely<Database>;
  config: Config;
  clock: () => Date;
  log: LogSink;
  /** Runs the engine: in this process, or (REDIS_URL) in a worker through the queue. */
  runner: TryOnRunner;
  /** Where progress events go (the SSE streams); none: no progress is reported. */
  progress?: Pick<ProgressHub, 'publish'> | undefined;
  /** This process's id (crash recovery): the owner of the try-ons it reserves. */
  processId?: string;
  /** The enabled engines: what each offers (categories), and whether a preview's photos are kept. */
  engines?: Pick<EngineRegistry, 'has' | 'categories' | 'list'>;
  /** Where a preview's photos are kept for "Make it photo-real" (none: they are not kept). */
  storage?: Storage;
}

export interface TryOnRequest {
  userId: string;
  category: TryOnCategory;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** A whole outfit's bottom (category upper_body): two try-ons are charged. */
  lowerGarment?: NormalisedImage | undefined;
  /** The page's id for following this try-on's stages (already bound to the user). */
  progressId?: string | undefined;
  /** The API request's id, carried into the queued job's log lines. */
  reqId?: string | undefined;
  /** When the server accepted the post (epoch ms; default now). */
  acceptedAt?: number;
}

/** NO_CREDITS, with the user as the page needs it. */
export async function noCreditsError(
  deps: Pick<TryOnDeps, 'db' | 'config' | 'clock'>,
  userId: string,
): Promise<AppError> {
  const row = await findUserById(deps.db, userId);
  if (!row) return new AppError('UNAUTHORIZED');
  const user = await toApiUser(deps.db, row, { freeTrialsLimit: deps.config.freeTrialsLimit, now: deps.clock() });
  return new AppError('NO_CREDITS', undefined, { user });
}

/** Try-ons a request uses: one, or two for a whole outfit (a top and a bottom). */
export function tryOnsFor(outfit: boolean): number {
  return outfit ? TRYONS_PER_OUTFIT : 1;
}

/**
 * The cheap refusals, before the photos are decoded: a category the engine does not offer
 * (CATEGORY_NOT_OFFERED: shoes and accessories on the built-in engine), too little left to spend for `units`
 * try-ons (read-only, nothing reserved), or every engine slot and waiting place taken
 * (ENGINE_BUSY, 503 with Retry-After).
 */
export async function refuseEarly(
  deps: TryOnDeps,
  userId: string,
  engineId: string,
  units = 1,
  category?: TryOnCategory,
): Promise<void> {
  // Shoes & accessories on an engine that cannot dress them (the built-in one): refused, nothing charged.
  if (category !== undefined && deps.engines && !deps.engines.categories(engineId).includes(category)) {
    throw new AppError('CATEGORY_NOT_OFFERED');
  }
  if (
    !(await canReserveTryOn(deps.db, {
      userId,
      freeTrialsLimit: deps.config.freeTrialsLimit,
      now: deps.clock(),
      units,
    }))
  ) {
    throw await noCreditsError(deps, userId);
  }
  if (await deps.runner.busy(engineId)) throw new AppError('ENGINE_BUSY');
}

/** The answer to a try-on that succeeded. */
async function tryOnResponse(
  deps: Pick<TryOnDeps, 'db' | 'clock'>,
  t: { tryonId: string; userId: string; charges: readonly ('trial' | 'credit')[]; resultName: string },
): Promise<TryOnResponse> {
  const freeTrialsUsed = t.charges.filter((c) => c === 'trial').length;
  return {
    success: true,
    imageUrl: `/api/results/${t.resultName}`,
    usedFreeTrial: freeTrialsUsed > 0,
    creditsRemaining: await balance(deps.db, t.userId, deps.clock()),
    tryonId: t.tryonId,
    tryOnsUsed: t.charges.length,
    freeTrialsUsed,
  };
}

/**
 * Reserves, runs and settles one try-on. Throws AppError NO_CREDITS (with the user) when
 * nothing is left, or the engine's error after refunding.
 */
export async function performTryOn(deps: TryOnDeps, req: TryOnRequest): Promise<TryOnResponse> {
  const { db, config } = deps;
  // Decided before the reservation spends anything: the try-on paid with the last credit of a
  // plan with priority processing still goes first.
  const priority = await holdsPlanCredits(db, req.userId, PRIORITY_PLAN_IDS, deps.clock());
  const reservation = await reserveTryOn(db, {
    userId: req.userId,
    freeTrialsLimit: config.freeTrialsLimit,
    category: req.category,
    engine: req.engineId,
    now: deps.clock(),
    ownerId: deps.processId ?? null,
    units: tryOnsFor(req.lowerGarment !== undefined),
  });
  if (!reservation.ok) throw await noCreditsError(deps, req.userId);
  const tryonId = reservation.tryon.id;
  const progress =
    deps.progress && req.progressId
      ? createProgressReporter(deps.progress, {
          progressId: req.progressId,
          userId: req.userId,
          engineId: req.engineId,
          outfit: req.lowerGarment !== undefined,
          config,
          ...(req.acceptedAt !== undefined ? { acceptedAt: req.acceptedAt } : {}),
        })
      : undefined;
  // Accepted and charged: waiting for an engine slot (in-process) or a worker (queue).
  progress?.report('queued');
  const result = await deps.runner.run({
    tryonId,
    userId: req.userId,
    category: req.category,
    engineId: req.engineId,
    person: req.person,
    garment: req.garment,
    lowerGarment: req.lowerGarment,
    deadlineAt: Date.now() + engineDeadlineMs(config, req.engineId),
    reqId: req.reqId,
    progress,
    priority,
    // HD downloads: a result paid wholly with credits keeps its full size; one that used a free
    // trial (trials are spent first, so the first unit says) is reduced.
    resultMaxSide: reservation.charge === 'trial' ? FREE_RESULT_MAX_SIDE : undefined,
  });
  const settled = { tryonId, userId: req.userId, charges: reservation.charges };
  if (result.ok) {
    const keptUntil = await keepPreviewPhotos(deps, tryonId, req);
    const response = await tryOnResponse(deps, { ...settled, resultName: result.resultName });
    progress?.report('done');
    return keptUntil ? { ...response, photosKeptUntil: keptUntil } : response;
  }
  if (!(await refundFailedTryOn(deps, { tryonId, engineId: req.engineId }, result))) {
    // Settled elsewhere first: a worker may have completed it just as the wait gave up.
    const row = await findTryOn(db, tryonId);
    if (row?.status === 'succeeded' && row.result_name) {
      const response = await tryOnResponse(deps, { ...settled, resultName: row.result_name });
      progress?.report('done');
      return response;
    }
  }
  progress?.report('failed');
  throw new AppError(result.code, result.message || undefined);
}

/**
 * A quick preview's photos, kept for "Make it photo-real" when a hosted engine could re-run it
 * (`kept-photos.ts`); until when, or undefined when they are not kept. A failure to store them is logged: the result stands, and the rerun then
 * explains that the photos are gone.
 */
async function keepPreviewPhotos(deps: TryOnDeps, tryonId: string, req: TryOnRequest): Promise<string | undefined> {
  if (!deps.storage || !deps.engines) return undefined;
  const enabled = deps.engines.list().map((e) => e.id);
  if (!keepsPhotos(req.engineId, enabled)) return undefined;
  try {
    return await keepPhotos(
      { db: deps.db, storage: deps.storage },
      tryonId,
      { person: req.person, garment: req.garment, lower: req.lowerGarment },
      deps.clock(),
    );
  } catch (err) {
    deps.log.warn({ err, tryonId }, "a preview's photos could not be kept (it cannot be made photo-real)");
    return undefined;
  }
}

/** What the try-on route calls: the two steps of a try-on post, with their dependencies bound. */
export interface TryOnService {
  /** The cheap refusals, before the photos are decoded (see `refuseEarly`). */
  refuseEarly(userId: string, engineId: string, units: number, category?: TryOnCategory): Promise<void>;
  /** Reserves, runs and settles one try-on (see `performTryOn`). */
  perform(req: TryOnRequest): Promise<TryOnResponse>;
  /** "Make it photo-real": a preview's try-on again on a hosted engine (see `rerun.ts`). */
  rerun(req: RerunRequest): Promise<TryOnResponse>;
}

export function createTryOnService(deps: TryOnDeps): TryOnService {
  const steps: Pick<TryOnService, 'refuseEarly' | 'perform'> = {
    refuseEarly: (userId, engineId, units, category) => refuseEarly(deps, userId, engineId, units, category),
    perform: (req) => performTryOn(deps, req),
  };
  return { ...steps, rerun: (req) => rerunTryOn(deps, steps, req) };
}
