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
  });
});
