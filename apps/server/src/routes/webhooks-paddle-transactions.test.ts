/**
 * POST /api/webhooks/paddle, transaction.completed, on SQLite and PostgreSQL: notifications shaped
 * exactly like Paddle Billing's (built by @aidressup/paddle-stand-in, see webhooks-paddle.fixtures.ts),
 * signed with a test secret. What a purchase grants (plans, packs, several items and units, renewals),
 * where the plan is read from, and that a replayed or concurrent delivery grants once.
 */
import { describe, expect, it } from 'vitest';
import { adjustmentData, envelope, paddleId, signedHeaders, transactionData } from '@aidressup/paddle-stand-in';
import { balance } from '../ledger/ledger.js';
import { createUser, findUserById } from '../repositories/users.js';
import { DATABASE_KINDS } from '../test/databases.js';
import { DAY, periodFrom, priceOf, SECRET, webhookTestbed } from './webhooks-paddle.fixtures.js';

describe.each(DATABASE_KINDS)('POST /api/webhooks/paddle (%s)', (kind) => {
  const t = webhookTestbed(kind);
  const { post, credits, eventCount, grantsOf, purchase } = t;

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
        const [grant] = await grantsOf(t.userId);
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
        const user = await findUserById(t.db, t.userId);
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
      const [grant] = await grantsOf(t.userId);
      expect(grant).toMatchObject({ plan_id: 'credits_200', amount: 200, expires_at: null, external_ref: n.data.id });
      expect((await findUserById(t.db, t.userId))!.subscription_id).toBeNull();
      expect(await eventCount(n.event_id)).toBe(1);
    });

    it('takes the plan from the price id, never from custom_data', async () => {
      const n = purchase('weekly');
      n.data.custom_data = { userId: t.userId, planId: 'credits_200', credits: 100000 };
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(20);
      expect((await grantsOf(t.userId))[0]!.plan_id).toBe('weekly');
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
      expect(await grantsOf(t.userId)).toHaveLength(1);
    });

    it('grants a transaction once even when it arrives again under a new event id', async () => {
      const first = purchase('credits_200');
      const second = { ...first, event_id: paddleId('evt'), notification_id: paddleId('ntf') };
      expect((await post(first)).statusCode).toBe(200);
      const res = await post(second);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ duplicate: false });
      expect(await credits()).toBe(200);
      expect(await grantsOf(t.userId)).toHaveLength(1);
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
      expect(await grantsOf(t.userId)).toHaveLength(1);
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
          customData: { userId: t.userId, planId: 'credits_200', credits: 200 },
        }),
      );
      const res = await post(n);
      expect(res.statusCode).toBe(200);
      expect(await credits()).toBe(0);
      expect(await grantsOf(t.userId)).toHaveLength(0);
      expect(await eventCount(n.event_id)).toBe(1);
    });

    it('acknowledges a payment for a user that does not exist and grants nothing', async () => {
      const n = purchase('credits_200', { userId: 'no-such-user-000000000' });
      const res = await post(n);
      expect(res.statusCode).toBe(200);
      const count = await t.db.selectFrom('credit_grants').select('id').where('external_ref', '=', n.data.id).execute();
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
        transactionData({ price: priceOf('credits_200'), quantity: 2, customData: { userId: t.userId } }),
      );
      expect((await post(n)).statusCode).toBe(200);
      expect(await credits()).toBe(400);
    });

    it('grants a purchase made before an email sign-in to the account the buyer was merged into', async () => {
      const account = await createUser(t.db, {
        deviceId: null,
        deviceInfo: {},
        signupIpHash: null,
        freeTrialsUsed: 0,
        freeTrialsWithheld: null,
        now: new Date(),
      });
      await t.db.updateTable('users').set({ merged_into: account.id }).where('id', '=', t.userId).execute();
      expect((await post(purchase('credits_200'))).statusCode).toBe(200);
      expect(await credits()).toBe(0);
      expect(await balance(t.db, account.id)).toBe(200);
    });

    it('grants each configured item of a transaction with several, and a refund takes all of them back', async () => {
      const base = transactionData({
        price: priceOf('credits_200'),
        customData: { userId: t.userId },
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
      const grants = await grantsOf(t.userId);
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
        customData: { userId: t.userId },
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
      const grants = await grantsOf(t.userId);
      expect(grants.map((g) => g.expires_at)).toEqual([
        new Date(p1.ends_at).toISOString(),
        new Date(p2.ends_at).toISOString(),
      ]);
      // After the first period ends only the renewal's credits remain.
      expect(await balance(t.db, t.userId, new Date(new Date(p1.ends_at).getTime() + 1000))).toBe(50);
      expect((await findUserById(t.db, t.userId))!.subscription_period_end).toBe(new Date(p2.ends_at).toISOString());
    });
  });
});
