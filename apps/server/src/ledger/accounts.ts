/**
 * What happens to a user's credits when the account changes: merged into another account at
 * email sign-in, or given up when the person deletes their data.
 */
import { iso } from '../db/ids.js';
import { inTransaction, lockUser, type Db } from './transaction.js';
import { addEvent } from './credit-events.js';

export interface MergeResult {
  /** False when nothing moved: the user was merged, deleted or signed in already. */
  merged: boolean;
  /** Unspent credits that moved. */
  credits: number;
  /** Try-ons (results) that moved. */
  tryons: number;
  /** Of those, the ones with a result (succeeded): what the shopper sees in the gallery. */
  results: number;
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
  if (input.fromUserId === input.toUserId) return { merged: false, credits: 0, tryons: 0, results: 0 };
  return inTransaction(db, async (trx) => {
    // Lock both users in one order, so two merges can never wait on each other.
    for (const id of [input.fromUserId, input.toUserId].sort()) {
      if (!(await lockUser(trx, id))) return { merged: false, credits: 0, tryons: 0, results: 0 };
    }
    const marked = await trx
      .updateTable('users')
      .set({ merged_into: input.toUserId })
      .where('id', '=', input.fromUserId)
      .where('merged_into', 'is', null)
      .where('email', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return { merged: false, credits: 0, tryons: 0, results: 0 };

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
    const succeeded = await trx
      .selectFrom('tryons')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', input.fromUserId)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    const moved = await trx
      .updateTable('tryons')
      .set({ user_id: input.toUserId })
      .where('user_id', '=', input.fromUserId)
      .executeTakeFirst();
    // Reports of those try-ons follow them (a refund then reaches the account).
    await trx
      .updateTable('tryon_reports')
      .set({ user_id: input.toUserId })
      .where('user_id', '=', input.fromUserId)
      .execute();

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
    return { merged: true, credits, tryons: Number(moved.numUpdatedRows), results: Number(succeeded.n) };
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
