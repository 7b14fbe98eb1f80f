/** Users as the API shows them, and anonymous sign-in. */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  PLAN_IDS,
  SUBSCRIPTION_STATUSES,
  type DeviceInfo,
  type PlanId,
  type Segment,
  type Subscription,
  type SubscriptionStatus,
  type User,
} from '@aidressup/contract';
import type { Database, UserRow } from '../db/schema.js';
import { balance } from '../ledger/ledger.js';
import { countNewUserFromIp, createUser, deviceTrialsUsed, hasPurchased, upsertDevice } from '../repositories/users.js';

type Db = Kysely<Database>;

/** Statuses in which a subscription still counts as active. */
const ACTIVE_STATUSES = new Set<string>(['active', 'trialing', 'past_due']);

function subscriptionOf(row: UserRow): Subscription | undefined {
  if (!row.subscription_id || !row.subscription_status || !row.subscription_plan_id) return undefined;
  if (!(PLAN_IDS as readonly string[]).includes(row.subscription_plan_id)) return undefined;
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(row.subscription_status)) return undefined;
  return {
    planId: row.subscription_plan_id as PlanId,
    status: row.subscription_status as SubscriptionStatus,
    currentPeriodEnd: row.subscription_period_end,
  };
}

function isSubscriber(row: UserRow, now: Date): boolean {
  if (!row.subscription_status || !ACTIVE_STATUSES.has(row.subscription_status)) return false;
  return row.subscription_period_end === null || row.subscription_period_end > now.toISOString();
}

function segmentOf(row: UserRow, opts: { purchased: boolean; freeTrialsLimit: number; now: Date }): Segment {
  if (isSubscriber(row, opts.now)) return 'subscriber';
  if (opts.purchased) return 'customer';
  return row.free_trials_used < opts.freeTrialsLimit ? 'trial' : 'trial_exhausted';
}

/**
 * Free trials the user has used, as far as they can still take one: a device's trials are shared
 * by all its users, so once the device has used them up, none of its users has any left.
 */
function effectiveTrialsUsed(row: Pick<UserRow, 'free_trials_used'>, deviceUsed: number, limit: number): number {
  return Math.max(row.free_trials_used, Math.min(limit, deviceUsed));
}

/** The user object of the API: credits are the ledger balance. */
export async function toApiUser(db: Db, row: UserRow, opts: { freeTrialsLimit: number; now: Date }): Promise<User> {
  const [credits, purchased, deviceUsed] = await Promise.all([
    balance(db, row.id, opts.now),
    hasPurchased(db, row.id),
    row.device_id === null ? 0 : deviceTrialsUsed(db, row.device_id),
  ]);
  const trialsUsed = effectiveTrialsUsed(row, deviceUsed, opts.freeTrialsLimit);
  const user: User = {
    id: row.id,
    credits,
    free_trials_used: trialsUsed,
    free_trials_limit: opts.freeTrialsLimit,
    segment: segmentOf({ ...row, free_trials_used: trialsUsed }, { purchased, ...opts }),
    created_at: row.created_at,
    email: row.email,
    free_trials_withheld:
      row.free_trials_withheld === 'device' || row.free_trials_withheld === 'network' ? row.free_trials_withheld : null,
  };
  const subscription = subscriptionOf(row);
  if (subscription) user.subscription = subscription;
  return user;
}

/** A keyed hash of the client address: enough to count sign-ups per address, useless to recover it. */
export function hashIp(ip: string, secret: string): string {
  return createHmac('sha256', secret).update(`ip:${ip}`).digest('base64url').slice(0, 32);
}

export interface NewAnonymousUserInput {
  deviceId: string;
  deviceInfo: DeviceInfo;
  ip: string;
  now: Date;
  secret: string;
  freeTrialsLimit: number;
  newUsersPerIpPerDay: number;
}

/**
 * Creates a new anonymous user. The device id is a signal, never a key: it only decides how many
 * free trials the new user starts with. A device shares its free trials among all its users, so a
 * user created on a device that used them starts with them used; past the daily cap of new users
 * from one address, new users start with none. Both counts are single atomic upserts, exact under
 * concurrency on SQLite and PostgreSQL.
 */
export async function createAnonymousUser(db: Db, input: NewAnonymousUserInput): Promise<UserRow> {
  const limit = input.freeTrialsLimit;
  const ipHash = hashIp(input.ip, input.secret);
  return db.transaction().execute(async (trx) => {
    const deviceUsed = await upsertDevice(trx, input.deviceId, input.now);
    const fromIp = await countNewUserFromIp(trx, ipHash, input.now);
    let freeTrialsUsed = Math.min(limit, deviceUsed);
    let withheld: 'device' | 'network' | null = null;
    if (limit > 0 && deviceUsed >= limit) {
      withheld = 'device';
    } else if (limit > 0 && fromIp > input.newUsersPerIpPerDay) {
      withheld = 'network';
      freeTrialsUsed = limit;
    }
    return createUser(trx, {
      deviceId: input.deviceId,
      deviceInfo: input.deviceInfo,
      signupIpHash: ipHash,
      freeTrialsUsed,
      freeTrialsWithheld: withheld,
      now: input.now,
    });
  });
}
