/**
 * The credit ledger (docs/architecture.md, "7. Credit ledger"). Every change to credits or free trials goes through here,
 * inside a transaction, and leaves an append-only `credit_events` row.
 *
 * Each function takes the database or a transaction as its first argument. Given the
 * database it opens its own transaction; given a transaction it joins it, so a caller can
 * combine a grant with its own writes (the Paddle webhook records the event id in the same
 * transaction as the grant).
 *
 * The transaction helper and the user lock are in transaction.ts, with the concurrency reasoning;
 * the event log and its listeners in credit-events.ts; grants (granting, clawing back, expiring)
 * in grants.ts; the read-only balance queries in balance.ts.
 */
import { sql } from 'kysely';
import { RESULT_RETENTION_DAYS } from '@aidressup/contract';
import type { TryOnCharge, TryOnRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';
import { balance } from './balance.js';

export type { Db } from './transaction.js';
export { onCreditEvent } from './credit-events.js';
export {
  clawbackGrant,
  expireGrants,
  grantCredits,
  type ClawbackInput,
  type ClawbackResult,
  type GrantCreditsInput,
  type GrantResult,
} from './grants.js';
export { balance, holdsPlanCredits } from './balance.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReserveTryOnInput {
  userId: string;
  freeTrialsLimit: number;
  category: string;
  engine: string;
  now?: Date;
  /** Days the result is kept; default 30. */
  resultRetentionDays?: number;
  /** The process running the try-on (crash recovery settles the try-ons of a process that is gone). */
  ownerId?: string | null;
  /** Units to charge: 1 for one garment, 2 for a whole outfit (top and bottom). All or none. */
  units?: number;
}

export type ReserveTryOnResult =
  | {
      ok: true;
      tryon: TryOnRow;
      /** The first unit's charge (free trials are taken first: `trial` when any unit was a free trial). */
      charge: TryOnCharge;
      grantId: string | null;
      /** Every unit's charge, in the order taken. */
      charges: TryOnCharge[];
    }
  | { ok: false; code: 'NO_CREDITS' };

/**
 * Reserves a try-on: for each unit, a free trial while any is left, else one credit from the
 * unexpired grant that expires soonest (never-expiring grants last). Records a `processing`
 * try-on row per unit (the first is the try-on; the others are companions `bundle_of` it) and
 * each spend event, in one transaction: with too little for every unit, nothing is taken.
 */
export async function reserveTryOn(db: Db, input: ReserveTryOnInput): Promise<ReserveTryOnResult> {
  const now = input.now ?? new Date();
  const nowIso = iso(now);
  const units = input.units ?? 1;
  try {
    return await inTransaction(db, async (trx) => {
      if (!(await lockUser(trx, input.userId))) throw new Error(`no user ${input.userId}`);
      const expiresAt = iso(new Date(now.getTime() + (input.resultRetentionDays ?? RESULT_RETENTION_DAYS) * DAY_MS));
      let main: { tryon: TryOnRow; charge: TryOnCharge; grantId: string | null } | null = null;
      const charges: TryOnCharge[] = [];
      for (let unit = 0; unit < units; unit++) {
        const spent = await spendOneUnit(trx, input, nowIso);
        // Not enough for every unit: roll back the units taken so far.
        if (!spent) throw NOT_ENOUGH;
        const tryon: TryOnRow = {
          id: newId(),
          user_id: input.userId,
          category: input.category,
          engine: input.engine,
          status: 'processing',
          charge: spent.charge,
          grant_id: spent.grantId,
          result_name: null,
          error_code: null,
          created_at: nowIso,
          finished_at: null,
          expires_at: expiresAt,
          // Companion rows have no owner: they settle with the main row, never on their own.
          owner_id: main ? null : (input.ownerId ?? null),
          staged_result: null,
          bundle_of: main ? main.tryon.id : null,
          share_token: null,
          shared_at: null,
        };
        await trx.insertInto('tryons').values(tryon).execute();
        await addEvent(trx, {
          userId: input.userId,
          type: spent.charge === 'trial' ? 'trial_spend' : 'spend',
          amount: -1,
          grantId: spent.grantId,
          tryonId: tryon.id,
          now,
        });
        main ??= { tryon, charge: spent.charge, grantId: spent.grantId };
        charges.push(spent.charge);
      }
      if (!main) throw new Error('reserveTryOn: units must be at least 1');
      return { ok: true, ...main, charges } as const;
    });
  } catch (err) {
    if (err === NOT_ENOUGH) return { ok: false, code: 'NO_CREDITS' } as const;
    throw err;
  }
}

/** Thrown inside a reservation's transaction to roll back the units already taken. */
const NOT_ENOUGH = Symbol('not enough free trials or credits');

/**
 * Takes one unit for a try-on: a free trial if one is left, else one credit from the unexpired
 * grant that expires soonest (never-expiring grants last); null when there is neither.
 */
async function spendOneUnit(
  trx: Trx,
  input: ReserveTryOnInput,
  nowIso: string,
): Promise<{ charge: TryOnCharge; grantId: string | null } | null> {
  if (await spendFreeTrial(trx, input.userId, input.freeTrialsLimit)) return { charge: 'trial', grantId: null };
  for (let attempt = 0; attempt < 5; attempt++) {
    const grant = await trx
      .selectFrom('credit_grants')
      .select('id')
      .where('user_id', '=', input.userId)
      .where('remaining', '>', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .orderBy(sql`case when expires_at is null then 1 else 0 end`)
      .orderBy('expires_at')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!grant) return null;
    const spent = await trx
      .updateTable('credit_grants')
      .set({ remaining: sql<number>`remaining - 1` })
      .where('id', '=', grant.id)
      .where('remaining', '>', 0)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 1) return { charge: 'credit', grantId: grant.id };
  }
  return null;
}

/**
 * Takes one free trial, if the user has one left and so does the device the user was created
 * on (a device's trials are shared by all its users). Both counters change by guarded updates in
 * the caller's transaction, so neither can pass the limit under concurrency.
 */
async function spendFreeTrial(trx: Trx, userId: string, limit: number): Promise<boolean> {
  const user = await trx
    .updateTable('users')
    .set({ free_trials_used: sql<number>`free_trials_used + 1` })
    .where('id', '=', userId)
    .where('free_trials_used', '<', limit)
    .returning('device_id')
    .executeTakeFirst();
  if (!user) return false;
  if (user.device_id === null) return true;
  const device = await trx
    .updateTable('devices')
    .set({ free_trials_used: sql<number>`free_trials_used + 1` })
    .where('device_id', '=', user.device_id)
    .where('free_trials_used', '<', limit)
    .executeTakeFirst();
  if (Number(device.numUpdatedRows) === 1) return true;
  const known = await trx
    .selectFrom('devices')
    .select('device_id')
    .where('device_id', '=', user.device_id)
    .executeTakeFirst();
  if (!known) return true; // a device never recorded (users made before devices were counted) limits nothing
  // The device's trials were used by another of its users: this user has none left either.
  await trx.updateTable('users').set({ free_trials_used: limit }).where('id', '=', userId).execute();
  return false;
}

export interface RefundTryOnInput {
  tryonId: string;
  /** Why the try-on failed (an error code), stored on the row. */
  errorCode: string;
  note?: string | null;
  now?: Date;
  /** Only while this process still owns the try-on (crash recovery: the owner is gone, no one took it over). */
  ownerId?: string;
}

/**
 * Fails a `processing` try-on and gives back its free trial or credit, in one transaction.
 * Returns false (and changes nothing) when the try-on is not `processing`, so a refund
 * can never happen twice.
 */
export async function refundTryOn(db: Db, input: RefundTryOnInput): Promise<boolean> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    if (!(await refundOne(trx, input, input.tryonId, now))) return false;
    // A whole outfit's second unit goes back with the first.
    const companions = await trx
      .selectFrom('tryons')
      .select('id')
      .where('bundle_of', '=', input.tryonId)
      .where('status', '=', 'processing')
      .execute();
    for (const companion of companions) await refundOne(trx, { ...input, ownerId: undefined }, companion.id, now);
    return true;
  });
}

async function refundOne(trx: Trx, input: RefundTryOnInput, tryonId: string, now: Date): Promise<boolean> {
  const found = await trx.selectFrom('tryons').select('user_id').where('id', '=', tryonId).executeTakeFirst();
  if (!found) return false;
  await lockUser(trx, found.user_id);
  let failing = trx
    .updateTable('tryons')
    .set({ status: 'failed', error_code: input.errorCode, finished_at: iso(now) })
    .where('id', '=', tryonId)
    .where('status', '=', 'processing');
  if (input.ownerId !== undefined) failing = failing.where('owner_id', '=', input.ownerId);
  const failed = await failing.executeTakeFirst();
  if (Number(failed.numUpdatedRows) !== 1) return false;
  const tryon = await trx.selectFrom('tryons').selectAll().where('id', '=', tryonId).executeTakeFirstOrThrow();
  if (tryon.charge === 'trial') {
    await trx
      .updateTable('users')
      .set({ free_trials_used: sql<number>`free_trials_used - 1` })
      .where('id', '=', tryon.user_id)
      .where('free_trials_used', '>', 0)
      .execute();
    const owner = await trx.selectFrom('users').select('device_id').where('id', '=', tryon.user_id).executeTakeFirst();
    if (owner?.device_id) {
      await trx
        .updateTable('devices')
        .set({ free_trials_used: sql<number>`free_trials_used - 1` })
        .where('device_id', '=', owner.device_id)
        .where('free_trials_used', '>', 0)
        .execute();
    }
    await addEvent(trx, {
      userId: tryon.user_id,
      type: 'trial_refund',
      amount: 1,
      tryonId: tryon.id,
      note: input.note ?? input.errorCode,
      now,
    });
  } else if (tryon.grant_id) {
    // A grant clawed back meanwhile (a refunded purchase) gets nothing back: the refund is
    // recorded with amount 0.
    const clawedBack = await trx
      .selectFrom('credit_events')
      .select('id')
      .where('grant_id', '=', tryon.grant_id)
      .where('type', '=', 'clawback')
      .limit(1)
      .executeTakeFirst();
    let restored = false;
    if (!clawedBack) {
      const res = await trx
        .updateTable('credit_grants')
        .set({ remaining: sql<number>`remaining + 1` })
        .where('id', '=', tryon.grant_id)
        .where(sql<boolean>`remaining < amount`)
        .executeTakeFirst();
      restored = Number(res.numUpdatedRows) === 1;
    }
    await addEvent(trx, {
      userId: tryon.user_id,
      type: 'refund',
      amount: restored ? 1 : 0,
      grantId: tryon.grant_id,
      tryonId: tryon.id,
      note: input.note ?? input.errorCode,
      now,
    });
  }
  return true;
}

/**
 * Marks a `processing` try-on succeeded with its stored result; false when it was not processing
 * (or, with `ownerId`, no longer owned by that process).
 */
export async function completeTryOn(
  db: Db,
  input: { tryonId: string; resultName: string; now?: Date; ownerId?: string },
): Promise<boolean> {
  const finishedAt = iso(input.now ?? new Date());
  return inTransaction(db, async (trx) => {
    let query = trx
      .updateTable('tryons')
      .set({ status: 'succeeded', result_name: input.resultName, staged_result: null, finished_at: finishedAt })
      .where('id', '=', input.tryonId)
      .where('status', '=', 'processing');
    if (input.ownerId !== undefined) query = query.where('owner_id', '=', input.ownerId);
    const res = await query.executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    // A whole outfit's companion unit is spent with it (it names no result of its own).
    await trx
      .updateTable('tryons')
      .set({ status: 'succeeded', finished_at: finishedAt })
      .where('bundle_of', '=', input.tryonId)
      .where('status', '=', 'processing')
      .execute();
    return true;
  });
}

/**
 * Fails and refunds every try-on still `processing` that started before `olderThan` (past its
 * deadline: its process crashed or lost it). Returns how many were refunded.
 */
export async function refundStuckTryOns(
  db: Db,
  olderThan: Date,
  now: Date = new Date(),
  limit = 1000,
): Promise<number> {
  const stuck = await db
    .selectFrom('tryons')
    .select('id')
    .where('status', '=', 'processing')
    .where('created_at', '<', iso(olderThan))
    .limit(limit)
    .execute();
  let refunded = 0;
  for (const t of stuck) {
    if (
      await refundTryOn(db, {
        tryonId: t.id,
        errorCode: 'ENGINE_TIMEOUT',
        note: 'past its deadline (interrupted)',
        now,
      })
    )
      refunded++;
  }
  return refunded;
}

export interface MergeResult {
  /** False when nothing moved: the user was merged, deleted or signed in already. */
  merged: boolean;
  /** Unspent credits that moved. */
  credits: number;
  /** Try-ons (results) that moved. */
  tryons: number;
}

/**
 * Merges an anonymous user into an account at email sign-in, in one transaction: the user's
 * try-ons and unexpired credit grants move to the account, each grant's unspent credits leaving
 * with a `transfer_out` event and arriving with a `transfer_in` event, and a subscription the
 * account lacks moves with them. The user is marked merged by a guarded update, so concurrent
 * merges of one user move its credits exactly once. Free trials stay with the device.
 */
export async function mergeUserInto(
  db: Db,
  input: { fromUserId: string; toUserId: string; now?: Date },
): Promise<MergeResult> {
  const now = input.now ?? new Date();
  const nowIso = iso(now);
  if (input.fromUserId === input.toUserId) return { merged: false, credits: 0, tryons: 0 };
  return inTransaction(db, async (trx) => {
    // Lock both users in one order, so two merges can never wait on each other.
    for (const id of [input.fromUserId, input.toUserId].sort()) {
      if (!(await lockUser(trx, id))) return { merged: false, credits: 0, tryons: 0 };
    }
    const marked = await trx
      .updateTable('users')
      .set({ merged_into: input.toUserId })
      .where('id', '=', input.fromUserId)
      .where('merged_into', 'is', null)
      .where('email', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return { merged: false, credits: 0, tryons: 0 };

    const grants = await trx
      .selectFrom('credit_grants')
      .select(['id', 'remaining'])
      .where('user_id', '=', input.fromUserId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .execute();
    let credits = 0;
    for (const grant of grants) {
      await trx.updateTable('credit_grants').set({ user_id: input.toUserId }).where('id', '=', grant.id).execute();
      if (grant.remaining === 0) continue;
      credits += grant.remaining;
      const note = `merged ${input.fromUserId} into ${input.toUserId}`;
      await addEvent(trx, {
        userId: input.fromUserId,
        type: 'transfer_out',
        amount: -grant.remaining,
        grantId: grant.id,
        note,
        now,
      });
      await addEvent(trx, {
        userId: input.toUserId,
        type: 'transfer_in',
        amount: grant.remaining,
        grantId: grant.id,
        note,
        now,
      });
    }
    const moved = await trx
      .updateTable('tryons')
      .set({ user_id: input.toUserId })
      .where('user_id', '=', input.fromUserId)
      .executeTakeFirst();

    const [from, to] = await Promise.all([
      trx.selectFrom('users').selectAll().where('id', '=', input.fromUserId).executeTakeFirstOrThrow(),
      trx.selectFrom('users').selectAll().where('id', '=', input.toUserId).executeTakeFirstOrThrow(),
    ]);
    const toHasLivePlan = to.subscription_status !== null && to.subscription_status !== 'canceled';
    if (from.subscription_id !== null && !toHasLivePlan) {
      await trx
        .updateTable('users')
        .set({
          subscription_id: from.subscription_id,
          subscription_status: from.subscription_status,
          subscription_plan_id: from.subscription_plan_id,
          subscription_period_end: from.subscription_period_end,
          subscription_updated_at: from.subscription_updated_at,
        })
        .where('id', '=', input.toUserId)
        .execute();
      await trx
        .updateTable('users')
        .set({
          subscription_id: null,
          subscription_status: null,
          subscription_plan_id: null,
          subscription_period_end: null,
          subscription_updated_at: null,
        })
        .where('id', '=', input.fromUserId)
        .execute();
    }
    if (from.paddle_customer_id !== null && to.paddle_customer_id === null) {
      await trx
        .updateTable('users')
        .set({ paddle_customer_id: from.paddle_customer_id })
        .where('id', '=', input.toUserId)
        .execute();
    }
    return { merged: true, credits, tryons: Number(moved.numUpdatedRows) };
  });
}

/**
 * Gives up a user's unspent credits when the person deletes their data: each grant's remaining
 * credits go to zero with a `forfeit` event. The grants and events stay (the transaction records
 * the refund policy keeps). Returns the credits forfeited.
 */
export async function forfeitCredits(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  return inTransaction(db, async (trx) => {
    await lockUser(trx, userId);
    const grants = await trx
      .selectFrom('credit_grants')
      .select(['id', 'remaining'])
      .where('user_id', '=', userId)
      .where('remaining', '>', 0)
      .execute();
    let forfeited = 0;
    for (const grant of grants) {
      const res = await trx
        .updateTable('credit_grants')
        .set({ remaining: 0 })
        .where('id', '=', grant.id)
        .where('remaining', '=', grant.remaining)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      forfeited += grant.remaining;
      await addEvent(trx, {
        userId,
        type: 'forfeit',
        amount: -grant.remaining,
        grantId: grant.id,
        note: 'data deleted',
        now,
      });
    }
    return forfeited;
  });
}

/**
 * Read-only: whether the user could reserve a try-on now (a free trial left, or an unexpired
 * credit). Lets the API refuse before the costly work; the reservation itself stays the
 * authority (it may still refuse when a concurrent try-on took the last one).
 */
export async function canReserveTryOn(
  db: Db,
  input: { userId: string; freeTrialsLimit: number; now?: Date; units?: number },
): Promise<boolean> {
  const units = input.units ?? 1;
  const user = await db
    .selectFrom('users')
    .select(['free_trials_used', 'device_id'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!user) return false;
  let trials = Math.max(0, input.freeTrialsLimit - user.free_trials_used);
  if (trials > 0 && user.device_id) {
    // A device shares its free trials among its users (see spendFreeTrial).
    const device = await db
      .selectFrom('devices')
      .select('free_trials_used')
      .where('device_id', '=', user.device_id)
      .executeTakeFirst();
    if (device) trials = Math.min(trials, Math.max(0, input.freeTrialsLimit - device.free_trials_used));
  }
  if (trials >= units) return true;
  return (await balance(db, input.userId, input.now ?? new Date())) >= units - trials;
}
