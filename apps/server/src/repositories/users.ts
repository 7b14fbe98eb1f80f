/** Users: the only code that reads or writes the `users` table (credits go through the ledger). */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';

type Db = Kysely<Database>;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByDeviceId(db: Db, deviceId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
}

export interface NewUser {
  deviceId: string;
  deviceInfo: unknown;
  signupIpHash: string | null;
  /** Free trials already used at creation (the per-IP cap starts users with none left). */
  freeTrialsUsed: number;
  now: Date;
}

/**
 * Creates the user for a device, or returns the one a concurrent request created first.
 * `created` tells which.
 */
export async function createUser(db: Db, input: NewUser): Promise<{ user: UserRow; created: boolean }> {
  const now = iso(input.now);
  const row: UserRow = {
    id: newId(),
    device_id: input.deviceId,
    device_info: JSON.stringify(input.deviceInfo ?? {}),
    free_trials_used: input.freeTrialsUsed,
    created_at: now,
    last_seen_at: now,
    signup_ip_hash: input.signupIpHash,
    subscription_id: null,
    subscription_status: null,
    subscription_plan_id: null,
    subscription_period_end: null,
    subscription_updated_at: null,
  };
  const inserted = await db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('device_id').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { user: inserted, created: true };
  const existing = await findUserByDeviceId(db, input.deviceId);
  if (!existing) throw new Error('user vanished during sign-in');
  return { user: existing, created: false };
}

export async function touchUser(db: Db, id: string, deviceInfo: unknown, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_seen_at: iso(now), device_info: JSON.stringify(deviceInfo ?? {}) })
    .where('id', '=', id)
    .execute();
}

/** How many users were created from this (hashed) IP since `since`, counting up to `atMost`. */
export async function countUsersFromIpSince(db: Db, ipHash: string, since: Date, atMost: number): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select('created_at') // covered by users_signup_ip_idx
    .where('signup_ip_hash', '=', ipHash)
    .where('created_at', '>=', iso(since))
    .limit(atMost)
    .execute();
  return rows.length;
}

export interface SubscriptionUpdate {
  subscriptionId: string;
  status: string;
  planId: string | null;
  periodEnd: Date | string | null;
  /** When the provider says this change happened; older updates than the stored one are ignored. */
  occurredAt: Date | string;
}

/**
 * Records the user's subscription state. Ignores an update older than the last one applied
 * (webhooks can arrive out of order); returns whether it was applied.
 */
export async function setUserSubscription(db: Db, userId: string, update: SubscriptionUpdate): Promise<boolean> {
  const occurredAt = iso(new Date(update.occurredAt));
  const periodEnd = update.periodEnd === null ? null : iso(new Date(update.periodEnd));
  const res = await db
    .updateTable('users')
    .set({
      subscription_id: update.subscriptionId,
      subscription_status: update.status,
      subscription_plan_id: update.planId,
      subscription_period_end: periodEnd,
      subscription_updated_at: occurredAt,
    })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('subscription_updated_at', 'is', null), eb('subscription_updated_at', '<=', occurredAt)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Whether the user ever received purchased (non-trial) credits. */
export async function hasPurchased(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('credit_grants').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}
