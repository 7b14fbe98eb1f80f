/**
 * What try-ons cost against what they earn, per day and engine, in the plans' currency, on SQLite
 * and PostgreSQL: from seeded purchases (a plan bought in USD, one in another currency, free
 * trials) and try-ons completed with the engine that made them and its recorded cost; with each
 * engine's price and the date it was read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AdminStatsResponseSchema } from '@aidressup/contract';
import { signIn, testApps, type TestApp } from '../../test/app.js';
import { DATABASE_KINDS } from '../../test/databases.js';
import { ledgerTryOn, memoryMailer, newEmail, signInByEmail, type MemoryMailer } from '../../test/operator.js';
import { grantCredits } from '../../ledger/ledger.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DATABASE_KINDS)('engine cost and margin per day on %s', (kind) => {
  const operatorEmail = newEmail('operator');
  const make = testApps(kind, {
    env: {
      ADMIN_EMAILS: operatorEmail,
      REPLICATE_API_TOKEN: 'r8_economics-token-000',
      ENGINE_COSTS: 'replicate=0.02+0.01@2026-11-20',
    },
    start: new Date('2026-08-03T09:00:00.000Z'),
  });
  let t: TestApp;
  let mailer: MemoryMailer;
  beforeAll(async () => {
    mailer = memoryMailer();
    t = await make({ mailer });
  });

  it('adds up revenue (credits at their purchase price, plans’ currency only), engine cost and margin by engine', async () => {
    const { app } = t;
    const buyer = await signIn(app);
    const foreign = await signIn(app);
    const trial = await signIn(app);
    // 200 credits for $20.00: each credit earns $0.10. 10 credits bought in EUR: not in the plans' currency.
    await grantCredits(app.db, {
      userId: buyer.user.id,
      source: 'demo',
      planId: 'credits_200',
      amount: 200,
      expiresAt: null,
      externalRef: null,
      amountPaid: '20.00',
      currency: 'USD',
      now: app.clock(),
    });
    await grantCredits(app.db, {
      userId: foreign.user.id,
      source: 'paddle',
      planId: 'credits_200',
      amount: 10,
      expiresAt: null,
      externalRef: 'txn_eur_1',
      amountPaid: '5.00',
      currency: 'EUR',
      now: app.clock(),
    });
    // The buyer's free trials go first: use them up on the built-in engine (earning and costing nothing).
    for (let i = 0; i < app.config.freeTrialsLimit; i++)
      await ledgerTryOn(app, buyer.user.id, { engine: 'local', made: { engine: 'local', costMicros: 0 } });
    for (let i = 0; i < app.config.freeTrialsLimit; i++)
      await ledgerTryOn(app, foreign.user.id, { engine: 'local', made: { engine: 'local', costMicros: 0 } });
    const replicate = { engine: 'replicate', made: { engine: 'replicate', costMicros: 15_000 } };
    await ledgerTryOn(app, buyer.user.id, replicate);
    await ledgerTryOn(app, buyer.user.id, replicate);
    // A whole outfit asked of vertex-tryon, made by it: two units, two images.
    await ledgerTryOn(app, buyer.user.id, {
      engine: 'vertex-tryon',
      units: 2,
      made: { engine: 'vertex-tryon', costMicros: 120_000 },
    });
    // Failed over from vertex-tryon to replicate: counted there.
    await ledgerTryOn(app, buyer.user.id, {
      engine: 'vertex-tryon',
      made: { engine: 'replicate', costMicros: 15_000 },
    });
    // A free trial: costs, earns nothing.
    await ledgerTryOn(app, trial.user.id, replicate);
    // Bought in EUR: not counted as revenue.
    await ledgerTryOn(app, foreign.user.id, { engine: 'cog', made: { engine: 'cog', costMicros: 0 } });
    // Refunded: neither earns nor costs.
    await ledgerTryOn(app, buyer.user.id, { engine: 'replicate', fail: 'ENGINE_FAILED' });

    let op = await signInByEmail(app, mailer, operatorEmail);
    const get = async () =>
      AdminStatsResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/admin/stats?days=3', headers: { cookie: op.cookie } })).json(),
      );
    const stats = await get();
    expect(stats.currency).toBe('USD');
    const today = stats.days.at(-1)!;
    expect(today.date).toBe('2026-08-03');
    expect(today.economics).toEqual([
      { engine: 'cog', tryons: 1, revenue: '0.0000', cost: '0.0000', margin: '0.0000' },
      { engine: 'local', tryons: 4, revenue: '0.0000', cost: '0.0000', margin: '0.0000' },
      { engine: 'replicate', tryons: 4, revenue: '0.3000', cost: '0.0600', margin: '0.2400' },
      { engine: 'vertex-tryon', tryons: 2, revenue: '0.2000', cost: '0.1200', margin: '0.0800' },
    ]);
    expect(today.tryons.find((e) => e.engine === 'vertex-tryon')).toMatchObject({ succeeded: 1, failovers: 1 });
    expect(stats.prices).toEqual([
      { engine: 'local', per_image: '0.0000', per_extra_garment: '0.0000', source: 'own-hardware', read_on: null },
      {
        engine: 'replicate',
        per_image: '0.0200',
        per_extra_garment: '0.0100',
        source: 'configured',
        read_on: '2026-11-20',
      },
    ]);

    // Two days on, the day is closed and stored: the same figures come back from storage.
    t.clock.advance(2 * DAY_MS);
    op = await signInByEmail(app, mailer, operatorEmail);
    const later = await get();
    expect(later.days.find((d) => d.date === '2026-08-03')!.economics).toEqual(today.economics);
    const stored = await app.db.selectFrom('admin_daily_stats').select('day').where('day', '=', '2026-08-03').execute();
    expect(stored).toHaveLength(1);
  });
});
