import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { grantCredits } from '../ledger/ledger.js';
import { newResultName } from '../tryon/results.js';
import { runRetention } from './retention.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

describe.each(DATABASE_KINDS)('retention on %s', (kind) => {
  const make = testApps(kind);

  it('deletes uploads after 30 minutes, results after 30 days and records after 7 years, in batches', async () => {
    // The clock starts at the real time so stored files' modification times line up with it.
    const t = await make({ start: new Date() });
    const { app, clock } = t;
    const t0 = clock.now;
    const deps = { db: app.db, storage: app.storage, clock: app.clock };

    const { cookie, user } = await signIn(app);
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await postMultipart(
        app,
        '/api/process-image',
        {
          userImage: { data: await jpeg() },
          clothingImage: { data: await png() },
          category: 'upper_body',
          userId: user.id,
        },
        cookie,
      );
      urls.push(res.json().imageUrl);
    }
    await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'weekly' },
    });
    await grantCredits(app.db, {
      userId: user.id,
      source: 'admin',
      planId: null,
      amount: 5,
      expiresAt: null,
      externalRef: 'admin_keep',
      now: t0,
    });
    await app.storage.put('uploads/stray-upload.jpg', await jpeg(), 'image/jpeg');
    const orphan = newResultName('.png');
    await app.storage.put(`results/${orphan}`, await png(), 'image/png');
    await app.db
      .insertInto('billing_events')
      .values({
        id: 'be1',
        provider: 'paddle',
        event_id: 'evt_1',
        event_type: 'transaction.completed',
        occurred_at: t0.toISOString(),
        payload: '{}',
        processed_at: t0.toISOString(),
        created_at: t0.toISOString(),
      })
      .execute();

    clock.now = new Date(t0.getTime() + 10 * MIN);
    let report = await runRetention(deps, { batchSize: 1 });
    expect(report.strayUploadsDeleted).toBe(0);
    expect(await app.storage.get('uploads/stray-upload.jpg')).not.toBeNull();

    clock.now = new Date(t0.getTime() + 31 * MIN);
    report = await runRetention(deps, { batchSize: 1 });
    expect(report).toMatchObject({ strayUploadsDeleted: 1, resultsDeleted: 0, orphanResultFilesDeleted: 0 });
    expect(await app.storage.get('uploads/stray-upload.jpg')).toBeNull();
    expect((await app.inject({ method: 'GET', url: urls[0]! })).statusCode).toBe(200);

    clock.now = new Date(t0.getTime() + 29 * DAY);
    // The weekly plan's credits expired after 7 days.
    expect(await runRetention(deps, { batchSize: 1 })).toMatchObject({ resultsDeleted: 0, grantsExpired: 1 });

    clock.now = new Date(t0.getTime() + 31 * DAY);
    report = await runRetention(deps, { batchSize: 1 });
    // Batches of one still get through everything due.
    expect(report).toMatchObject({ resultsDeleted: 2, orphanResultFilesDeleted: 1, grantsExpired: 0 });
    for (const url of urls) {
      expect(await app.storage.get(`results/${url.split('/').pop()}`)).toBeNull();
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect(await app.storage.get(`results/${orphan}`)).toBeNull();
    const rows = await app.db.selectFrom('tryons').select(['result_name', 'status']).execute();
    expect(rows).toEqual([
      { result_name: null, status: 'succeeded' },
      { result_name: null, status: 'succeeded' },
    ]);
    // Records are kept well past the results...
    clock.now = new Date(t0.getTime() + 6 * 365 * DAY);
    report = await runRetention(deps);
    expect(report).toMatchObject({
      creditEventsDeleted: 0,
      billingEventsDeleted: 0,
      grantsDeleted: 0,
      tryonsDeleted: 0,
    });
    const types = (await app.db.selectFrom('credit_events').select('type').execute()).map((e) => e.type).sort();
    expect(types).toEqual(['expire', 'grant', 'grant', 'trial_spend', 'trial_spend']);

    // ...and deleted after 7 years (the last event, the expiry, is from day 29), except a grant that still holds credits.
    clock.now = new Date(t0.getTime() + (7 * 365 + 40) * DAY);
    report = await runRetention(deps, { batchSize: 2 });
    expect(report).toMatchObject({
      creditEventsDeleted: 5,
      billingEventsDeleted: 1,
      tryonsDeleted: 2,
      grantsDeleted: 1,
    });
    const grants = await app.db.selectFrom('credit_grants').select(['external_ref', 'remaining']).execute();
    expect(grants).toEqual([{ external_ref: 'admin_keep', remaining: 5 }]);
    expect((await app.db.selectFrom('users').select('id').execute()).map((u) => u.id)).toEqual([user.id]);

    // Running again changes nothing.
    const again = await runRetention(deps);
    expect(Object.values(again).every((v) => v === 0)).toBe(true);
  });
});
