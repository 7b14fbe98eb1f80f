/**
 * The ledger's operator functions on SQLite and PostgreSQL: adjustCredits (an admin grant; taking
 * back across grants, never below zero, also when removals race) and refundReportedTryOn (a free
 * trial back as a trial, a credit to its grant, nothing for a clawed-back grant, a new credit for
 * an expired one).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DatabaseHandle } from '../db/database.js';
import { DATABASE_KINDS, openTestDatabase } from '../test/databases.js';
import { createUser, findUserById } from '../repositories/users.js';
import {
  adjustCredits,
  balance,
  clawbackGrant,
  completeTryOn,
  grantCredits,
  refundReportedTryOn,
  reserveTryOn,
} from './ledger.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const days = (n: number) => new Date(T0.getTime() + n * 86_400_000);
let seq = 0;

async function newUser(db: Kysely<Database>, freeTrialsUsed = 2): Promise<string> {
  const user = await createUser(db, {
    deviceId: `device-operator-ledger-${++seq}-${Math.random().toString(36).slice(2)}`,
    deviceInfo: {},
    signupIpHash: null,
    freeTrialsUsed,
    freeTrialsWithheld: null,
    now: T0,
  });
  return user.id;
}

const grant = (
  db: Kysely<Database>,
  userId: string,
  amount: number,
  expiresAt: Date | null,
  ref: string | null = null,
) => grantCredits(db, { userId, source: 'demo', planId: 'weekly', amount, expiresAt, externalRef: ref, now: T0 });

async function succeeded(db: Kysely<Database>, userId: string, units = 1) {
  const r = await reserveTryOn(db, { userId, freeTrialsLimit: 2, category: 'upper_body', engine: 'e', units, now: T0 });
  if (!r.ok) throw new Error('no credits');
  await completeTryOn(db, { tryonId: r.tryon.id, resultName: `${r.tryon.id}.jpg`, now: T0 });
  const rows = await db
    .selectFrom('tryons')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', r.tryon.id), eb('bundle_of', '=', r.tryon.id)]))
    .execute();
  return rows.map((t) => ({ tryonId: t.id, charge: t.charge, grantId: t.grant_id }));
}

describe.each(DATABASE_KINDS)('operator ledger on %s', (kind) => {
  let db: Kysely<Database>;
  const handles: DatabaseHandle[] = [];
  beforeEach(async () => {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    db = handle.db;
  });
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
  });

  it('adds an admin grant and takes credits back across grants, never below zero', async () => {
    const userId = await newUser(db);
    await grant(db, userId, 3, days(7));
    await grant(db, userId, 4, null);
    expect(await adjustCredits(db, { userId, amount: 5, reason: 'goodwill', actorId: 'op', now: T0 })).toEqual({
      before: 7,
      after: 12,
      changed: 5,
    });
    expect(await adjustCredits(db, { userId, amount: -9, reason: 'mistake', actorId: 'op', now: T0 })).toEqual({
      before: 12,
      after: 3,
      changed: -9,
    });
    expect(await adjustCredits(db, { userId, amount: -50, reason: 'abuse', actorId: 'op', now: T0 })).toEqual({
      before: 3,
      after: 0,
      changed: -3,
    });
    const events = await db
      .selectFrom('credit_events')
      .select(['type', 'amount', 'note', 'actor_id'])
      .where('user_id', '=', userId)
      .where('actor_id', 'is not', null)
      .execute();
    expect(events.reduce((sum, e) => sum + e.amount, 0)).toBe(5 - 12);
    for (const e of events) expect(e.actor_id).toBe('op');
    expect(events.filter((e) => e.type === 'grant')).toEqual([
      { type: 'grant', amount: 5, note: 'goodwill', actor_id: 'op' },
    ]);
    await expect(adjustCredits(db, { userId, amount: 0, reason: 'x', actorId: 'op' })).rejects.toThrow();
    await expect(adjustCredits(db, { userId, amount: 1, reason: ' ', actorId: 'op' })).rejects.toThrow();
  });

  it('never goes below zero when removals race', async () => {
    const userId = await newUser(db);
    await grant(db, userId, 10, null);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        adjustCredits(db, { userId, amount: -3, reason: 'race', actorId: 'op', now: T0 }),
      ),
    );
    expect(results.reduce((sum, r) => sum + r.changed, 0)).toBe(-10);
    expect(await balance(db, userId, T0)).toBe(0);
  });

  it('gives back a free trial as a free trial and a credit to its grant', async () => {
    const userId = await newUser(db, 1);
    await grant(db, userId, 5, null);
    const units = await succeeded(db, userId, 2); // one trial, one credit
    expect(units.map((u) => u.charge).sort()).toEqual(['credit', 'trial']);
    expect(await balance(db, userId, T0)).toBe(4);
    const back = await refundReportedTryOn(db, { userId, units, note: 'report', actorId: null, now: T0 });
    expect(back).toEqual({ credits: 1, freeTrials: 1 });
    expect(await balance(db, userId, T0)).toBe(5);
    expect((await findUserById(db, userId))!.free_trials_used).toBe(1);
  });

  it('gives nothing back for a clawed-back grant, and a new credit for an expired one', async () => {
    const userId = await newUser(db);
    await grant(db, userId, 2, days(3), 'ref-clawed');
    const fromClawed = await succeeded(db, userId);
    await clawbackGrant(db, { externalRef: 'ref-clawed', now: T0 });
    expect(await refundReportedTryOn(db, { userId, units: fromClawed, note: 'r', actorId: null, now: T0 })).toEqual({
      credits: 0,
      freeTrials: 0,
    });

    const other = await newUser(db);
    await grant(db, other, 1, days(3));
    const fromExpiring = await succeeded(db, other);
    const later = days(10);
    expect(
      await refundReportedTryOn(db, { userId: other, units: fromExpiring, note: 'r', actorId: 'op', now: later }),
    ).toEqual({
      credits: 1,
      freeTrials: 0,
    });
    expect(await balance(db, other, later)).toBe(1);
  });
});
