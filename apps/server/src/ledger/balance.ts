/**
 * Read-only questions about a user's credits: the balance, and whether any of them came with
 * priority processing.
 */
import { sql } from 'kysely';
import { iso } from '../db/ids.js';
import type { Db } from './transaction.js';

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
