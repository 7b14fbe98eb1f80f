import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DatabaseHandle } from '../db/database.js';
import { DATABASE_KINDS, openTestDatabase } from '../test/databases.js';
import { createUser, findUserById } from '../repositories/users.js';
import {
  balance,
  canReserveTryOn,
  clawbackGrant,
  completeTryOn,
  expireGrants,
  grantCredits,
  refundStuckTryOns,
  refundTryOn,
  reserveTryOn,
} from './ledger.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const days = (n: number) => new Date(T0.getTime() + n * 86_400_000);
let deviceCounter = 0;

async function newUser(db: Kysely<Database>, freeTrialsUsed = 0): Promise<string> {
  const user = await createUser(db, {
    deviceId: `device-ledger-${++deviceCounter}-${Math.random().toString(36).slice(2)}`,
    deviceInfo: { browser: 'Chrome', os: 'Linux' },
    signupIpHash: null,
    freeTrialsUsed,
    freeTrialsWithheld: null,
    now: T0,
  });
  return user.id;
}

const reserve = (db: Kysely<Database>, userId: string, now = T0, freeTrialsLimit = 2) =>
  reserveTryOn(db, { userId, freeTrialsLimit, category: 'upper_body', engine: 'test', now });

describe.each(DATABASE_KINDS)('ledger on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  const handles: DatabaseHandle[] = [];

  beforeEach(async () => {
    handle = await openTestDatabase(kind);
    handles.push(handle);
    db = handle.db;
  });
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
  });

  it('grants once per external reference and records one grant event', async () => {
    const userId = await newUser(db);
    const input = {
      userId,
      source: 'demo' as const,
      planId: 'weekly',
      amount: 20,
      expiresAt: days(7),
      externalRef: 'demo_ref_1',
      now: T0,
    };
    const first = await grantCredits(db, input);
    const second = await grantCredits(db, input);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.grant.id).toBe(first.grant.id);
    const grants = await db.selectFrom('credit_grants').selectAll().where('user_id', '=', userId).execute();
    expect(grants).toHaveLength(1);
    const events = await db.selectFrom('credit_events').selectAll().where('user_id', '=', userId).execute();
    expect(events.map((e) => [e.type, e.amount])).toEqual([['grant', 20]]);
    expect(await balance(db, userId, T0)).toBe(20);
  });

  it('is idempotent under concurrent grants with the same reference', async () => {
    const userId = await newUser(db);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        grantCredits(db, {
          userId,
          source: 'paddle',
          planId: 'credits_200',
          amount: 200,
          expiresAt: null,
          externalRef: 'txn_same',
          now: T0,
        }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await balance(db, userId, T0)).toBe(200);
  });

  it('rejects non-positive or fractional amounts', async () => {
    const userId = await newUser(db);
    for (const amount of [0, -5, 1.5]) {
      await expect(
        grantCredits(db, { userId, source: 'admin', planId: null, amount, expiresAt: null, externalRef: null }),
      ).rejects.toThrow(/positive integer/);
    }
  });

  it('counts only unexpired grants in the balance', async () => {
    const userId = await newUser(db);
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 20,
      expiresAt: days(7),
      externalRef: 'w',
      now: T0,
    });
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'credits_200',
      amount: 200,
      expiresAt: null,
      externalRef: 'c',
      now: T0,
    });
    expect(await balance(db, userId, days(1))).toBe(220);
    expect(await balance(db, userId, days(7))).toBe(200);
    expect(await balance(db, userId, days(400))).toBe(200);
  });

  it('spends free trials first, then the grant that expires soonest, never-expiring last', async () => {
    const userId = await newUser(db);
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'credits_200',
      amount: 1,
      expiresAt: null,
      externalRef: 'never',
      now: T0,
    });
    const late = await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'yearly',
      amount: 1,
      expiresAt: days(365),
      externalRef: 'late',
      now: T0,
    });
    const soon = await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 1,
      expiresAt: days(7),
      externalRef: 'soon',
      now: T0,
    });
    const expired = await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 5,
      expiresAt: days(-1),
      externalRef: 'old',
      now: days(-8),
    });

    const order: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await reserve(db, userId);
      expect(r.ok).toBe(true);
      if (r.ok) order.push(r.charge === 'trial' ? 'trial' : r.grantId);
    }
    expect(order).toEqual(['trial', 'trial', soon.grant.id, late.grant.id, expect.any(String)]);
    expect(order[4]).not.toBe(expired.grant.id);
    const sixth = await reserve(db, userId);
    expect(sixth).toEqual({ ok: false, code: 'NO_CREDITS' });
    const stillExpired = await db
      .selectFrom('credit_grants')
      .select('remaining')
      .where('id', '=', expired.grant.id)
      .executeTakeFirstOrThrow();
    expect(stillExpired.remaining).toBe(5);
    expect((await findUserById(db, userId))?.free_trials_used).toBe(2);
  });

  it('refunds a free trial or a credit exactly once', async () => {
    const userId = await newUser(db);
    const trial = await reserve(db, userId, T0, 1);
    if (!trial.ok) throw new Error('expected a reservation');
    expect(trial.charge).toBe('trial');
    expect((await findUserById(db, userId))?.free_trials_used).toBe(1);
    expect(await refundTryOn(db, { tryonId: trial.tryon.id, errorCode: 'ENGINE_FAILED', now: T0 })).toBe(true);
    expect(await refundTryOn(db, { tryonId: trial.tryon.id, errorCode: 'ENGINE_FAILED', now: T0 })).toBe(false);
    expect((await findUserById(db, userId))?.free_trials_used).toBe(0);

    await reserve(db, userId, T0, 1); // uses the trial again
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 3,
      expiresAt: days(7),
      externalRef: 'r',
      now: T0,
    });
    const paid = await reserve(db, userId, T0, 1);
    if (!paid.ok) throw new Error('expected a reservation');
    expect(paid.charge).toBe('credit');
    expect(await balance(db, userId, T0)).toBe(2);
    expect(await refundTryOn(db, { tryonId: paid.tryon.id, errorCode: 'ENGINE_TIMEOUT', now: T0 })).toBe(true);
    expect(await refundTryOn(db, { tryonId: paid.tryon.id, errorCode: 'ENGINE_TIMEOUT', now: T0 })).toBe(false);
    expect(await balance(db, userId, T0)).toBe(3);
    const row = await db.selectFrom('tryons').selectAll().where('id', '=', paid.tryon.id).executeTakeFirstOrThrow();
    expect([row.status, row.error_code]).toEqual(['failed', 'ENGINE_TIMEOUT']);
    const events = await db
      .selectFrom('credit_events')
      .select(['type', 'amount'])
      .where('tryon_id', '=', paid.tryon.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['refund', 'spend']);
  });

  it('does not refund a try-on that succeeded', async () => {
    const userId = await newUser(db);
    const r = await reserve(db, userId);
    if (!r.ok) throw new Error('expected a reservation');
    expect(await completeTryOn(db, { tryonId: r.tryon.id, resultName: 'x.jpg', now: T0 })).toBe(true);
    expect(await refundTryOn(db, { tryonId: r.tryon.id, errorCode: 'ENGINE_FAILED' })).toBe(false);
    expect((await findUserById(db, userId))?.free_trials_used).toBe(1);
  });

  it('claws back only what is unspent, once, and a later refund restores nothing', async () => {
    const userId = await newUser(db, 2);
    await grantCredits(db, {
      userId,
      source: 'paddle',
      planId: 'weekly',
      amount: 10,
      expiresAt: days(7),
      externalRef: 'txn_1',
      now: T0,
    });
    const spent = [];
    for (let i = 0; i < 3; i++) spent.push(await reserve(db, userId));
    const first = await clawbackGrant(db, { externalRef: 'txn_1', note: 'refund approved', now: T0 });
    expect(first?.clawedBack).toBe(7);
    expect(first?.grant.remaining).toBe(0);
    const second = await clawbackGrant(db, { externalRef: 'txn_1', now: T0 });
    expect(second?.clawedBack).toBe(0);
    expect(await clawbackGrant(db, { externalRef: 'txn_unknown' })).toBeNull();
    expect(await balance(db, userId, T0)).toBe(0);
    const s0 = spent[0];
    if (!s0?.ok) throw new Error('expected a reservation');
    expect(await refundTryOn(db, { tryonId: s0.tryon.id, errorCode: 'ENGINE_FAILED', now: T0 })).toBe(true);
    expect(await balance(db, userId, T0)).toBe(0);
    const events = await db
      .selectFrom('credit_events')
      .select(['type', 'amount'])
      .where('user_id', '=', userId)
      .execute();
    expect(events.filter((e) => e.type === 'clawback').map((e) => e.amount)).toEqual([-7]);
  });

  it('expires grants with an expire event, once', async () => {
    const userId = await newUser(db, 2);
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 20,
      expiresAt: days(7),
      externalRef: 'e',
      now: T0,
    });
    await reserve(db, userId);
    expect(await expireGrants(db, days(6))).toBe(0);
    expect(await expireGrants(db, days(8))).toBe(1);
    expect(await expireGrants(db, days(9))).toBe(0);
    const events = await db
      .selectFrom('credit_events')
      .select(['type', 'amount'])
      .where('user_id', '=', userId)
      .execute();
    expect(events.filter((e) => e.type === 'expire').map((e) => e.amount)).toEqual([-19]);
    // The ledger adds up: every grant's events sum to its remaining.
    const sum = events.reduce((acc, e) => acc + e.amount, 0);
    expect(sum).toBe(0);
  });

  it('refunds try-ons left processing past the deadline', async () => {
    const userId = await newUser(db);
    const old = await reserve(db, userId, T0);
    const recent = await reserve(db, userId, days(1));
    if (!old.ok || !recent.ok) throw new Error('expected reservations');
    const refunded = await refundStuckTryOns(db, new Date(days(1).getTime() - 1000), days(1));
    expect(refunded).toBe(1);
    const rows = await db.selectFrom('tryons').select(['id', 'status']).where('user_id', '=', userId).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [old.tryon.id]: 'failed',
      [recent.tryon.id]: 'processing',
    });
    expect((await findUserById(db, userId))?.free_trials_used).toBe(1);
  });

  it('gives exactly two of 20 concurrent reservations to a user with two free trials', async () => {
    const userId = await newUser(db);
    const results = await Promise.all(Array.from({ length: 20 }, () => reserve(db, userId)));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok)).toHaveLength(18);
    expect((await findUserById(db, userId))?.free_trials_used).toBe(2);
  });

  it('never spends more credits than granted under concurrency', async () => {
    const userId = await newUser(db, 2);
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'weekly',
      amount: 3,
      expiresAt: days(7),
      externalRef: 'a',
      now: T0,
    });
    await grantCredits(db, {
      userId,
      source: 'demo',
      planId: 'credits_200',
      amount: 2,
      expiresAt: null,
      externalRef: 'b',
      now: T0,
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => reserve(db, userId)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(await balance(db, userId, T0)).toBe(0);
    const grants = await db.selectFrom('credit_grants').select('remaining').where('user_id', '=', userId).execute();
    expect(grants.every((g) => g.remaining === 0)).toBe(true);
  });

  describe('a whole outfit (two units)', () => {
    const reserveOutfit = (userId: string) =>
      reserveTryOn(db, { userId, freeTrialsLimit: 2, category: 'upper_body', engine: 'test', now: T0, units: 2 });
    const rowsOf = (userId: string) =>
      db.selectFrom('tryons').selectAll().where('user_id', '=', userId).orderBy('bundle_of').execute();

    it('takes free trials first, then a credit, and records a companion row', async () => {
      const userId = await newUser(db, 1);
      await grantCredits(db, {
        userId,
        source: 'demo',
        planId: 'weekly',
        amount: 3,
        expiresAt: days(7),
        externalRef: 'o1',
        now: T0,
      });
      expect(await canReserveTryOn(db, { userId, freeTrialsLimit: 2, now: T0, units: 2 })).toBe(true);
      const r = await reserveOutfit(userId);
      expect(r.ok && r.charge).toBe('trial');
      const rows = await rowsOf(userId);
      expect(rows).toHaveLength(2);
      const companion = rows.find((row) => row.bundle_of !== null);
      expect(companion?.bundle_of).toBe(r.ok ? r.tryon.id : null);
      expect(companion?.charge).toBe('credit');
      expect((await findUserById(db, userId))?.free_trials_used).toBe(2);
      expect(await balance(db, userId, T0)).toBe(2);
    });

    it('takes nothing when only one unit is left', async () => {
      const userId = await newUser(db, 2);
      await grantCredits(db, {
        userId,
        source: 'demo',
        planId: 'weekly',
        amount: 1,
        expiresAt: days(7),
        externalRef: 'o2',
        now: T0,
      });
      expect(await canReserveTryOn(db, { userId, freeTrialsLimit: 2, now: T0, units: 2 })).toBe(false);
      expect(await canReserveTryOn(db, { userId, freeTrialsLimit: 2, now: T0, units: 1 })).toBe(true);
      const r = await reserveOutfit(userId);
      expect(r).toEqual({ ok: false, code: 'NO_CREDITS' });
      expect(await rowsOf(userId)).toHaveLength(0);
      expect(await balance(db, userId, T0)).toBe(1);
      const events = await db.selectFrom('credit_events').select('type').where('user_id', '=', userId).execute();
      expect(events.map((e) => e.type)).toEqual(['grant']);
    });

    it('gives both units back on failure, once', async () => {
      const userId = await newUser(db, 1);
      await grantCredits(db, {
        userId,
        source: 'demo',
        planId: 'weekly',
        amount: 1,
        expiresAt: days(7),
        externalRef: 'o3',
        now: T0,
      });
      const r = await reserveOutfit(userId);
      if (!r.ok) throw new Error('expected a reservation');
      expect(await refundTryOn(db, { tryonId: r.tryon.id, errorCode: 'ENGINE_ERROR', now: T0 })).toBe(true);
      expect(await refundTryOn(db, { tryonId: r.tryon.id, errorCode: 'ENGINE_ERROR', now: T0 })).toBe(false);
      expect((await findUserById(db, userId))?.free_trials_used).toBe(1);
      expect(await balance(db, userId, T0)).toBe(1);
      expect((await rowsOf(userId)).every((row) => row.status === 'failed')).toBe(true);
    });

    it('spends both on success, the result named on the main row only', async () => {
      const userId = await newUser(db, 0);
      const r = await reserveOutfit(userId);
      if (!r.ok) throw new Error('expected a reservation');
      expect(await completeTryOn(db, { tryonId: r.tryon.id, resultName: 'outfit.jpg', now: T0 })).toBe(true);
      const rows = await rowsOf(userId);
      expect(rows.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
      expect(rows.filter((row) => row.result_name === 'outfit.jpg')).toHaveLength(1);
      expect(await refundTryOn(db, { tryonId: r.tryon.id, errorCode: 'ENGINE_ERROR', now: T0 })).toBe(false);
      expect((await findUserById(db, userId))?.free_trials_used).toBe(2);
    });

    it('never overspends under concurrent outfits', async () => {
      const userId = await newUser(db, 2);
      await grantCredits(db, {
        userId,
        source: 'demo',
        planId: 'weekly',
        amount: 5,
        expiresAt: days(7),
        externalRef: 'o4',
        now: T0,
      });
      const results = await Promise.all(Array.from({ length: 6 }, () => reserveOutfit(userId)));
      expect(results.filter((r) => r.ok)).toHaveLength(2);
      expect(await balance(db, userId, T0)).toBe(1);
    });
  });
});
