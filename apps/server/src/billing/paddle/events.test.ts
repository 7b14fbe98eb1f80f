import { describe, expect, it } from 'vitest';
import { parseNotification } from './events.js';
import {
  adjustmentData,
  envelope,
  subscriptionData,
  transactionData,
  type PriceInfo,
} from '@aidressup/paddle-stand-in';

const MONTHLY: PriceInfo = { id: 'pri_01testmonthly', amount: '999', description: 'Monthly Pro', interval: 'month' };
const PACK: PriceInfo = { id: 'pri_01testpack200', amount: '3999', description: '200 Credits', interval: null };
const PERIOD = { starts_at: '2026-03-01T10:00:00.000000Z', ends_at: '2026-03-31T10:00:00.000000Z' };

/** Round-trip through JSON, as the webhook receives it. */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('parseNotification', () => {
  it('reads a one-time transaction.completed', () => {
    const n = envelope(
      'transaction.completed',
      transactionData({ price: PACK, customData: { userId: 'u1', planId: 'credits_200', credits: 200 } }),
    );
    const r = parseNotification(wire(n));
    expect(r.ok).toBe(true);
    if (!r.ok || r.event.kind !== 'transaction') throw new Error('expected a transaction');
    expect(r.event.envelope.event_id).toBe(n.event_id);
    expect(r.event.data.id).toBe(n.data.id);
    expect(r.event.data.status).toBe('completed');
    expect(r.event.data.items.map((i) => i.price.id)).toEqual([PACK.id]);
    expect(r.event.data.items[0]!.quantity).toBe(1);
    expect(r.event.data.subscription_id).toBeNull();
    expect(r.event.data.billing_period).toBeNull();
    expect(r.event.data.custom_data).toEqual({ userId: 'u1', planId: 'credits_200', credits: 200 });
    expect(r.event.data.details?.totals?.grand_total).toBe('3999');
  });

  it('reads a subscription transaction with its billing period', () => {
    const n = envelope(
      'transaction.completed',
      transactionData({
        price: MONTHLY,
        subscriptionId: 'sub_01x',
        billingPeriod: PERIOD,
        origin: 'subscription_recurring',
      }),
    );
    const r = parseNotification(wire(n));
    if (!r.ok || r.event.kind !== 'transaction') throw new Error('expected a transaction');
    expect(r.event.data.subscription_id).toBe('sub_01x');
    expect(r.event.data.billing_period).toEqual(PERIOD);
    expect(r.event.data.custom_data).toBeNull();
  });

  it('does not let odd custom_data break a payment', () => {
    const n = envelope(
      'transaction.completed',
      transactionData({ price: PACK, customData: { userId: 12345, other: 'x' } }),
    );
    const r = parseNotification(wire(n));
    if (!r.ok || r.event.kind !== 'transaction') throw new Error('expected a transaction');
    expect(r.event.data.custom_data).toBeNull();
  });

  it.each([
    'subscription.created',
    'subscription.updated',
    'subscription.activated',
    'subscription.canceled',
    'subscription.past_due',
    'subscription.paused',
    'subscription.resumed',
    'subscription.trialing',
  ])('reads %s', (type) => {
    const status = type === 'subscription.canceled' ? 'canceled' : type === 'subscription.paused' ? 'paused' : 'active';
    const n = envelope(
      type,
      subscriptionData({
        id: 'sub_01y',
        price: MONTHLY,
        status,
        period: status === 'active' ? PERIOD : null,
        customData: { userId: 'u2', planId: 'monthly', credits: 50 },
        scheduledChange: { action: 'cancel', effective_at: PERIOD.ends_at, resume_at: null },
      }),
    );
    const r = parseNotification(wire(n));
    if (!r.ok || r.event.kind !== 'subscription') throw new Error('expected a subscription');
    expect(r.event.type).toBe(type);
    expect(r.event.data.status).toBe(status);
    expect(r.event.data.items[0]!.price.id).toBe(MONTHLY.id);
    expect(r.event.data.current_billing_period).toEqual(status === 'active' ? PERIOD : null);
    expect(r.event.data.scheduled_change?.action).toBe('cancel');
    expect(r.event.data.custom_data?.userId).toBe('u2');
  });

  it('refuses a subscription status Paddle does not have', () => {
    const n = envelope('subscription.updated', {
      ...subscriptionData({ id: 'sub_01y', price: MONTHLY, status: 'active', period: PERIOD }),
      status: 'frozen',
    });
    const r = parseNotification(wire(n));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/status/);
  });

  it.each(['adjustment.created', 'adjustment.updated'])('reads %s', (type) => {
    const n = envelope(
      type,
      adjustmentData({
        transactionId: 'txn_01z',
        action: 'refund',
        status: 'approved',
        amount: '999',
        type: 'partial',
      }),
    );
    const r = parseNotification(wire(n));
    if (!r.ok || r.event.kind !== 'adjustment') throw new Error('expected an adjustment');
    expect(r.event.data.action).toBe('refund');
    expect(r.event.data.status).toBe('approved');
    expect(r.event.data.transaction_id).toBe('txn_01z');
    expect(r.event.data.items[0]!.type).toBe('partial');
    expect(r.event.data.totals?.total).toBe('999');
  });

  it('passes other event types through as ignored', () => {
    const r = parseNotification(wire(envelope('customer.created', { id: 'ctm_01', email: 'a@example.com' })));
    expect(r).toMatchObject({ ok: true, event: { kind: 'ignored', type: 'customer.created' } });
  });

  it.each([
    ['not an object', 'hello'],
    ['no event_id', { event_type: 'transaction.completed', occurred_at: '2026-01-01T00:00:00Z', data: {} }],
    ['bad occurred_at', { event_id: 'evt_1', event_type: 'x.y', occurred_at: 'yesterday', data: {} }],
    ['data not an object', { event_id: 'evt_1', event_type: 'x.y', occurred_at: '2026-01-01T00:00:00Z', data: [] }],
  ])('refuses an envelope with %s', (_label, body) => {
    expect(parseNotification(body).ok).toBe(false);
  });

  it('refuses a transaction without items or id', () => {
    const base = transactionData({ price: PACK });
    expect(parseNotification(wire(envelope('transaction.completed', { ...base, items: [] }))).ok).toBe(false);
    const { id: _id, ...noId } = base;
    expect(parseNotification(wire(envelope('transaction.completed', noId))).ok).toBe(false);
  });

  it('refuses an adjustment without a transaction id', () => {
    const { transaction_id: _t, ...rest } = adjustmentData({
      transactionId: 'txn_1',
      action: 'refund',
      status: 'approved',
      amount: '1',
    });
    expect(parseNotification(wire(envelope('adjustment.updated', rest))).ok).toBe(false);
  });
});
