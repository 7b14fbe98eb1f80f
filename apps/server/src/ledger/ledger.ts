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
 * the event log and its listeners are in credit-events.ts.
 */
import { sql } from 'kysely';
import { RESULT_RETENTION_DAYS } from '@aidressup/contract';
import type { CreditGrantRow, GrantSource, TryOnCharge, TryOnRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';

export type { Db } from './transaction.js';
export { onCreditEvent } from './credit-events.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function toIsoOrNull(value: Date | string | null): string | null {
  if (value === null) return null;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error(`invalid expiry date: ${String(value)}`);
  return iso(d);
}

// ---------------------------------------------------------------------------------------
// Grants
// ---------------------------------------------------------------------------------------

export interface GrantCreditsInput {
  userId: string;
  source: GrantSource;
  planId: string | null;
  /** Credits to grant; a positive integer. */
  amount: number;
  /** When the credits expire; null for never. */
  expiresAt: Date | string | null;
  /** The purchase's unique reference (Paddle transaction id, demo reference); null for none. */
  externalRef: string | null;
  /** What the purchase cost, as a decimal string, and its currency (for the purchase history). */
  amountPaid?: string | null;
  currency?: string | null;
  note?: string | null;
  now?: Date;
}

export interface GrantResult {
  grant: CreditGrantRow;
  /** False when a grant with this externalRef already existed (nothing was granted). */
  created: boolean;
}

/**
 * Grants credits to a user. Idempotent on `externalRef`: a second call with the same
 * reference returns the existing grant and grants nothing.
 * The one grant function for demo checkout, the Paddle webhook and admin grants.
 */
export async function grantCredits(db: Db, input: GrantCreditsInput): Promise<GrantResult> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) {
    throw new Error(`grant amount must be a positive integer, got ${input.amount}`);
  }
  const now = input.now ?? new Date();
  const expiresAt = toIsoOrNull(input.expiresAt);
  return inTransaction(db, async (trx) => {
    if (input.externalRef !== null) {
      const existing = await trx
        .selectFrom('credit_grants')
        .selectAll()
        .where('external_ref', '=', input.externalRef)
        .executeTakeFirst();
      if (existing) return { grant: existing, created: false };
    }
    const id = newId();
    const inserted = await trx
      .insertInto('credit_grants')
      .values({
        id,
        user_id: input.userId,
        source: input.source,
        plan_id: input.planId,
        amount: input.amount,
        remaining: input.amount,
        expires_at: expiresAt,
        external_ref: input.externalRef,
        created_at: iso(now),
        amount_paid: input.amountPaid ?? null,
        currency: input.currency ?? null,
      })
      .onConflict((oc) => oc.column('external_ref').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) {
      // A concurrent transaction granted the same reference first.
      const existing = await trx
        .selectFrom('credit_grants')
        .selectAll()
        .where('external_ref', '=', input.externalRef)
        .executeTakeFirstOrThrow();
      return { grant: existing, created: false };
    }
    await addEvent(trx, {
      userId: input.userId,
      type: 'grant',
      amount: input.amount,
      grantId: id,
      note: input.note ?? (input.planId ? `plan ${input.planId}` : null),
      now,
    });
    return { grant: inserted, created: true };
  });
}

export interface ClawbackInput {
  externalRef: string;
  note?: string | null;
  /** Take back at most this many credits; default: everything still unspent. */
  amount?: number;
  now?: Date;
}

export interface ClawbackResult {
  grant: CreditGrantRow;
  /** Credits taken back by this call (0 when nothing was left). */
  clawedBack: number;
}

/**
 * Takes back what is left unspent of the grant with this reference (a refunded purchase).
 * Credits already spent are not taken back: `remaining` never goes below zero.
 * Returns null when there is no such grant.
 */
export async function clawbackGrant(db: Db, input: ClawbackInput): Promise<ClawbackResult | null> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    const found = await trx
      .selectFrom('credit_grants')
      .select(['id', 'user_id'])
      .where('external_ref', '=', input.externalRef)
      .executeTakeFirst();
    if (!found) return null;
    await lockUser(trx, found.user_id);
    const grant = await trx
      .selectFrom('credit_grants')
      .selectAll()
      .where('id', '=', found.id)
      .executeTakeFirstOrThrow();
    const take = Math.max(0, Math.min(grant.remaining, input.amount ?? grant.remaining));
    if (take === 0) return { grant, clawedBack: 0 };
    const res = await trx
      .updateTable('credit_grants')
      .set({ remaining: sql<number>`remaining - ${take}` })
      .where('id', '=', grant.id)
      .where('remaining', '>=', take)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new Error('clawback raced with another change');
    await addEvent(trx, {
      userId: grant.user_id,
      type: 'clawback',
      amount: -take,
      grantId: grant.id,
      note: input.note ?? null,
      now,
    });
    const after = await trx
      .selectFrom('credit_grants')
      .selectAll()
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow();
    return { grant: after, clawedBack: take };
  });
}

/** Sets expired grants' remaining to zero with an `expire` event; returns how many grants. Safe to run twice. */
export async function expireGrants(db: Db, now: Date = new Date(), limit = 500): Promise<number> {
  const due = await db
    .selectFrom('credit_grants')
    .select(['id', 'user_id'])
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', iso(now))
    .where('remaining', '>', 0)
    .limit(limit)
    .execute();
  let expired = 0;
  for (const g of due) {
    const done = await inTransaction(db, async (trx) => {
      await lockUser(trx, g.user_id);
      const grant = await trx.selectFrom('credit_grants').selectAll().where('id', '=', g.id).executeTakeFirstOrThrow();
      if (grant.remaining === 0) return false;
      await trx
        .updateTable('credit_grants')
        .set({ remaining: 0 })
        .where('id', '=', g.id)
        .where('remaining', '=', grant.remaining)
        .execute();
      await addEvent(trx, { userId: g.user_id, type: 'expire', amount: -grant.remaining, grantId: g.id, now });
      return true;
    });
    if (done) expired++;
  }
  return expired;
}

// ---------------------------------------------------------------------------------------
// Balance
// ---------------------------------------------------------------------------------------

/** The user's credits: the sum of what remains of unexpired grants. */
export async function balance(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom('credit_grants')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('remaining'), sql<number>`0`).as('total'))
    .where('user_id', '=', userId)
    .where('remaining', '>', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', iso(now))]))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * Read-only: whether the user holds unspent, unexpired credits bought with one of `planIds`
 * (the plans with priority processing).
 */
export async function holdsPlanCredits(
  db: Db,
  userId: string,
  planIds: readonly string[],
  now: Date = new Date(),
): Promise<boolean> {
  if (planIds.length === 0) return false;
  const row = await db
    .selectFrom('credit_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('plan_id', 'in', [...planIds])
    .where('remaining', '>', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', iso(now))]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------
// Try-ons
// ---------------------------------------------------------------------------------------

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
