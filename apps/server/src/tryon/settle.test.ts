/**
 * A try-on's settlement while the database is away (PostgreSQL restarting): the refund of a
 * failed try-on and the recording of a stored result wait for it, then happen once.
 */
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import type { DatabaseHandle } from '../db/database.js';
import { DATABASE_KINDS, openTestDatabase, tempDir } from '../test/databases.js';
import { databaseOutage } from '../test/database-outage.js';
import { png } from '../test/images.js';
import { createUser } from '../repositories/users.js';
import { findTryOn } from '../repositories/tryons.js';
import { balance, grantCredits, reserveTryOn } from '../ledger/ledger.js';
import { LocalDiskStorage } from '../storage/local-disk.js';
import { refundFailedTryOn } from './settle.js';
import { storeResult } from './results.js';

const NOW = new Date('2026-06-01T10:00:00.000Z');
/** How long the database stays away in these tests. */
const AWAY_MS = 700;

async function paidTryOn(db: Kysely<Database>): Promise<{ userId: string; tryonId: string }> {
  const user = await createUser(db, {
    deviceId: `device-settle-${Math.random().toString(36).slice(2)}`,
    deviceInfo: { browser: 'Chrome', os: 'Linux' },
    signupIpHash: null,
    freeTrialsUsed: 2,
    freeTrialsWithheld: null,
    now: NOW,
  });
  await grantCredits(db, {
    userId: user.id,
    source: 'demo',
    planId: null,
    amount: 3,
    expiresAt: null,
    externalRef: null,
    now: NOW,
  });
  const reserved = await reserveTryOn(db, {
    userId: user.id,
    freeTrialsLimit: 2,
    category: 'upper_body',
    engine: 'test',
    now: NOW,
    ownerId: null,
  });
  if (!reserved.ok) throw new Error('reservation failed');
  return { userId: user.id, tryonId: reserved.tryon.id };
}

/** Runs `work` with the database away, and brings it back AWAY_MS later. */
async function whileAway<T>(away: { down: boolean }, work: () => Promise<T>): Promise<T> {
  away.down = true;
  const timer = setTimeout(() => (away.down = false), AWAY_MS);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    away.down = false;
  }
}

describe.each(DATABASE_KINDS)('settling a try-on while the database is away, on %s', (kind) => {
  const handles: DatabaseHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
  });

  async function setup() {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    const away = databaseOutage();
    return { db: handle.db, away, flaky: handle.db.withPlugin(away) };
  }

  it('a failed try-on is refunded once the database is back, once', async () => {
    const { db, away, flaky } = await setup();
    const { userId, tryonId } = await paidTryOn(db);
    expect(await balance(db, userId, NOW)).toBe(2);
    const started = Date.now();
    const refunded = await whileAway(away, () =>
      refundFailedTryOn(
        { db: flaky, clock: () => NOW },
        { tryonId, engineId: 'test' },
        {
          ok: false,
          code: 'ENGINE_FAILED',
          message: '',
        },
      ),
    );
    expect(refunded).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(AWAY_MS - 50);
    expect(await findTryOn(db, tryonId)).toMatchObject({ status: 'failed', error_code: 'ENGINE_FAILED' });
    expect(await balance(db, userId, NOW)).toBe(3);
    const refunds = await db
      .selectFrom('credit_events')
      .select('amount')
      .where('tryon_id', '=', tryonId)
      .where('type', '=', 'refund')
      .execute();
    expect(refunds).toEqual([{ amount: 1 }]);
  });

  it("an engine's result is recorded once the database is back: the try-on succeeds, its result stored", async () => {
    const { db, away, flaky } = await setup();
    const { userId, tryonId } = await paidTryOn(db);
    const storage = new LocalDiskStorage(path.join(tempDir(), 'files'));
    const name = await whileAway(away, async () =>
      storeResult({ db: flaky, storage }, tryonId, await png(64, 64, '#c04040'), new AbortController().signal, NOW),
    );
    expect(await findTryOn(db, tryonId)).toMatchObject({ status: 'succeeded', result_name: name });
    expect(await storage.get(`results/${name}`)).not.toBeNull();
    expect(await balance(db, userId, NOW)).toBe(2);
  });
});
