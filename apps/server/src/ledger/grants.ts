/**
 * Credit grants: granting credits (demo checkout, the Paddle webhook, admin grants), taking back
 * what is unspent of a refunded purchase, and expiring grants past their date.
 */
import { sql } from 'kysely';
import type { CreditGrantRow, GrantSource } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';

function toIsoOrNull(value: Date | string | null): string | null {
  if (value === null) return null;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new Error(`invalid expiry date: ${String(value)}`);
  return iso(d);
}

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
  /** The operator, for an admin grant. */
  actorId?: string | null;
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
      actorId: input.actorId ?? null,
      now,
    });
    return { grant: inserted, created: true };
  });
}

/**
 * Takes `take` credits from a grant by a guarded update (never below zero). The caller holds the
 * user's lock, so losing the guard means a change outside the ledger's rules: it throws, and the
 * transaction rolls back.
 */
export async function takeFromGrant(trx: Trx, grantId: string, take: number, what: string): Promise<void> {
  const res = await trx
    .updateTable('credit_grants')
    .set({ remaining: sql<number>`remaining - ${take}` })
    .where('id', '=', grantId)
    .where('remaining', '>=', take)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new Error(`${what} raced with another change`);
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
    await takeFromGrant(trx, grant.id, take, 'clawback');
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
