/**
 * Nothing is charged unless the shopper is still there when the try-on starts, on SQLite and
 * PostgreSQL. A shopper who leaves just after being let in (after the free trial or credit was
 * reserved, before the engine starts) is refunded at once: the engine never runs, the row is
 * failed (so no result reaches the gallery), the ledger is back where it was. Same for a whole
 * outfit (both units) and for a shop's try-on (the merchant's credit).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { jpeg, png } from '../test/images.js';
import { MIN_SIDE, validateAndNormalise, type NormalisedImage } from '../services/images.js';
import { balance, grantCredits } from '../ledger/ledger.js';
import { isAppError } from '../errors.js';

let PERSON: NormalisedImage;
let GARMENT: NormalisedImage;
beforeAll(async () => {
  PERSON = await validateAndNormalise(await jpeg(320, 480, '#c08060'), 'userImage', MIN_SIDE.person);
  GARMENT = await validateAndNormalise(await png(200, 200, '#2040ff'), 'clothingImage', MIN_SIDE.garment);
});

/** Aborts `ctrl` the moment the try-on is charged and starting (the line's last `queued`, without a place). */
function leaveOnceCharged(app: FastifyInstance, userId: string, ctrl: AbortController): string {
  const progressId = randomUUID();
  const sub = app.tryOnProgress.subscribe(progressId, userId, (e) => {
    if (e.stage === 'queued' && e.place === undefined) ctrl.abort();
  });
  if (!sub.ok) throw new Error('the progress id should be free');
  return progressId;
}

async function ledger(app: FastifyInstance, userId: string) {
  const user = await app.db
    .selectFrom('users')
    .select('free_trials_used')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await app.db
    .selectFrom('tryons')
    .select(['status', 'result_name'])
    .where('user_id', '=', userId)
    .execute();
  const events = await app.db
    .selectFrom('credit_events')
    .select(['type', 'amount'])
    .where('user_id', '=', userId)
    .execute();
  return { trialsUsed: user.free_trials_used, rows, events: events.map((e) => `${e.type}:${e.amount}`).sort() };
}

describe.each(DATABASE_KINDS)('a shopper who leaves once let in, on %s', (kind) => {
  const make = testApps(kind);

  it('is refunded at once, before the engine starts: no result, nothing in the gallery', async () => {
    const t = await make();
    const { cookie, user } = await signIn(t.app);
    const ctrl = new AbortController();
    const progressId = leaveOnceCharged(t.app, user.id, ctrl);
    const admission = await t.app.tryOns.refuseEarly(user.id, t.engine.id, 1, {
      category: 'upper_body',
      address: '203.0.113.10',
    });
    let error: unknown;
    try {
      await t.app.tryOns.perform({
        userId: user.id,
        category: 'upper_body',
        engineId: t.engine.id,
        person: PERSON,
        garment: GARMENT,
        progressId,
        admission,
        signal: ctrl.signal,
      });
    } catch (e) {
      error = e;
    } finally {
      await admission.leave();
    }
    expect(ctrl.signal.aborted).toBe(true);
    expect(isAppError(error)).toBe(true);
    expect(t.engine.calls).toHaveLength(0);
    expect(await ledger(t.app, user.id)).toEqual({
      trialsUsed: 0,
      rows: [{ status: 'failed', result_name: null }],
      events: ['trial_refund:1', 'trial_spend:-1'],
    });
    const gallery = await t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } });
    expect(gallery.json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('a whole outfit paid with credits gets both credits back', async () => {
    const t = await make();
    const { user } = await signIn(t.app);
    await t.app.db.updateTable('users').set({ free_trials_used: 99 }).where('id', '=', user.id).execute();
    await grantCredits(t.app.db, {
      userId: user.id,
      source: 'admin',
      planId: null,
      amount: 2,
      expiresAt: null,
      externalRef: null,
      now: t.clock.now,
    });
    const ctrl = new AbortController();
    const progressId = leaveOnceCharged(t.app, user.id, ctrl);
    const admission = await t.app.tryOns.refuseEarly(user.id, t.engine.id, 2, {
      category: 'upper_body',
      address: '203.0.113.10',
    });
    await expect(
      t.app.tryOns.perform({
        userId: user.id,
        category: 'upper_body',
        engineId: t.engine.id,
        person: PERSON,
        garment: GARMENT,
        lowerGarment: GARMENT,
        progressId,
        admission,
        signal: ctrl.signal,
      }),
    ).rejects.toSatisfy(isAppError);
    await admission.leave();
    expect(t.engine.calls).toHaveLength(0);
    const after = await ledger(t.app, user.id);
    expect(after.rows.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(after.events.filter((e) => e.startsWith('refund:'))).toEqual(['refund:1', 'refund:1']);
    expect(await balance(t.app.db, user.id, t.clock.now)).toBe(2);
  });
});
