/**
 * POST /api/webhooks/paddle after the purchase, on SQLite and PostgreSQL: subscription.* notifications
 * (status, plan and period on the user, applied in the order they happened) and adjustment.* ones
 * (refunds and chargebacks taking back what is left of a purchase's credits), shaped like Paddle
 * Billing's (built by @aidressup/paddle-stand-in, see webhooks-paddle.fixtures.ts) and signed with a
 * test secret.
 */
import { describe, expect, it } from 'vitest';
import type { PlanId } from '@aidressup/contract';
import { adjustmentData, envelope, paddleId, subscriptionData } from '@aidressup/paddle-stand-in';
import { reserveTryOn } from '../ledger/ledger.js';
import { findUserById } from '../repositories/users.js';
import { DATABASE_KINDS } from '../test/databases.js';
import { DAY, periodFrom, priceOf, webhookTestbed } from './webhooks-paddle.fixtures.js';

describe.each(DATABASE_KINDS)('POST /api/webhooks/paddle (%s)', (kind) => {
  const t = webhookTestbed(kind);
  const { post, credits, grantsOf, purchase } = t;

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
          customData: { userId: t.userId, planId: plan, credits: 50 },
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
      const user = await findUserById(t.db, t.userId);
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
      const user = await findUserById(t.db, t.userId);
      expect(user!.subscription_status).toBe(status);
      if (status !== 'past_due') expect(user!.subscription_period_end).toBeNull();
    });

    it('follows subscription.resumed back to active', async () => {
      const id = paddleId('sub');
      const t0 = new Date(Date.now() - 60_000);
      await post(sub(id, 'subscription.created', 'active', t0));
      await post(sub(id, 'subscription.paused', 'paused', new Date(t0.getTime() + 1000)));
      await post(sub(id, 'subscription.resumed', 'active', new Date(t0.getTime() + 2000)));
      expect((await findUserById(t.db, t.userId))!.subscription_status).toBe('active');
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
      const user = await findUserById(t.db, t.userId);
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
      expect(await findUserById(t.db, t.userId)).toMatchObject({
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
      expect((await findUserById(t.db, t.userId))!.subscription_status).toBe('past_due');
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
        await t.db
          .selectFrom('credit_events')
          .selectAll()
          .where('user_id', '=', t.userId)
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
        const r = await reserveTryOn(t.db, {
          userId: t.userId,
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
      const [grant] = await grantsOf(t.userId);
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
});
