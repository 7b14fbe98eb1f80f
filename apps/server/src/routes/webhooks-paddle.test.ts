/**
 * POST /api/webhooks/paddle end to end: notifications shaped exactly like Paddle Billing's,
 * signed with a test secret, on SQLite and PostgreSQL.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLANS, type PlanId } from '@aidressup/contract';
import type { PaddleConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { balance, reserveTryOn } from '../ledger/ledger.js';
import { createUser, findUserById } from '../repositories/users.js';
import { DATABASE_KINDS, openTestDatabase } from '../test/databases.js';
import { expectApiError } from '../test/api-error.js';
import {
  adjustmentData,
  envelope,
  paddleId,
  signedHeaders,
  subscriptionData,
  transactionData,
  type PriceInfo,
} from '@aidressup/paddle-stand-in';
import { signatureHeader } from '../billing/paddle/signature.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { paddleWebhookRoutes } from './webhooks-paddle.js';

const SECRET = 'pdl_ntfset_01test_webhook_secret_for_tests';
const PADDLE: PaddleConfig = {
  environment: 'sandbox',
  clientToken: 'test_0123456789abcdef0123456789a',
  webhookSecret: SECRET,
  apiKey: undefined,
  apiBaseUrl: 'https://sandbox-api.paddle.com',
  prices: {
    weekly: 'pri_01testweekly0000000000000',
    monthly: 'pri_01testmonthly000000000000',
    yearly: 'pri_01testyearly0000000000000',
    credits_200: 'pri_01testcredits2000000000000',
  },
};
const AMOUNTS: Record<PlanId, string> = { weekly: '599', monthly: '999', yearly: '1999', credits_200: '3999' };
const INTERVAL: Record<PlanId, PriceInfo['interval']> = {
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  credits_200: null,
};
const priceOf = (plan: PlanId): PriceInfo => ({
  id: PADDLE.prices[plan],
  amount: AMOUNTS[plan],
  description: PLANS.find((p) => p.id === plan)!.name,
  interval: INTERVAL[plan],
});
const DAY = 24 * 60 * 60 * 1000;

function periodFrom(start: Date, days: number) {
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + days * DAY).toISOString() };
}

describe.each(DATABASE_KINDS)('POST /api/webhooks/paddle (%s)', (kind) => {
  let handle: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    app = Fastify({ logger: false });
    await app.register(paddleWebhookRoutes, { db: handle.db, paddle: PADDLE });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await handle?.close();
  });

  let userId: string;
  beforeEach(async () => {
    const user = await createUser(handle.db, {
      deviceId: `dev-${paddleId('x')}`,
      deviceInfo: { browser: 'Chrome', os: 'Linux' },
      signupIpHash: null,
      freeTrialsUsed: 0,
      freeTrialsWithheld: null,
      now: new Date(),
    });
    userId = user.id;
  });

  function post(body: unknown, headers?: Record<string, string>) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: headers ?? signedHeaders(SECRET, raw),
    });
  }
  const credits = () => balance(handle.db, userId);
  const eventCount = async (eventId: string) =>
    (await handle.db.selectFrom('billing_events').select('id').where('event_id', '=', eventId).execute()).length;
  const grantsOf = (uid: string) =>
    handle.db
      .selectFrom('credit_grants')
      .selectAll()
      .where('user_id', '=', uid)
      .orderBy('created_at')
      .orderBy('external_ref')
      .execute();

  function purchase(
    plan: PlanId,
    o: {
      userId?: string;
      subscriptionId?: string | null;
      period?: { starts_at: string; ends_at: string } | null;
      txnId?: string;
    } = {},
  ) {
    const subscription = INTERVAL[plan] !== null;
    const subscriptionId = o.subscriptionId === undefined ? (subscription ? paddleId('sub') : null) : o.subscriptionId;
    const period =
      o.period === undefined
        ? subscription
          ? periodFrom(new Date(), PLANS.find((p) => p.id === plan)!.validityDays!)
          : null
        : o.period;
    return envelope(
      'transaction.completed',
      transactionData({
        ...(o.txnId ? { id: o.txnId } : {}),
        price: priceOf(plan),
        customData: { userId: o.userId ?? userId, planId: plan, credits: PLANS.find((p) => p.id === plan)!.credits },
        subscriptionId,
        billingPeriod: period,
      }),
    );
  }

  describe('transaction.completed', () => {
    it.each([
      ['weekly', 20, 7],
      ['monthly', 50, 30],
      ['yearly', 100, 365],
    ] as const)(
      'grants the %s plan: %i credits expiring at the end of the billing period',
      async (plan, amount, days) => {
        const period = periodFrom(new Date(), days);
        const n = purchase(plan, { period });
        const res = await post(n);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ success: true, received: true, duplicate: false });
        expect(await credits()).toBe(amount);
        const [grant] = await grantsOf(userId);
        expect(grant).toMatchObject({
          source: 'paddle',
          plan_id: plan,
          amount,
          remaining: amount,
          external_ref: n.data.id,
        });
        expect(grant!.expires_at).toBe(new Date(period.ends_at).toISOString());
        // What was paid (Paddle's grand total, in cents) and who paid, for the history and the portal.
        const paid = (Number(n.data.details?.totals?.grand_total) / 100).toFixed(2);
        expect(grant).toMatchObject({ amount_paid: paid, currency: 'USD' });
        const user = await findUserById(handle.db, userId);
        expect(user).toMatchObject({ paddle_customer_id: n.data.customer_id });
        expect(user).toMatchObject({
          subscription_id: n.data.subscription_id,
          subscription_status: 'active',
          subscription_plan_id: plan,
        });
        expect(user!.subscription_period_end).toBe(new Date(period.ends_at).toISOString());
      },
    );

    it('grants the 200-credit pack, never expiring, and records no subscription', async () => {
      const n = purchase('credits_200');
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(200);
      const [grant] = await grantsOf(userId);
      expect(grant).toMatchObject({ plan_id: 'credits_200', amount: 200, expires_at: null, external_ref: n.data.id });
      expect((await findUserById(handle.db, userId))!.subscription_id).toBeNull();
      expect(await eventCount(n.event_id)).toBe(1);
    });

    it('takes the plan from the price id, never from custom_data', async () => {
      const n = purchase('weekly');
      n.data.custom_data = { userId, planId: 'credits_200', credits: 100000 };
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(20);
      expect((await grantsOf(userId))[0]!.plan_id).toBe('weekly');
    });

    it('ignores a replay of the same event', async () => {
      const n = purchase('monthly');
      const raw = JSON.stringify(n);
      expect((await post(raw)).json()).toMatchObject({ duplicate: false });
      const again = await post(raw, signedHeaders(SECRET, raw));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ success: true, duplicate: true });
      expect(await credits()).toBe(50);
      expect(await eventCount(n.event_id)).toBe(1);
      expect(await grantsOf(userId)).toHaveLength(1);
    });

    it('grants a transaction once even when it arrives again under a new event id', async () => {
      const first = purchase('credits_200');
      const second = { ...first, event_id: paddleId('evt'), notification_id: paddleId('ntf') };
      expect((await post(first)).statusCode).toBe(200);
      const res = await post(second);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ duplicate: false });
      expect(await credits()).toBe(200);
      expect(await grantsOf(userId)).toHaveLength(1);
      expect(await eventCount(second.event_id)).toBe(1); // recorded, but granted nothing more
    });

    it('grants once when the same notification is delivered twice at the same moment', async () => {
      const raw = JSON.stringify(purchase('yearly'));
      const [a, b] = await Promise.all([post(raw), post(raw)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect([a.json().duplicate, b.json().duplicate].sort()).toEqual([false, true]);
      expect(await credits()).toBe(100);
    });

    it('grants once when the same transaction arrives under two event ids at the same moment', async () => {
      const first = purchase('credits_200');
      const second = { ...first, event_id: paddleId('evt'), notification_id: paddleId('ntf') };
      const [a, b] = await Promise.all([post(first), post(second)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(await credits()).toBe(200);
      expect(await grantsOf(userId)).toHaveLength(1);
    });

    it('acknowledges an unknown price and grants nothing', async () => {
      const n = envelope(
        'transaction.completed',
        transactionData({
          price: {
            id: 'pri_01someotherproduct00000000',
            amount: '4999',
            description: 'Something else',
            interval: null,
          },
          customData: { userId, planId: 'credits_200', credits: 200 },
        }),
      );
      const res = await post(n);
      expect(res.statusCode).toBe(200);
      expect(await credits()).toBe(0);
      expect(await grantsOf(userId)).toHaveLength(0);
      expect(await eventCount(n.event_id)).toBe(1);
    });

    it('acknowledges a payment for a user that does not exist and grants nothing', async () => {
      const n = purchase('credits_200', { userId: 'no-such-user-000000000' });
      const res = await post(n);
      expect(res.statusCode).toBe(200);
      const count = await handle.db
        .selectFrom('credit_grants')
        .select('id')
        .where('external_ref', '=', n.data.id)
        .execute();
      expect(count).toHaveLength(0);
    });

    it('grants nothing usable for a billing period that is already over', async () => {
      const start = new Date(Date.now() - 40 * DAY);
      const n = purchase('monthly', { period: periodFrom(start, 30) });
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(0);
    });

    it('grants the credits of every unit bought', async () => {
      const n = envelope(
        'transaction.completed',
        transactionData({ price: priceOf('credits_200'), quantity: 2, customData: { userId } }),
      );
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(400);
    });

    it('grants a purchase made before an email sign-in to the account the buyer was merged into', async () => {
      const account = await createUser(handle.db, {
        deviceId: null,
        deviceInfo: {},
        signupIpHash: null,
        freeTrialsUsed: 0,
        freeTrialsWithheld: null,
        now: new Date(),
      });
      await handle.db.updateTable('users').set({ merged_into: account.id }).where('id', '=', userId).execute();
      expect((await post(purchase('credits_200'))).statusCode).toBe(200);
      expect(await credits()).toBe(0);
      expect(await balance(handle.db, account.id)).toBe(200);
    });

    it('grants each configured item of a transaction with several, and a refund takes all of them back', async () => {
      const base = transactionData({
        price: priceOf('credits_200'),
        customData: { userId },
        subscriptionId: paddleId('sub'),
        billingPeriod: periodFrom(new Date(), 7),
      });
      const weekly = transactionData({ price: priceOf('weekly') });
      const other = transactionData({
        price: { id: 'pri_01notoursatall000000000000', amount: '100', description: 'Other', interval: null },
      });
      const n = envelope('transaction.completed', { ...base, items: [...base.items, ...weekly.items, ...other.items] });
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(220);
      const grants = await grantsOf(userId);
      expect(grants.map((g) => [g.plan_id, g.external_ref, g.expires_at === null])).toEqual([
        ['credits_200', n.data.id, true],
        ['weekly', `${n.data.id}#2`, false],
      ]);
      const refund = envelope(
        'adjustment.updated',
        adjustmentData({ transactionId: n.data.id, action: 'refund', status: 'approved', amount: '4598' }),
      );
      expect((await post(refund)).statusCode).toBe(200);
      expect(await credits()).toBe(0);
    });

    it('a transaction whose id looks like a LIKE pattern does not reach other transactions’ grants', async () => {
      // Two items: grants `txn_…a` and `txn_…a#2`; an unescaped `txn_01likepattern%#%` would match the second.
      const base = transactionData({
        id: 'txn_01likepatternaaaaaaaaaaaa',
        price: priceOf('credits_200'),
        customData: { userId },
      });
      const more = transactionData({ price: priceOf('credits_200') });
      await post(envelope('transaction.completed', { ...base, items: [...base.items, ...more.items] }));
      expect(await credits()).toBe(400);
      for (const pattern of ['txn_01likepattern%', 'txn_01likepatternaaaaaaaaaaa_']) {
        const refund = envelope(
          'adjustment.updated',
          adjustmentData({ transactionId: pattern, action: 'refund', status: 'approved', amount: '3999' }),
        );
        expect((await post(refund)).statusCode).toBe(200);
      }
      expect(await credits()).toBe(400);
    });

    it('grants each renewal of a subscription for its own period', async () => {
      const subscriptionId = paddleId('sub');
      const now = Date.now();
      const p1 = periodFrom(new Date(now - 29 * DAY), 30); // ends in one day
      const p2 = periodFrom(new Date(p1.ends_at), 30);
      expect((await post(purchase('monthly', { subscriptionId, period: p1 }))).statusCode).toBe(200);
      expect(await credits()).toBe(50);
      // Paddle's renewal: origin subscription_recurring; we find the user by the subscription.
      const renewal = envelope(
        'transaction.completed',
        transactionData({
          price: priceOf('monthly'),
          subscriptionId,
          billingPeriod: p2,
          customData: null,
          origin: 'subscription_recurring',
        }),
      );
      expect((await post(renewal)).statusCode).toBe(200);
      expect(await credits()).toBe(100);
      const grants = await grantsOf(userId);
      expect(grants.map((g) => g.expires_at)).toEqual([
        new Date(p1.ends_at).toISOString(),
        new Date(p2.ends_at).toISOString(),
      ]);
      // After the first period ends only the renewal's credits remain.
      expect(await balance(handle.db, userId, new Date(new Date(p1.ends_at).getTime() + 1000))).toBe(50);
      expect((await findUserById(handle.db, userId))!.subscription_period_end).toBe(new Date(p2.ends_at).toISOString());
    });
  });

  describe('signature', () => {
    it('refuses a wrong secret and grants nothing', async () => {
      const n = purchase('credits_200');
      const raw = JSON.stringify(n);
      const res = await post(raw, signedHeaders('not-the-secret', raw));
      expectApiError(res, 400, 'INVALID_SIGNATURE', 'Invalid signature.');
      expect(await credits()).toBe(0);
      expect(await eventCount(n.event_id)).toBe(0);
    });

    it('refuses a tampered body', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const headers = signedHeaders(SECRET, raw);
      const tampered = raw.replace(PADDLE.prices.weekly, PADDLE.prices.yearly);
      expect(tampered).not.toBe(raw);
      const res = await post(tampered, headers);
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('refuses a body re-serialised with different whitespace', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const res = await post(JSON.stringify(n, null, 2), signedHeaders(SECRET, raw));
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('refuses a stale timestamp (older than 5 minutes)', async () => {
      const n = purchase('weekly');
      const raw = JSON.stringify(n);
      const res = await post(raw, {
        'content-type': 'application/json',
        'paddle-signature': signatureHeader(SECRET, raw, Date.now() / 1000 - 6 * 60),
      });
      expect(res.statusCode).toBe(400);
      expect(await credits()).toBe(0);
      // … but one signed 4 minutes ago is fine.
      const ok = await post(raw, {
        'content-type': 'application/json',
        'paddle-signature': signatureHeader(SECRET, raw, Date.now() / 1000 - 4 * 60),
      });
      expect(ok.statusCode).toBe(200);
      expect(await credits()).toBe(20);
    });

    it('refuses a missing or garbled header', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      expect((await post(raw, { 'content-type': 'application/json' })).statusCode).toBe(400);
      expect(
        (await post(raw, { 'content-type': 'application/json', 'paddle-signature': 'ts=abc;h1=zz' })).statusCode,
      ).toBe(400);
      expect(await credits()).toBe(0);
    });

    it('accepts either secret during a rotation (several h1 values)', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      const good = signedHeaders(SECRET, raw)['paddle-signature']!;
      const old = signedHeaders('previous-secret', raw)['paddle-signature']!;
      const ts = good.split(';')[0]!;
      const header = `${ts};${old.split(';')[1]!};${good.split(';')[1]!}`;
      expect((await post(raw, { 'content-type': 'application/json', 'paddle-signature': header })).statusCode).toBe(
        200,
      );
      expect(await credits()).toBe(20);
    });

    it('takes the raw body whatever the content type says', async () => {
      const raw = JSON.stringify(purchase('weekly'));
      const res = await post(raw, { ...signedHeaders(SECRET, raw), 'content-type': 'text/plain' });
      expect(res.statusCode).toBe(200);
      expect(await credits()).toBe(20);
    });

    it('refuses a correctly signed body that is not a notification', async () => {
      for (const raw of ['not json at all', JSON.stringify({ hello: 'world' })]) {
        const res = await post(raw, signedHeaders(SECRET, raw));
        expectApiError(res, 400, 'VALIDATION_ERROR');
      }
    });
  });

  describe('subscription.*', () => {
    const sub = (
      id: string,
      type: string,
      status: 'active' | 'past_due' | 'paused' | 'canceled',
      at: Date,
      plan: PlanId = 'monthly',
      period?: { starts_at: string; ends_at: string } | null,
    ) =>
      envelope(
        type,
        subscriptionData({
          id,
          price: priceOf(plan),
          status,
          customData: { userId, planId: plan, credits: 50 },
          period:
            period === undefined ? (status === 'active' || status === 'past_due' ? periodFrom(at, 30) : null) : period,
          updatedAt: at,
        }),
        at,
      );

    it('records status, plan and period on the user', async () => {
      const id = paddleId('sub');
      const at = new Date(Date.now() - 1000);
      const n = sub(id, 'subscription.created', 'active', at, 'yearly', periodFrom(at, 365));
      expect((await post(n)).statusCode).toBe(200);
      const user = await findUserById(handle.db, userId);
      expect(user).toMatchObject({
        subscription_id: id,
        subscription_status: 'active',
        subscription_plan_id: 'yearly',
      });
      expect(user!.subscription_period_end).toBe(new Date(n.data.current_billing_period!.ends_at).toISOString());
      expect(await credits()).toBe(0); // a subscription event grants nothing; its transaction does
    });

    it.each([
      ['subscription.past_due', 'past_due'],
      ['subscription.paused', 'paused'],
      ['subscription.canceled', 'canceled'],
    ] as const)('follows %s', async (type, status) => {
      const id = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      await post(sub(id, 'subscription.created', 'active', t0));
      expect((await post(sub(id, type, status, new Date(t0.getTime() + 1000)))).statusCode).toBe(200);
      const user = await findUserById(handle.db, userId);
      expect(user!.subscription_status).toBe(status);
      if (status !== 'past_due') expect(user!.subscription_period_end).toBeNull();
    });

    it('follows subscription.resumed back to active', async () => {
      const id = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      await post(sub(id, 'subscription.created', 'active', t0));
      await post(sub(id, 'subscription.paused', 'paused', new Date(t0.getTime() + 1000)));
      await post(sub(id, 'subscription.resumed', 'active', new Date(t0.getTime() + 2000)));
      expect((await findUserById(handle.db, userId))!.subscription_status).toBe('active');
    });

    it('applies changes in the order they happened, not the order they arrive', async () => {
      const id = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      const created = sub(id, 'subscription.created', 'active', t0);
      const upgraded = sub(
        id,
        'subscription.updated',
        'active',
        new Date(t0.getTime() + 1000),
        'yearly',
        periodFrom(t0, 365),
      );
      const canceled = sub(id, 'subscription.canceled', 'canceled', new Date(t0.getTime() + 2000), 'yearly');
      // Arrival order: canceled, created, updated.
      for (const n of [canceled, created, upgraded]) expect((await post(n)).statusCode).toBe(200);
      const user = await findUserById(handle.db, userId);
      expect(user).toMatchObject({
        subscription_id: id,
        subscription_status: 'canceled',
        subscription_plan_id: 'yearly',
        subscription_period_end: null,
      });
      expect(user!.subscription_updated_at).toBe(new Date(canceled.occurred_at).toISOString());
    });

    it('a late cancellation of an old subscription does not override the one in force', async () => {
      const oldId = paddleId('sub');
      const newId = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      await post(sub(oldId, 'subscription.created', 'active', t0, 'weekly'));
      await post(sub(newId, 'subscription.created', 'active', new Date(t0.getTime() + 1000), 'monthly'));
      await post(sub(oldId, 'subscription.canceled', 'canceled', new Date(t0.getTime() + 2000), 'weekly'));
      expect(await findUserById(handle.db, userId)).toMatchObject({
        subscription_id: newId,
        subscription_status: 'active',
        subscription_plan_id: 'monthly',
      });
    });

    it('finds the user by subscription when custom_data is absent', async () => {
      const id = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      await post(sub(id, 'subscription.created', 'active', t0));
      const n = sub(id, 'subscription.past_due', 'past_due', new Date(t0.getTime() + 1000));
      n.data.custom_data = null;
      expect((await post(n)).statusCode).toBe(200);
      expect((await findUserById(handle.db, userId))!.subscription_status).toBe('past_due');
    });
  });

  describe('adjustment.* (refunds and chargebacks)', () => {
    const adjustment = (
      txnId: string,
      action: 'refund' | 'chargeback' | 'credit',
      status: 'pending_approval' | 'approved' | 'rejected',
      type: 'adjustment.created' | 'adjustment.updated' = 'adjustment.updated',
      id?: string,
    ) =>
      envelope(type, adjustmentData({ ...(id ? { id } : {}), transactionId: txnId, action, status, amount: '3999' }));
    const clawbacks = async () =>
      (
        await handle.db
          .selectFrom('credit_events')
          .selectAll()
          .where('user_id', '=', userId)
          .where('type', '=', 'clawback')
          .execute()
      ).map((e) => e.amount);

    it('an approved refund of an unspent purchase takes all its credits back', async () => {
      const n = purchase('credits_200');
      await post(n);
      expect(await credits()).toBe(200);
      expect((await post(adjustment(n.data.id, 'refund', 'approved'))).statusCode).toBe(200);
      expect(await credits()).toBe(0);
      expect(await clawbacks()).toEqual([-200]);
    });

    it('a refund after some credits were spent takes back only what is left', async () => {
      const n = purchase('weekly');
      await post(n);
      for (let i = 0; i < 3; i++) {
        const r = await reserveTryOn(handle.db, {
          userId,
          freeTrialsLimit: 0,
          category: 'upper_body',
          engine: 'local',
        });
        expect(r.ok).toBe(true);
      }
      expect(await credits()).toBe(17);
      await post(adjustment(n.data.id, 'refund', 'approved'));
      expect(await credits()).toBe(0);
      expect(await clawbacks()).toEqual([-17]);
      const [grant] = await grantsOf(userId);
      expect(grant).toMatchObject({ amount: 20, remaining: 0 });
    });

    it('waits for approval: pending and rejected refunds change nothing', async () => {
      const n = purchase('credits_200');
      await post(n);
      const adjId = paddleId('adj');
      await post(adjustment(n.data.id, 'refund', 'pending_approval', 'adjustment.created', adjId));
      expect(await credits()).toBe(200);
      await post(adjustment(n.data.id, 'refund', 'rejected', 'adjustment.updated', adjId));
      expect(await credits()).toBe(200);
      expect(await clawbacks()).toEqual([]);
    });

    it('a refund approved later is clawed back once, even if notified again', async () => {
      const n = purchase('credits_200');
      await post(n);
      const adjId = paddleId('adj');
      await post(adjustment(n.data.id, 'refund', 'pending_approval', 'adjustment.created', adjId));
      const approved = adjustment(n.data.id, 'refund', 'approved', 'adjustment.updated', adjId);
      await post(approved);
      await post(approved); // replay
      await post({ ...approved, event_id: paddleId('evt') }); // same adjustment, new event
      expect(await credits()).toBe(0);
      expect(await clawbacks()).toEqual([-200]);
    });

    it('a chargeback takes the credits back', async () => {
      const n = purchase('monthly');
      await post(n);
      await post(adjustment(n.data.id, 'chargeback', 'approved', 'adjustment.created'));
      expect(await credits()).toBe(0);
      expect(await clawbacks()).toEqual([-50]);
    });

    it('a credit adjustment (not a refund) takes nothing back', async () => {
      const n = purchase('monthly');
      await post(n);
      await post(adjustment(n.data.id, 'credit', 'approved', 'adjustment.created'));
      expect(await credits()).toBe(50);
    });

    it('a refund of one renewal leaves the other periods alone', async () => {
      const subscriptionId = paddleId('sub');
      const p1 = periodFrom(new Date(Date.now() - 10 * DAY), 30);
      const first = purchase('monthly', { subscriptionId, period: p1 });
      const second = purchase('monthly', { subscriptionId, period: periodFrom(new Date(p1.ends_at), 30) });
      await post(first);
      await post(second);
      expect(await credits()).toBe(100);
      await post(adjustment(second.data.id, 'refund', 'approved'));
      expect(await credits()).toBe(50);
    });

    it('a refund for a transaction we never granted is acknowledged', async () => {
      const res = await post(adjustment(paddleId('txn'), 'refund', 'approved'));
      expect(res.statusCode).toBe(200);
    });
  });

  it('ignores event types it does not handle, and records them', async () => {
    const n = envelope('customer.updated', {
      id: 'ctm_01aidressuptestcustomer0',
      email: 'shopper@example.com',
      status: 'active',
    });
    const res = await post(n);
    expect(res.statusCode).toBe(200);
    expect(await eventCount(n.event_id)).toBe(1);
    const row = await handle.db
      .selectFrom('billing_events')
      .selectAll()
      .where('event_id', '=', n.event_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'paddle', event_type: 'customer.updated' });
    expect(row.processed_at).not.toBeNull();
    expect(row.payload).not.toContain('shopper@example.com'); // personal data of events we ignore is not kept
  });

  it('keeps the verified payload of the events it acts on', async () => {
    const n = purchase('credits_200');
    await post(n);
    const row = await handle.db
      .selectFrom('billing_events')
      .selectAll()
      .where('event_id', '=', n.event_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.payload)).toEqual(JSON.parse(JSON.stringify(n)));
    expect(row.occurred_at).toBe(new Date(n.occurred_at).toISOString());
  });
});

describe('POST /api/webhooks/paddle when the database fails', () => {
  it('answers 500 so Paddle retries, and grants nothing', async () => {
    const handle = await openTestDatabase('sqlite');
    const app = Fastify({ logger: false });
    await app.register(paddleWebhookRoutes, { db: handle.db, paddle: PADDLE });
    await app.ready();
    const user = await createUser(handle.db, {
      deviceId: 'dev-failing-db',
      deviceInfo: {},
      signupIpHash: null,
      freeTrialsUsed: 0,
      freeTrialsWithheld: null,
      now: new Date(),
    });
    // Break the ledger: the grant's insert fails inside the transaction.
    await handle.db.schema.dropTable('credit_events').execute();
    const raw = JSON.stringify(
      envelope(
        'transaction.completed',
        transactionData({
          price: { id: PADDLE.prices.credits_200, amount: '3999', description: '200 Credits', interval: null },
          customData: { userId: user.id },
        }),
      ),
    );
    const res = await app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: signedHeaders(SECRET, raw),
    });
    expectApiError(res, 500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again.');
    expect(res.body).not.toMatch(/credit_events|stack|at /);
    // The transaction rolled back: no grant and no event record, so Paddle's retry can succeed.
    expect(await handle.db.selectFrom('credit_grants').select('id').execute()).toHaveLength(0);
    expect(await handle.db.selectFrom('billing_events').select('id').execute()).toHaveLength(0);
    await app.close();
    await handle.close();
  });
});
