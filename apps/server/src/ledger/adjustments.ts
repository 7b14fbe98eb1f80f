/**
 * An operator's manual changes (the operator console, docs/operations.md): adding credits as an
 * `admin` grant, and taking credits back across the user's grants, never below zero. Each event
 * carries the operator's reason as its note and the operator as its actor.
 */
import { sql } from 'kysely';
import { iso } from '../db/ids.js';
import { inTransaction, lockUser, type Db } from './transaction.js';
import { addEvent } from './credit-events.js';
import { balance } from './balance.js';
import { grantCredits, takeFromGrant } from './grants.js';

export interface AdjustCreditsInput {
  userId: string;
  /** Credits to add (positive) or take back (negative); a non-zero integer. */
  amount: number;
  /** Why: required, kept as every event's note. */
  reason: string;
  /** The operator's user id. */
  actorId: string;
  now?: Date;
}

export interface AdjustCreditsResult {
  /** The balance before and after, and the change made (a removal stops at zero). */
  before: number;
  after: number;
  changed: number;
}

/**
 * Adds credits (a never-expiring `admin` grant) or takes them back: from the unexpired grants in
 * the order try-ons spend them, each by a guarded update with an `admin_remove` event, stopping
 * when the balance reaches zero. One transaction, under the user's lock.
 */
export async function adjustCredits(db: Db, input: AdjustCreditsInput): Promise<AdjustCreditsResult> {
  if (!Number.isInteger(input.amount) || input.amount === 0) {
    throw new Error(`an adjustment must be a non-zero integer, got ${input.amount}`);
  }
  if (input.reason.trim() === '') throw new Error('an adjustment needs a reason');
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    if (!(await lockUser(trx, input.userId))) throw new Error(`no user ${input.userId}`);
    const before = await balance(trx, input.userId, now);
    if (input.amount > 0) {
      await grantCredits(trx, {
        userId: input.userId,
        source: 'admin',
        planId: null,
        amount: input.amount,
        expiresAt: null,
        externalRef: null,
        note: input.reason,
        actorId: input.actorId,
        now,
      });
      return { before, after: before + input.amount, changed: input.amount };
    }
    let toTake = Math.min(-input.amount, before);
    const nowIso = iso(now);
    const grants = await trx
      .selectFrom('credit_grants')
      .select(['id', 'remaining'])
      .where('user_id', '=', input.userId)
      .where('remaining', '>', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .orderBy(sql`case when expires_at is null then 1 else 0 end`)
      .orderBy('expires_at')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const grant of grants) {
      if (toTake === 0) break;
      const take = Math.min(grant.remaining, toTake);
      await takeFromGrant(trx, grant.id, take, 'credit removal');
      await addEvent(trx, {
        userId: input.userId,
        type: 'admin_remove',
        amount: -take,
        grantId: grant.id,
        note: input.reason,
        actorId: input.actorId,
        now,
      });
      toTake -= take;
    }
    const after = await balance(trx, input.userId, now);
    return { before, after, changed: after - before };
  });
}
