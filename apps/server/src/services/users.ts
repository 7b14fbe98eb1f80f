/** Users as the API shows them (DESIGN §3), and anonymous sign-in. */
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
import { countUsersFromIpSince, createUser, findUserByDeviceId, hasPurchased, touchUser } from '../repositories/users.js';

type Db = Kysely<Database>;

/** Statuses in which a subscription still counts as active. */
const ACTIVE_STATUSES = new Set<string>(['active', 'trialing', 'past_due']);

export function subscriptionOf(row: UserRow): Subscription | undefined {
  if (!row.subscription_id || !row.subscription_status || !row.subscription_plan_id) return undefined;
  if (!(PLAN_IDS as readonly string[]).includes(row.subscription_plan_id)) return undefined;
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(row.subscription_status)) return undefined;
  return {
    planId: row.subscription_plan_id as PlanId,
    status: row.subscription_status as SubscriptionStatus,
    currentPeriodEnd: row.subscription_period_end,
  };
}

export function isSubscriber(row: UserRow, now: Date): boolean {
  if (!row.subscription_status || !ACTIVE_STATUSES.has(row.subscription_status)) return false;
  return row.subscription_period_end === null || row.subscription_period_end > now.toISOString();
}

export function segmentOf(row: UserRow, opts: { purchased: boolean; freeTrialsLimit: number; now: Date }): Segment {
  if (isSubscriber(row, opts.now)) return 'subscriber';
  if (opts.purchased) return 'customer';
  return row.free_trials_used < opts.freeTrialsLimit ? 'trial' : 'trial_exhausted';
}

/** The user object of the API: credits are the ledger balance. */
export async function toApiUser(db: Db, row: UserRow, opts: { freeTrialsLimit: number; now: Date }): Promise<User> {
  const [credits, purchased] = await Promise.all([balance(db, row.id, opts.now), hasPurchased(db, row.id)]);
  const user: User = {
    id: row.id,
    credits,
    free_trials_used: row.free_trials_used,
    free_trials_limit: opts.freeTrialsLimit,
    segment: segmentOf(row, { purchased, ...opts }),
    created_at: row.created_at,
  };
  const subscription = subscriptionOf(row);
  if (subscription) user.subscription = subscription;
  return user;
}

/** A keyed hash of the client address: enough to count sign-ups per address, useless to recover it. */
export function hashIp(ip: string, secret: string): string {
  return createHmac('sha256', secret).update(`ip:${ip}`).digest('base64url').slice(0, 32);
}

export interface SignInInput {
  deviceId: string;
  deviceInfo: DeviceInfo;
  ip: string;
  now: Date;
  secret: string;
  freeTrialsLimit: number;
  newUsersPerIpPerDay: number;
}

/**
 * Finds or creates the user of a device. Past the daily cap of new users from one address,
 * new users start with their free trials already used.
 */
export async function signInAnonymous(db: Db, input: SignInInput): Promise<{ user: UserRow; isNew: boolean }> {
  const existing = await findUserByDeviceId(db, input.deviceId);
  if (existing) {
    await touchUser(db, existing.id, input.deviceInfo, input.now);
    return { user: { ...existing, last_seen_at: input.now.toISOString() }, isNew: false };
  }
  const ipHash = hashIp(input.ip, input.secret);
  const since = new Date(input.now.getTime() - 24 * 60 * 60 * 1000);
  const cap = input.newUsersPerIpPerDay;
  const overCap = cap === 0 || (await countUsersFromIpSince(db, ipHash, since, cap)) >= cap;
  const { user, created } = await createUser(db, {
    deviceId: input.deviceId,
    deviceInfo: input.deviceInfo,
    signupIpHash: ipHash,
    freeTrialsUsed: overCap ? input.freeTrialsLimit : 0,
    now: input.now,
  });
  return { user, isNew: created };
}
