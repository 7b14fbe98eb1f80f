/**
 * The `requireUser` pre-handler: a route that needs the session's user answers 401 UNAUTHORIZED
 * when that user no longer exists, and its other refusals keep their order.
 */
import { beforeAll, describe, it } from 'vitest';
import { sql } from 'kysely';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { jpeg, multipart, png } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';

describe('requireUser', () => {
  const make = testApps('sqlite');
  let t: TestApp;
  let cookie: string;
  let userId: string;
  beforeAll(async () => {
    // SQLite only: the user row is removed under a live session, which the foreign keys forbid otherwise.
    t = await make();
    const s = await signIn(t.app);
    cookie = s.cookie;
    userId = s.user.id;
    await sql`pragma foreign_keys = off`.execute(t.app.db);
    await t.app.db.deleteFrom('users').where('id', '=', userId).execute();
    await sql`pragma foreign_keys = on`.execute(t.app.db);
  });

  it('answers 401 UNAUTHORIZED on each route that needs the user', async () => {
    const upload = multipart({
      userImage: { data: await jpeg(64, 96, '#c08060') },
      clothingImage: { data: await png(64, 64, '#2040ff'), contentType: 'image/png' },
      category: 'upper_body',
      userId,
    });
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: `/api/auth/user/${userId}`, headers: { cookie } }),
      t.app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie } }),
      t.app.inject({
        method: 'POST',
        url: '/api/billing/demo/checkout',
        headers: { 'content-type': 'application/json', cookie },
        payload: { planId: 'monthly' },
      }),
      t.app.inject({ method: 'POST', url: '/api/billing/demo/cancel', headers: { cookie } }),
      t.app.inject({
        method: 'POST',
        url: '/api/process-image',
        headers: { ...upload.headers, cookie },
        payload: upload.payload,
      }),
    ]);
    for (const res of answers) {
      expectApiError(res, 401, 'UNAUTHORIZED', { label: res.body });
    }
  });

  it('still refuses another user’s id, a bad plan and a bad category first', async () => {
    const other = await t.app.inject({ method: 'GET', url: '/api/auth/user/someone-else', headers: { cookie } });
    expectApiError(other, 403, 'FORBIDDEN');
    const plan = await t.app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { 'content-type': 'application/json', cookie },
      payload: { planId: 'lifetime' },
    });
    expectApiError(plan, 400, 'INVALID_PLAN');
    const upload = multipart({
      userImage: { data: await jpeg(64, 96, '#c08060') },
      clothingImage: { data: await png(64, 64, '#2040ff'), contentType: 'image/png' },
      category: 'hats',
      userId,
    });
    const category = await t.app.inject({
      method: 'POST',
      url: '/api/process-image',
      headers: { ...upload.headers, cookie },
      payload: upload.payload,
    });
    expectApiError(category, 400, 'INVALID_CATEGORY');
  });
});
