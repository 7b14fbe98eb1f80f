/**
 * A merchant's credits live in a ledger account of its own (a bare user that never signs in). It
 * is no shopper: the operator's user search does not find it (the merchant has its own page) and
 * the statistics do not count it as a new user.
 */
import { describe, expect, it } from 'vitest';
import {
  AdminMerchantCreatedResponseSchema,
  AdminStatsResponseSchema,
  AdminUserSearchResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps } from '../../test/app.js';
import { memoryMailer, newEmail, signInByEmail } from '../../test/operator.js';
import { migration as statsWithoutMerchants } from '../../db/migrations/014-stats-without-merchants.js';

describe.each(DATABASE_KINDS)('merchant ledger accounts on %s', (kind) => {
  const newApp = testApps(kind);

  it('stay out of the user search and of the new users in the statistics', async () => {
    const mailer = memoryMailer();
    const email = newEmail('operator');
    const { app } = await newApp({ mailer, env: { ADMIN_EMAILS: email } });
    const operator = await signInByEmail(app, mailer, email);
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: operator.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const newUsersToday = async () =>
      AdminStatsResponseSchema.parse(await get('/api/admin/stats?days=1')).days[0]!.new_users;

    // The operator and one shopper so far.
    const shopper = await signIn(app);
    expect(await newUsersToday()).toBe(2);

    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/merchants',
      payload: { name: 'Shop Example', allowedOrigins: ['https://shop.example'], credits: 5 },
      headers: { cookie: operator.cookie },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { merchant } = AdminMerchantCreatedResponseSchema.parse(created.json());
    const account = await app.db
      .selectFrom('merchants')
      .select('user_id')
      .where('id', '=', merchant.id)
      .executeTakeFirstOrThrow();

    expect(await newUsersToday()).toBe(2);
    const search = (query: string) =>
      get(`/api/admin/users?query=${encodeURIComponent(query)}`).then(
        (body) => AdminUserSearchResponseSchema.parse(body).items,
      );
    expect(await search(account.user_id)).toEqual([]);
    expect(await search(account.user_id.slice(0, 6))).not.toContainEqual(
      expect.objectContaining({ id: account.user_id }),
    );
    // Shoppers are still found.
    expect((await search(shopper.user.id)).map((u) => u.id)).toEqual([shopper.user.id]);

    // Nor does any user route open it: the merchant's own routes hold its credits.
    const asOperator = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: { cookie: operator.cookie }, ...(payload ? { payload } : {}) });
    for (const [method, url, payload] of [
      ['GET', `/api/admin/users/${account.user_id}`, undefined],
      ['POST', `/api/admin/users/${account.user_id}/credits`, { amount: 5, reason: 'test' }],
      ['POST', `/api/admin/users/${account.user_id}/block`, { reason: 'test' }],
      ['POST', `/api/admin/users/${account.user_id}/unblock`, { reason: 'test' }],
    ] as const) {
      const res = await asOperator(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await asOperator('GET', `/api/admin/users/${shopper.user.id}`)).statusCode).toBe(200);
  });

  it('are left out of statistics stored before they were: migration 014 counts the new users again', async () => {
    const mailer = memoryMailer();
    const email = newEmail('operator');
    const { app } = await newApp({ mailer, env: { ADMIN_EMAILS: email } });
    const operator = await signInByEmail(app, mailer, email);
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/merchants',
      payload: { name: 'Shop Old', allowedOrigins: ['https://old.example'], credits: 1 },
      headers: { cookie: operator.cookie },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { merchant } = AdminMerchantCreatedResponseSchema.parse(created.json());
    const { user_id: merchantUser } = await app.db
      .selectFrom('merchants')
      .select('user_id')
      .where('id', '=', merchant.id)
      .executeTakeFirstOrThrow();
    // A closed day stored before merchants were left out: two shoppers and the merchant's account counted as 3.
    const day = '2026-04-20';
    const shoppers = [await signIn(app), await signIn(app)].map((s) => s.user.id);
    for (const id of [...shoppers, merchantUser])
      await app.db
        .updateTable('users')
        .set({ created_at: `${day}T08:00:00.000Z` })
        .where('id', '=', id)
        .execute();
    const stored = {
      date: day,
      tryons: [],
      new_users: 3,
      purchases: [],
      reports: { created: 0, refunded: 0, rejected: 0 },
    };
    await app.db
      .insertInto('admin_daily_stats')
      .values({ day, data: JSON.stringify(stored), computed_at: `${day}T23:59:00.000Z` })
      .execute();

    await statsWithoutMerchants.up(app.db);
    const row = await app.db
      .selectFrom('admin_daily_stats')
      .select('data')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.data)).toEqual({ ...stored, new_users: 2 });
  });
});
