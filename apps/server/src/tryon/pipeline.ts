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
  HOSTED_ENGINE_MESSAGES,
  PRIORITY_PLAN_IDS,
  TRYONS_PER_OUTFIT,
  type Category,
  type TryOnCategory,
  type TryOnResponse,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { LogSink } from '../logging.js';
import { AppError } from '../errors.js';
import {
  balance,
  holdsPlanCredits,
  spendableUnits,
  merchantTryOnRefusal,
  reserveMerchantTryOn,
  reserveTryOn,
} from '../ledger/ledger.js';
import { markOutOfCredits } from '../repositories/merchants.js';
import { findTryOn } from '../repositories/tryons.js';
import { untilDatabaseAnswers } from '../db/outage.js';
import type { NormalisedImage } from '../services/images.js';
import type { SealedStore } from '../storage/sealed-store.js';
import type { EngineRegistry } from '../engines/registry.js';
import { isShopperLeft, shopperLeft, type KeptPersonRef, type RunFailure, type TryOnRunner } from './runner.js';
import { createProgressReporter, engineEstimate, type ProgressHub, type ProgressReporter } from './progress.js';
import { refundFailedTryOn } from './settle.js';
import type { Admission, AdmissionLine } from './line/admission.js';
import type { ShopperHolds } from './line/holds.js';
import { engineBusyError, lineRefusal, noCreditsError } from './refusals.js';
import { TRYON_QUEUE_NAME } from './job.js';
import { keepPreviewPhotos } from './preview-photos.js';
import { rerunTryOn, type RerunRequest } from './rerun.js';
import { refusalExtra } from './alternatives.js';

export interface TryOnDeps {
  db: Kysely<Database>;
  config: Config;
  clock: () => Date;
  log: LogSink;
  /** Runs the engine: in this process, or (REDIS_URL) in a worker through the queue. */
  runner: TryOnRunner;
  /** Where try-ons wait for a slot before they are charged (`admission.ts`). */
  line: AdmissionLine;
  /** What each shopper holds in line and has not paid for yet (`holds.ts`). */
  holds: ShopperHolds;
  /** Where progress events go (the SSE streams); none: no progress is reported. */
  progress?: Pick<ProgressHub, 'publish'> | undefined;
  /** This process's id (crash recovery): the owner of the try-ons it reserves. */
  processId?: string;
  /** Aborted when the process shuts down and its grace is over: runs under way give up and are refunded. */
  stop?: AbortSignal;
  /** The enabled engines: what each offers (categories), and whether a preview's photos are kept. */
  engines?: Pick<EngineRegistry, 'has' | 'categories' | 'list' | 'status'> &
    Partial<Pick<EngineRegistry, 'isDown' | 'fallbacks'>>;
  /** Where a preview's photos are kept, sealed, for "Make it photo-real" (none: they are not kept). */
  vault?: SealedStore;
}

interface TryOnRequest {
  userId: string;
  category: TryOnCategory;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** A whole outfit's bottom (category upper_body): two try-ons are charged. */
  lowerGarment?: NormalisedImage | undefined;
  /** `person` is one of the shopper's kept photos (My photos), with the engine's analysis of it. */
  keptPerson?: KeptPersonRef | undefined;
  /** The page's id for following this try-on's stages (already bound to the user). */
  progressId?: string | undefined;
  /** The API request's id, carried into the queued job's log lines. */
  reqId?: string | undefined;
  /** When the server accepted the post (epoch ms; default now). */
  acceptedAt?: number;
  /** The place in line `refuseEarly` took (it is left, or its slot freed, when the try-on ends). */
  admission: Admission;
  /** Aborts when the shopper goes away (the connection closed): the place in line is given up. */
  signal?: AbortSignal | undefined;
}

/** Try-ons a request uses: one, or two for a whole outfit (a top and a bottom). */
export function tryOnsFor(outfit: boolean): number {
  return outfit ? TRYONS_PER_OUTFIT : 1;
}

/** The line a try-on on this engine waits in: the engine's own (in-process), or the queue's. */
export function linePool(runner: Pick<TryOnRunner, 'mode'>, engineId: string): string {
  return runner.mode === 'redis' ? TRYON_QUEUE_NAME : engineId;
}

/** Where a try-on joins the line from: the client's address, and an earlier busy answer's ticket. */
interface JoinFrom {
  /** The client's address (the line holds a few places per address). */
  address: string;
  /** The `ticket` of an earlier ENGINE_BUSY answer (the form's or body's `lineTicket`). */
  ticket?: string | undefined;
}

/**
 * The cheap steps before the photos are decoded: a category the engine does not offer
 * (CATEGORY_NOT_OFFERED: shoes and accessories on the built-in engine); too little left to spend
 * for `units` try-ons (NO_CREDITS, read-only, nothing reserved); then a place in line
 * (`admission.ts`), or, when the line is full (or the shopper or the address holds as many places
 * as allowed), ENGINE_BUSY (503 with Retry-After, place, expected wait and, unless refused without
 * one, a ticket that keeps the place). Nothing is charged by any of them.
 */
async function refuseEarly(
  deps: TryOnDeps,
  userId: string,
  engineId: string,
  units: number,
  opts: JoinFrom & { category?: TryOnCategory | undefined },
): Promise<Admission> {
  const { category, ticket, address } = opts;
  // Shoes & accessories on an engine that cannot dress them (the built-in one): refused, nothing charged.
  if (category !== undefined && deps.engines && !deps.engines.categories(engineId).includes(category)) {
    throw new AppError('CATEGORY_NOT_OFFERED');
  }
  // An engine health says is down, with no engine up to fail over to: refused, nothing charged.
  if (
    deps.engines?.isDown?.(engineId) &&
    (deps.engines.fallbacks?.(engineId) ?? []).every((id) => deps.engines!.isDown!(id))
  )
    throw new AppError('ENGINE_UNAVAILABLE', HOSTED_ENGINE_MESSAGES.unavailable);
  refuseWhileQueueAway(deps);
  const now = deps.clock();
  // What the shopper can spend, less what their try-ons already in line hold: one that cannot be
  // paid for even if all of those succeed is refused now, not after waiting in line.
  const freeTrialsLimit = deps.config.freeTrialsLimit;
  const hold = await deps.holds.take(userId, units, () => spendableUnits(deps.db, { userId, freeTrialsLimit, now }));
  if (!hold) throw await noCreditsError(deps, userId);
  try {
    // Decided before the reservation spends anything: the try-on paid with the last credit of a
    // plan with priority processing still goes first.
    const priority = await holdsPlanCredits(deps.db, userId, PRIORITY_PLAN_IDS, now);
    const joined = await deps.line.join({
      pool: linePool(deps.runner, engineId),
      userId,
      address,
      priority,
      ticket,
      typicalSeconds: engineEstimate(engineId, units > 1, deps.config).estimateSeconds.min,
    });
    if (!joined.ok) throw lineRefusal(joined);
    const entry = joined.entry;
    return {
      entry,
      priority,
      hold,
      leave: async () => {
        await hold.release();
        await entry.leave();
      },
    };
  } catch (err) {
    await hold.release();
    throw err;
  }
}

/**
 * SERVICE_UNAVAILABLE (try again in a moment) while the queue's Redis is away: checked before a
 * place is taken and again before the charge, so a try-on that could not be handed on is not
 * charged at all. (One whose Redis goes in between is refunded and answered the same.)
 */
function refuseWhileQueueAway(deps: Pick<TryOnDeps, 'runner'>): void {
  if (deps.runner.available?.() === false) throw new AppError('SERVICE_UNAVAILABLE');
}

/**
 * Waits in line for a slot (nothing charged), telling the page its place; ENGINE_BUSY with the
 * ticket when the longest wait passes first.
 */
async function waitTurn(
  req: Pick<TryOnRequest, 'admission' | 'signal'>,
  progress: ProgressReporter | undefined,
): Promise<void> {
  const outcome = await req.admission.entry.wait({
    signal: req.signal,
    onPlace: progress ? (place) => progress.reportPlace(place) : undefined,
  });
  // Admitted just as the shopper left: nobody would see the result, so nothing is charged.
  if (outcome === 'admitted' && !req.signal?.aborted) return;
  if (outcome === 'timeout') throw engineBusyError(await req.admission.entry.stepOut());
  // The shopper went away: nobody reads this answer.
  throw new AppError('ENGINE_BUSY');
}

/**
 * Charges a try-on that was let in, only while its shopper is still there: one who left before
 * the charge pays nothing, one who left while it was being made gets it back at once (`refund`),
 * and either way the try-on does not start (ENGINE_BUSY, which nobody reads).
 */
export async function chargeIfStillThere<C>(
  signal: AbortSignal | undefined,
  charge: () => Promise<C>,
  refund: (charged: C) => Promise<unknown>,
): Promise<C> {
  if (signal?.aborted) throw new AppError('ENGINE_BUSY');
  const charged = await charge();
  if (signal?.aborted) {
    await refund(charged);
    throw new AppError('ENGINE_BUSY');
  }
  return charged;
}

/**
 * Refunds a failed run. A shopper who left before the engine started is refunded only while this
 * process still owns the try-on: a queue worker that claimed it has started the engine, and
 * settles it itself.
 */
function refundRun(deps: TryOnDeps, t: { tryonId: string; engineId: string }, result: RunFailure): Promise<boolean> {
  const ownerId = isShopperLeft(result) ? deps.processId : undefined;
  return refundFailedTryOn(deps, { ...t, ...(ownerId ? { ownerId } : {}) }, result);
}

/** The answer to a try-on that succeeded. */
async function tryOnResponse(
  deps: Pick<TryOnDeps, 'db' | 'clock'>,
  t: {
    tryonId: string;
    userId: string;
    charges: readonly ('trial' | 'credit')[];
    resultName: string;
    engine: string;
  },
): Promise<TryOnResponse> {
  const freeTrialsUsed = t.charges.filter((c) => c === 'trial').length;
  return {
    success: true,
    imageUrl: `/api/results/${t.resultName}`,
    usedFreeTrial: freeTrialsUsed > 0,
    // The try-on is settled: a database restarting just now delays the answer, never loses it.
    creditsRemaining: await untilDatabaseAnswers(() => balance(deps.db, t.userId, deps.clock())),
    tryonId: t.tryonId,
    tryOnsUsed: t.charges.length,
    freeTrialsUsed,
    engine: t.engine,
  };
}

/**
 * Reserves, runs and settles one try-on. Throws AppError NO_CREDITS (with the user) when
 * nothing is left, or the engine's error after refunding.
 */
async function performTryOn(deps: TryOnDeps, req: TryOnRequest): Promise<TryOnResponse> {
  const { db, config } = deps;
  const priority = req.admission.priority;
  const progress =
    deps.progress && req.progressId
      ? createProgressReporter(deps.progress, {
          progressId: req.progressId,
          userId: req.userId,
          engineId: req.engineId,
          outfit: req.lowerGarment !== undefined,
          config,
          ...(req.acceptedAt !== undefined ? { acceptedAt: req.acceptedAt } : {}),
          relay: deps.line.relayProgress,
        })
      : undefined;
  // Waiting in line costs nothing: the reservation comes once a slot is ours, and only while the
  // shopper is still there.
  await waitTurn(req, progress);
  refuseWhileQueueAway(deps);
  const reserve = () =>
    reserveTryOn(db, {
      userId: req.userId,
      freeTrialsLimit: config.freeTrialsLimit,
      category: req.category,
      engine: req.engineId,
      now: deps.clock(),
      ownerId: deps.processId ?? null,
      units: tryOnsFor(req.lowerGarment !== undefined),
    });
  const hold = req.admission.hold;
  const reservation = await chargeIfStillThere(
    req.signal,
    // The hold gives way to the charge itself.
    hold ? () => deps.holds.charge(req.userId, hold, reserve) : reserve,
    (r) => (r.ok ? refundRun(deps, { tryonId: r.tryon.id, engineId: req.engineId }, shopperLeft()) : Promise.resolve()),
  );
  if (!reservation.ok) throw await noCreditsError(deps, req.userId);
  const tryonId = reservation.tryon.id;
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
    keptPerson: req.keptPerson,
    deadlineAt: Date.now() + engineDeadlineMs(config, req.engineId),
    reqId: req.reqId,
    progress,
    priority,
    stop: deps.stop,
    left: req.signal,
    // HD downloads: a result paid wholly with credits keeps its full size; one that used a free
    // trial (trials are spent first, so the first unit says) is reduced.
    resultMaxSide: reservation.charge === 'trial' ? FREE_RESULT_MAX_SIDE : undefined,
  });
  const settled = { tryonId, userId: req.userId, charges: reservation.charges };
  if (result.ok) {
    const keptUntil = await keepPreviewPhotos(deps, tryonId, req);
    const response = await tryOnResponse(deps, {
      ...settled,
      resultName: result.resultName,
      engine: result.engineId ?? req.engineId,
    });
    progress?.report('done');
    return keptUntil ? { ...response, photosKeptUntil: keptUntil } : response;
  }
  if (!(await refundRun(deps, { tryonId, engineId: req.engineId }, result))) {
    // Settled elsewhere first: a worker may have completed it just as the wait gave up.
    const row = await untilDatabaseAnswers(() => findTryOn(db, tryonId));
    if (row?.status === 'succeeded' && row.result_name) {
      const response = await tryOnResponse(deps, { ...settled, resultName: row.result_name, engine: row.engine });
      progress?.report('done');
      return response;
    }
  }
  progress?.report('failed');
  // A garment refused as worn: the hosted engine that can use the photo, when there is one.
  throw new AppError(result.code, result.message || undefined, refusalExtra(deps.engines, result.code, req.engineId));
}

/** A shop's widget session: the merchant who pays, its caps, and the shopper. */
interface MerchantShopper {
  merchantId: string;
  /** The merchant's ledger account. */
  accountId: string;
  sessionId: string;
  shopperHash: string;
  dailyLimit: number;
  shopperDailyLimit: number;
}

/** A shopper's try-on in a shop's widget (docs/embed.md), paid by the merchant. */
interface MerchantTryOnRequest extends MerchantShopper {
  category: Category;
  engineId: string;
  person: NormalisedImage;
  garment: NormalisedImage;
  /** Minutes the result is kept. */
  resultMinutes: number;
  reqId?: string | undefined;
  /** The place in line from `refuseMerchantEarly`. */
  admission: Admission;
  /** Aborts when the shopper goes away (gives up the place). */
  signal?: AbortSignal | undefined;
}

/** The merchant's refusal for a reservation that could not be made (nothing was written). */
async function merchantRefusal(
  deps: Pick<TryOnDeps, 'db'>,
  merchantId: string,
  code: 'NO_CREDITS' | 'MERCHANT_LIMIT' | 'SHOPPER_LIMIT',
  now: Date,
): Promise<AppError> {
  if (code !== 'NO_CREDITS') return new AppError('EMBED_LIMIT_REACHED');
  await markOutOfCredits(deps.db, merchantId, now.toISOString());
  return new AppError('MERCHANT_NO_CREDITS');
}

/**
 * The merchant's cheap refusals, before the photos are decoded and before a place in line is
 * taken (read-only): the merchant's or the shopper's daily cap reached (EMBED_LIMIT_REACHED), no
 * credit left (MERCHANT_NO_CREDITS, counted for the operator); then a place in the same line as
 * every other try-on (`admission.ts`), or ENGINE_BUSY when it is full. Nothing is charged by any.
 */
async function refuseMerchantEarly(
  deps: TryOnDeps,
  m: MerchantShopper,
  engineId: string,
  from: JoinFrom,
): Promise<Admission> {
  refuseWhileQueueAway(deps);
  const now = deps.clock();
  const refusal = await merchantTryOnRefusal(deps.db, { ...m, now });
  if (refusal) throw await merchantRefusal(deps, m.merchantId, refusal, now);
  const joined = await deps.line.join({
    pool: linePool(deps.runner, engineId),
    // Each shopper's widget session holds its own place; the merchant's account pays.
    userId: `embed:${m.sessionId}`,
    address: from.address,
    ticket: from.ticket,
    priority: false,
    typicalSeconds: engineEstimate(engineId, false, deps.config).estimateSeconds.min,
  });
  if (!joined.ok) throw lineRefusal(joined);
  const entry = joined.entry;
  return { entry, priority: false, leave: () => entry.leave() };
}

/**
 * Reserves one of the merchant's credits within its caps, runs and settles one try-on, like
 * `performTryOn`: a failure refunds the credit (the guarded refund of the ordinary path, so
 * recovery and workers settle it the same way). Answers the result's name and the try-on's id.
 */
async function performMerchantTryOn(
  deps: TryOnDeps,
  req: MerchantTryOnRequest,
): Promise<{ tryonId: string; resultName: string; expiresAt: string }> {
  // Waiting in line costs the merchant nothing: the reservation comes once a slot is ours, and
  // only while the shopper is still there.
  await waitTurn(req, undefined);
  refuseWhileQueueAway(deps);
  const now = deps.clock();
  const reservation = await chargeIfStillThere(
    req.signal,
    () =>
      reserveMerchantTryOn(deps.db, {
        merchantId: req.merchantId,
        accountId: req.accountId,
        sessionId: req.sessionId,
        shopperHash: req.shopperHash,
        dailyLimit: req.dailyLimit,
        shopperDailyLimit: req.shopperDailyLimit,
        category: req.category,
        engine: req.engineId,
        resultMinutes: req.resultMinutes,
        ownerId: deps.processId ?? null,
        now,
      }),
    (r) => (r.ok ? refundRun(deps, { tryonId: r.tryon.id, engineId: req.engineId }, shopperLeft()) : Promise.resolve()),
  );
  if (!reservation.ok) throw await merchantRefusal(deps, req.merchantId, reservation.code, now);
  const tryonId = reservation.tryon.id;
  const expiresAt = reservation.tryon.expires_at;
  const result = await deps.runner.run({
    tryonId,
    userId: req.accountId,
    category: req.category,
    engineId: req.engineId,
    person: req.person,
    garment: req.garment,
    deadlineAt: Date.now() + engineDeadlineMs(deps.config, req.engineId),
    reqId: req.reqId,
    left: req.signal,
  });
  if (result.ok) return { tryonId, resultName: result.resultName, expiresAt };
  if (!(await refundRun(deps, { tryonId, engineId: req.engineId }, result))) {
    const row = await untilDatabaseAnswers(() => findTryOn(deps.db, tryonId));
    if (row?.status === 'succeeded' && row.result_name) return { tryonId, resultName: row.result_name, expiresAt };
  }
  throw new AppError(result.code, result.message || undefined);
}

/** What the try-on route calls: the two steps of a try-on post, with their dependencies bound. */
export interface TryOnService {
  /** The cheap refusals and a place in line, before the photos are decoded (see `refuseEarly`). */
  refuseEarly(
    userId: string,
    engineId: string,
    units: number,
    opts: JoinFrom & { category?: TryOnCategory | undefined },
  ): Promise<Admission>;
  /** Reserves, runs and settles one try-on (see `performTryOn`). */
  perform(req: TryOnRequest): Promise<TryOnResponse>;
  /** "Make it photo-real": a preview's try-on again on a hosted engine (see `rerun.ts`). */
  rerun(req: RerunRequest): Promise<TryOnResponse>;
  /** A shop widget's refusals before decoding (see `refuseMerchantEarly`). */
  refuseMerchantEarly(m: MerchantShopper, engineId: string, from: JoinFrom): Promise<Admission>;
  /** A shop widget's try-on, paid by the merchant (see `performMerchantTryOn`). */
  performForMerchant(req: MerchantTryOnRequest): Promise<{ tryonId: string; resultName: string; expiresAt: string }>;
}

export function createTryOnService(deps: TryOnDeps): TryOnService {
  const steps: Pick<TryOnService, 'refuseEarly' | 'perform'> = {
    refuseEarly: (userId, engineId, units, opts) => refuseEarly(deps, userId, engineId, units, opts),
    perform: (req) => performTryOn(deps, req),
  };
  return {
    ...steps,
    rerun: (req) => rerunTryOn(deps, steps, req),
    refuseMerchantEarly: (m, engineId, from) => refuseMerchantEarly(deps, m, engineId, from),
    performForMerchant: (req) => performMerchantTryOn(deps, req),
  };
}
