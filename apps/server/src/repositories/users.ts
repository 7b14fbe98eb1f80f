/** Users: the only code that reads or writes the `users` table (credits go through the ledger). */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';

type Db = Kysely<Database>;

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  deviceId: string | null;
  deviceInfo: unknown;
  signupIpHash: string | null;
  /** Free trials already used at creation (from the device's count, or all of them past the per-address cap). */
  freeTrialsUsed: number;
  freeTrialsWithheld: 'device' | 'network' | null;
  now: Date;
}

/** Creates a user. A device id is not unique: every sign-in without a session makes a new user. */
export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
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
    email: null,
    free_trials_withheld: input.freeTrialsWithheld,
    merged_into: null,
    deleted_at: null,
    paddle_customer_id: null,
    blocked_at: null,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function touchUser(db: Db, id: string, deviceInfo: unknown, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_seen_at: iso(now), device_info: JSON.stringify(deviceInfo ?? {}) })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Records a device and returns how many free trials its users have spent so far. One atomic
 * upsert, so concurrent sign-ins on one device all see the same row.
 */
export async function upsertDevice(db: Db, deviceId: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('devices')
    .values({ device_id: deviceId, free_trials_used: 0, created_at: iso(now) })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ device_id: (eb) => eb.ref('excluded.device_id') }))
    .returning('free_trials_used')
    .executeTakeFirstOrThrow();
  return row.free_trials_used;
}

/** Free trials spent on a device by all its users (0 for an unknown device). */
export async function deviceTrialsUsed(db: Db, deviceId: string): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select('free_trials_used')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.free_trials_used ?? 0;
}

/**
 * Counts one more new user from a (hashed) address on the given UTC day and returns the count,
 * this one included. A single atomic upsert: concurrent sign-ins each get their own number, so a
 * cap checked against it is exact on SQLite and PostgreSQL alike.
 */
export async function countNewUserFromIp(db: Db, ipHash: string, now: Date): Promise<number> {
  const day = iso(now).slice(0, 10);
  const row = await db
    .insertInto('ip_signups')
    .values({ ip_hash: ipHash, day, count: 1 })
    .onConflict((oc) => oc.columns(['ip_hash', 'day']).doUpdateSet({ count: (eb) => eb('ip_signups.count', '+', 1) }))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Per-address counters older than `before` (a UTC day, YYYY-MM-DD) are of no more use. */
export async function deleteIpSignupsBefore(db: Db, before: string): Promise<number> {
  const res = await db.deleteFrom('ip_signups').where('day', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Gives the user an email; false when another account took it first (unique) or the user has one. */
export async function setUserEmail(db: Db, userId: string, email: string): Promise<boolean> {
  try {
    const res = await db
      .updateTable('users')
      .set({ email })
      .where('id', '=', userId)
      .where('email', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    e.code === '23505' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    (typeof e.message === 'string' && /UNIQUE constraint failed/.test(e.message))
  );
}

export async function setPaddleCustomerId(db: Db, userId: string, customerId: string): Promise<void> {
  await db.updateTable('users').set({ paddle_customer_id: customerId }).where('id', '=', userId).execute();
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

/** Whether the user ever received purchased (non-trial) credits; an operator's grant is not a purchase. */
export async function hasPurchased(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('credit_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('source', '!=', 'admin')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes a person's data, in the caller's transaction: their try-on rows (the ledger's events
 * keep their amounts but lose the link), sessions, sign-in codes, email, device and device info.
 * The user row stays as an id without personal data, so the transaction records that point to it
 * stay whole. Returns the stored result names, for the caller to delete from storage.
 */
export async function deleteUserData(db: Db, userId: string, now: Date): Promise<string[]> {
  const user = await findUserById(db, userId);
  if (!user) return [];
  const tryons = await db.selectFrom('tryons').select(['id', 'result_name']).where('user_id', '=', userId).execute();
  const ids = tryons.map((t) => t.id);
  if (ids.length > 0) {
    await db.updateTable('credit_events').set({ tryon_id: null }).where('tryon_id', 'in', ids).execute();
    await db.deleteFrom('tryons').where('id', 'in', ids).execute();
  }
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  if (user.email) {
    await db.deleteFrom('email_codes').where('email', '=', user.email).execute();
    await db.deleteFrom('sign_in_failures').where('email', '=', user.email).execute();
  }
  await db
    .updateTable('users')
    .set({
      email: null,
      device_id: null,
      device_info: '{}',
      signup_ip_hash: null,
      paddle_customer_id: null,
      free_trials_withheld: null,
      deleted_at: iso(now),
    })
    .where('id', '=', userId)
    .execute();
  return tryons.map((t) => t.result_name).filter((n): n is string => n !== null);
}

export interface PurchaseRow {
  id: string;
  source: string;
  plan_id: string | null;
  amount: number;
  amount_paid: string | null;
  currency: string | null;
  created_at: string;
  expires_at: string | null;
  clawed_back: boolean;
}

/** The user's purchases (credit grants from a checkout), newest first. */
export async function listPurchases(db: Db, userId: string, limit = 200): Promise<PurchaseRow[]> {
  const rows = await db
    .selectFrom('credit_grants as g')
    .select([
      'g.id',
      'g.source',
      'g.plan_id',
      'g.amount',
      'g.amount_paid',
      'g.currency',
      'g.created_at',
      'g.expires_at',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('credit_events as e')
            .select('e.id')
            .whereRef('e.grant_id', '=', 'g.id')
            .where('e.type', '=', 'clawback'),
        )
        .as('clawed_back'),
    )
    .where('g.user_id', '=', userId)
    .where('g.source', 'in', ['demo', 'paddle'])
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, clawed_back: Boolean(r.clawed_back) }));
}
