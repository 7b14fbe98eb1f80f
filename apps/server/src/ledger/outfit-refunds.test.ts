/**
 * A whole outfit is two units (two try-on rows: the main one and its companion). Each refund path
 * (a failure or the sweep of try-ons past their deadline, a report refunded at once, a report an
 * operator refunds) checks and marks each unit's own state in one guarded update, so no unit is
 * ever given back twice: the companion is never refunded on its own while its main row is still
 * running, and a report gives back only units still charged. On SQLite and PostgreSQL, in
 * sequence and racing.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DatabaseHandle } from '../db/database.js';
import { loadConfig } from '../config.js';
import { DATABASE_KINDS, openTestDatabase } from '../test/databases.js';
import { createUser } from '../repositories/users.js';
import { decideReport, reportTryOn } from '../services/admin/reports.js';
import { AppError } from '../errors.js';
import { balance, completeTryOn, grantCredits, refundStuckTryOns, refundTryOn, reserveTryOn } from './ledger.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const OPERATOR = { id: 'operator-1', email: 'operator@example.com' };

function deps(db: Kysely<Database>, autoRefundReports: number) {
  return {
    db,
    clock: () => later(60_000),
    config: loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: '/nonexistent',
      AUTO_REFUND_REPORTS: String(autoRefundReports),
    }),
  };
}

/** A user with two credits who starts a whole outfit: the main row and its companion, both charged. */
async function outfit(db: Kysely<Database>) {
  const user = await createUser(db, {
    deviceId: `device-outfit-${Math.random().toString(36).slice(2)}`,
    deviceInfo: { browser: 'Chrome', os: 'Linux' },
    signupIpHash: null,
    freeTrialsUsed: 0,
    freeTrialsWithheld: null,
    now: T0,
  });
  await grantCredits(db, {
    userId: user.id,
    source: 'admin',
    planId: null,
    amount: 2,
    expiresAt: null,
    externalRef: null,
    now: T0,
  });
  const reserved = await reserveTryOn(db, {
    userId: user.id,
    freeTrialsLimit: 0,
    category: 'upper_body',
    engine: 'test',
    units: 2,
    now: T0,
  });
  if (!reserved.ok) throw new Error('no credits');
  const companion = await db
    .selectFrom('tryons')
    .select('id')
    .where('bundle_of', '=', reserved.tryon.id)
    .executeTakeFirstOrThrow();
  expect(await balance(db, user.id, T0)).toBe(0);
  return { userId: user.id, main: reserved.tryon.id, companion: companion.id };
}

/** Units given back per try-on row (refund events that gave something). */
async function refundsOf(db: Kysely<Database>, ids: string[]): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('credit_events')
    .select(['tryon_id', 'amount'])
    .where('tryon_id', 'in', ids)
    .where('type', 'in', ['refund', 'trial_refund'])
    .where('amount', '>', 0)
    .execute();
  const out: Record<string, number> = Object.fromEntries(ids.map((id) => [id, 0]));
  for (const r of rows) out[r.tryon_id!] = (out[r.tryon_id!] ?? 0) + r.amount;
  return out;
}

const statuses = async (db: Kysely<Database>, ids: string[]) =>
  Object.fromEntries(
    (await db.selectFrom('tryons').select(['id', 'status']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      r.status,
    ]),
  );

describe.each(DATABASE_KINDS)('refunds of an outfit’s units on %s', (kind) => {
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

  it('never refunds the companion on its own while its main row runs, so a report cannot refund it again', async () => {
    const o = await outfit(db);
    // The sweep of overdue try-ons reaches the companion row first (rows come in no set order)...
    expect(await refundTryOn(db, { tryonId: o.companion, errorCode: 'ENGINE_TIMEOUT', now: later(1000) })).toBe(false);
    // ...and the main one then completes: the whole outfit is spent.
    expect(await completeTryOn(db, { tryonId: o.main, resultName: 'r.jpg', now: later(2000) })).toBe(true);
    expect(await statuses(db, [o.main, o.companion])).toEqual({ [o.main]: 'succeeded', [o.companion]: 'succeeded' });
    // The shopper reports it: both units come back, each once.
    const report = await reportTryOn(deps(db, 3), o.userId, { tryonId: o.main, reason: 'wrong_garment' });
    expect(report.status).toBe('refunded');
    expect(await refundsOf(db, [o.main, o.companion])).toEqual({ [o.main]: 1, [o.companion]: 1 });
    expect(await balance(db, o.userId, later(60_000))).toBe(2);
  });

  it('the sweep refunds an overdue outfit whole, whichever row it meets first', async () => {
    const o = await outfit(db);
    expect(await refundStuckTryOns(db, later(1), later(1000))).toBeGreaterThanOrEqual(1);
    expect(await statuses(db, [o.main, o.companion])).toEqual({ [o.main]: 'failed', [o.companion]: 'failed' });
    expect(await refundsOf(db, [o.main, o.companion])).toEqual({ [o.main]: 1, [o.companion]: 1 });
    // Swept again, or refunded by the API's own failure path: nothing more.
    expect(await refundStuckTryOns(db, later(1), later(2000))).toBe(0);
    expect(await refundTryOn(db, { tryonId: o.main, errorCode: 'ENGINE_FAILED', now: later(3000) })).toBe(false);
    expect(await refundTryOn(db, { tryonId: o.companion, errorCode: 'ENGINE_FAILED', now: later(3000) })).toBe(false);
    expect(await balance(db, o.userId, later(60_000))).toBe(2);
  });

  it('a report gives back only the units still charged, whether their cost came back before or after it was made', async () => {
    /** The companion's cost comes back some other way (as an earlier version's sweep did): failed, one credit. */
    const companionRefunded = async (o: { userId: string; companion: string }) => {
      await db
        .updateTable('tryons')
        .set({ status: 'failed', error_code: 'ENGINE_TIMEOUT' })
        .where('id', '=', o.companion)
        .execute();
      await grantCredits(db, {
        userId: o.userId,
        source: 'admin',
        planId: null,
        amount: 1,
        expiresAt: null,
        externalRef: null,
        note: 'the companion’s earlier refund',
        now: later(2500),
      });
    };
    const decide = async (mainId: string) => {
      const row = await db.selectFrom('tryon_reports').selectAll().where('tryon_id', '=', mainId).executeTakeFirst();
      const decided = await decideReport(deps(db, 0), OPERATOR, { reportId: row!.id, decision: 'refund', note: 'ok' });
      expect(decided.status).toBe('refunded');
      return decided.units;
    };

    // Before the report: the report counts one unit only.
    const before = await outfit(db);
    await completeTryOn(db, { tryonId: before.main, resultName: 'before.jpg', now: later(2000) });
    await companionRefunded(before);
    expect(
      (await reportTryOn(deps(db, 0), before.userId, { tryonId: before.main, reason: 'wrong_garment' })).status,
    ).toBe('pending');
    expect(await decide(before.main)).toBe(1);

    // After the report (it recorded both units): the operator's refund gives back the main one only.
    const after = await outfit(db);
    await completeTryOn(db, { tryonId: after.main, resultName: 'after.jpg', now: later(2000) });
    await reportTryOn(deps(db, 0), after.userId, { tryonId: after.main, reason: 'wrong_garment' });
    await companionRefunded(after);
    expect(await decide(after.main)).toBe(2);

    for (const o of [before, after]) {
      expect(await refundsOf(db, [o.main, o.companion])).toEqual({ [o.main]: 1, [o.companion]: 0 });
      expect(await balance(db, o.userId, later(60_000))).toBe(2);
    }
  });

  it('racing: the sweep, the completion, a report and an operator’s refund give each unit back at most once', async () => {
    const rounds = 12;
    const outfits = await Promise.all(Array.from({ length: rounds }, () => outfit(db)));
    await Promise.all(
      outfits.map(async (o, i) => {
        const auto = i % 2 === 0 ? 3 : 0;
        const report = async () => {
          for (let attempt = 0; attempt < 20; attempt++) {
            try {
              const r = await reportTryOn(deps(db, auto), o.userId, { tryonId: o.main, reason: 'wrong_garment' });
              if (r.status === 'pending') {
                const row = await db
                  .selectFrom('tryon_reports')
                  .select('id')
                  .where('tryon_id', '=', o.main)
                  .executeTakeFirstOrThrow();
                const decide = () =>
                  decideReport(deps(db, auto), OPERATOR, { reportId: row.id, decision: 'refund', note: 'x' }).catch(
                    (err: unknown) => {
                      if (!(err instanceof AppError && err.code === 'REPORT_DECIDED')) throw err;
                    },
                  );
                // Two operators at once: one decides.
                await Promise.all([decide(), decide()]);
              }
              return;
            } catch (err) {
              // Not succeeded (yet, or ever): the report is refused; try again a moment later.
              if (!(err instanceof AppError && err.code === 'NOT_REPORTABLE')) throw err;
              await new Promise((r) => setTimeout(r, 2));
            }
          }
        };
        await Promise.all([
          // The sweep meets the companion row first, then the main one, then sweeps everything.
          refundTryOn(db, { tryonId: o.companion, errorCode: 'ENGINE_TIMEOUT', now: later(1000) }),
          i % 3 === 0
            ? refundTryOn(db, { tryonId: o.main, errorCode: 'ENGINE_TIMEOUT', now: later(1000) })
            : completeTryOn(db, { tryonId: o.main, resultName: `r${i}.jpg`, now: later(1000) }),
          refundStuckTryOns(db, later(1), later(1000)),
          report(),
        ]);
      }),
    );
    for (const o of outfits) {
      const state = await statuses(db, [o.main, o.companion]);
      const refunds = await refundsOf(db, [o.main, o.companion]);
      // The two units settle together, each is given back at most once, and the balance says the same.
      expect(state[o.companion]).toBe(state[o.main]);
      expect(Object.values(refunds).every((n) => n <= 1)).toBe(true);
      const given = refunds[o.main]! + refunds[o.companion]!;
      expect([0, 2]).toContain(given);
      expect(await balance(db, o.userId, later(60_000))).toBe(given);
      if (state[o.main] === 'failed') expect(given).toBe(2);
    }
  });
});
