/**
 * The Paddle webhook inside the whole app (buildApp + app.inject), configured as in production
 * with PADDLE_* variables: what the shopper's user object shows after Paddle's notifications.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';
import {
  adjustmentData,
  envelope,
  paddleId,
  signedHeaders,
  subscriptionData,
  transactionData,
} from '@aidressup/paddle-stand-in';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';

const SECRET = 'pdl_ntfset_01apptest_secret_value_0000';
const PADDLE_ENV = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_5f1b2c3d4e5f6a7b8c9d0e1f2a3',
  PADDLE_WEBHOOK_SECRET: SECRET,
  PADDLE_PRICE_WEEKLY: 'pri_01apptestweekly00000000000',
  PADDLE_PRICE_MONTHLY: 'pri_01apptestmonthly0000000000',
  PADDLE_PRICE_YEARLY: 'pri_01apptestyearly00000000000',
  PADDLE_PRICE_CREDITS_200: 'pri_01apptestcredits200000000',
};
const DAY = 24 * 60 * 60 * 1000;

describe.each(DATABASE_KINDS)('Paddle billing in the app (%s)', (kind) => {
  const make = testApps(kind, { env: PADDLE_ENV });
  let t: TestApp;
  beforeAll(async () => {
    t = await make();
  });

  /** Posts a notification signed at the app's clock, as Paddle would at that moment. */
  function post(body: unknown, signedAt: Date = t.clock.now) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: signedHeaders(SECRET, raw, signedAt.getTime()),
    });
  }
  async function userOf(s: { cookie: string; user: { id: string } }): Promise<User> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/auth/user/${s.user.id}`,
      headers: { cookie: s.cookie },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { user: User }).user;
  }
  const period = (days: number) => ({
    starts_at: t.clock.now.toISOString(),
    ends_at: new Date(t.clock.now.getTime() + days * DAY).toISOString(),
  });

  it('a monthly subscription makes the shopper a subscriber with 50 credits; cancelling ends it', async () => {
    const s = await signIn(t.app);
    expect(s.user.segment).toBe('trial');
    const sub = paddleId('sub');
    const p = period(30);
    const custom = { userId: s.user.id, planId: 'monthly', credits: 50 };
    const txn = envelope(
      'transaction.completed',
      transactionData({
        price: { id: PADDLE_ENV.PADDLE_PRICE_MONTHLY, amount: '999', description: 'Monthly Pro', interval: 'month' },
        customData: custom,
        subscriptionId: sub,
        billingPeriod: p,
        at: t.clock.now,
      }),
      t.clock.now,
    );
    const created = envelope(
      'subscription.created',
      subscriptionData({
        id: sub,
        price: { id: PADDLE_ENV.PADDLE_PRICE_MONTHLY, amount: '999', description: 'Monthly Pro', interval: 'month' },
        status: 'active',
        customData: custom,
        period: p,
        transactionId: txn.data.id,
        updatedAt: t.clock.now,
      }),
      t.clock.now,
    );
    expect((await post(created)).statusCode).toBe(200);
    expect((await post(txn)).statusCode).toBe(200);

    let user = await userOf(s);
    expect(user.credits).toBe(50);
    expect(user.segment).toBe('subscriber');
    expect(user.subscription).toEqual({
      planId: 'monthly',
      status: 'active',
      currentPeriodEnd: new Date(p.ends_at).toISOString(),
    });

    t.clock.advance(60_000);
    const canceled = envelope(
      'subscription.canceled',
      subscriptionData({
        id: sub,
        price: { id: PADDLE_ENV.PADDLE_PRICE_MONTHLY, amount: '999', description: 'Monthly Pro', interval: 'month' },
        status: 'canceled',
        customData: custom,
        period: null,
        updatedAt: t.clock.now,
      }),
      t.clock.now,
    );
    expect((await post(canceled)).statusCode).toBe(200);
    user = await userOf(s);
    expect(user.subscription).toEqual({ planId: 'monthly', status: 'canceled', currentPeriodEnd: null });
    expect(user.segment).toBe('customer');
    expect(user.credits).toBe(50); // credits already paid for stay until their period ends

    // After the paid period, the subscription's credits have expired.
    t.clock.advance(31 * DAY);
    expect((await userOf(s)).credits).toBe(0);
  });

  it('the 200-credit pack makes the shopper a customer; an approved refund takes the credits back', async () => {
    const s = await signIn(t.app);
    const txn = envelope(
      'transaction.completed',
      transactionData({
        price: { id: PADDLE_ENV.PADDLE_PRICE_CREDITS_200, amount: '3999', description: '200 Credits', interval: null },
        customData: { userId: s.user.id, planId: 'credits_200', credits: 200 },
        at: t.clock.now,
      }),
      t.clock.now,
    );
    expect((await post(txn)).statusCode).toBe(200);
    let user = await userOf(s);
    expect(user).toMatchObject({ credits: 200, segment: 'customer' });
    expect(user.subscription).toBeUndefined();

    const refund = envelope(
      'adjustment.updated',
      adjustmentData({
        transactionId: txn.data.id,
        action: 'refund',
        status: 'approved',
        amount: '3999',
        at: t.clock.now,
      }),
      t.clock.now,
    );
    expect((await post(refund)).statusCode).toBe(200);
    user = await userOf(s);
    expect(user.credits).toBe(0);
  });

  it('checks the signature window against the server clock', async () => {
    const s = await signIn(t.app);
    const txn = envelope(
      'transaction.completed',
      transactionData({
        price: { id: PADDLE_ENV.PADDLE_PRICE_CREDITS_200, amount: '3999', description: '200 Credits', interval: null },
        customData: { userId: s.user.id },
        at: t.clock.now,
      }),
      t.clock.now,
    );
    const stale = await post(txn, new Date(t.clock.now.getTime() - 10 * 60_000));
    expectApiError(stale, 400, 'INVALID_SIGNATURE');
    expect((await userOf(s)).credits).toBe(0);
  });

  it('accepts notifications larger than the API-wide body limit', async () => {
    const s = await signIn(t.app);
    const data = transactionData({
      price: { id: PADDLE_ENV.PADDLE_PRICE_WEEKLY, amount: '599', description: 'Weekly Pass', interval: 'week' },
      customData: { userId: s.user.id },
      subscriptionId: paddleId('sub'),
      billingPeriod: period(7),
      at: t.clock.now,
    });
    const big = { ...data, details: { ...data.details, notes: 'x'.repeat(200 * 1024) } };
    const res = await post(envelope('transaction.completed', big, t.clock.now));
    expect(res.statusCode).toBe(200);
    expect((await userOf(s)).credits).toBe(20);
  });

  it('tells the page to use Paddle, with the client token and each plan price, and nothing secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    const config = res.json() as { billing: unknown; plans: { id: string; paddlePriceId: string | null }[] };
    expect(config.billing).toEqual({
      provider: 'paddle',
      environment: 'sandbox',
      clientToken: PADDLE_ENV.PADDLE_CLIENT_TOKEN,
    });
    expect(Object.fromEntries(config.plans.map((p) => [p.id, p.paddlePriceId]))).toEqual({
      weekly: PADDLE_ENV.PADDLE_PRICE_WEEKLY,
      monthly: PADDLE_ENV.PADDLE_PRICE_MONTHLY,
      yearly: PADDLE_ENV.PADDLE_PRICE_YEARLY,
      credits_200: PADDLE_ENV.PADDLE_PRICE_CREDITS_200,
    });
    expect(res.body).not.toContain(SECRET);
  });

  it('refuses demo checkout: only a verified payment grants credits', async () => {
    const s = await signIn(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie: s.cookie },
      payload: { planId: 'credits_200' },
    });
    expectApiError(res, 409, 'BILLING_DISABLED');
    expect((await userOf(s)).credits).toBe(0);
  });

  it('refuses an unsigned notification with the contract error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: '{"event_id":"evt_1"}',
      headers: { 'content-type': 'application/json' },
    });
    expectApiError(res, 400, 'INVALID_SIGNATURE', 'Invalid signature.');
  });
});

describe('Paddle webhook with demo billing', () => {
  const make = testApps('sqlite');
  it('is not served at all', async () => {
    const t = await make();
    const raw = JSON.stringify(envelope('transaction.completed', {}));
    const res = await t.app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: signedHeaders(SECRET, raw, t.clock.now.getTime()),
    });
    expect(res.statusCode).toBe(404);
  });
});
