/**
 * Paddle Billing notifications shaped exactly as Paddle sends them (field for field, following
 * Paddle's API reference and its Node SDK's notification examples), filled with our own values.
 * A stand-in for Paddle in tests only: the server's webhook tests and the browser tests use it; it is
 * never part of the built product.
 */
import { createHmac } from 'node:crypto';

/**
 * The `Paddle-Signature` header Paddle sends: `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "ts:body">`,
 * keyed with the notification destination's secret. Written here from Paddle's documentation, apart
 * from the server's verifier, so the tests check one against the other.
 */
export function signatureHeader(secret: string, rawBody: string, tsSeconds: number): string {
  const ts = String(Math.floor(tsSeconds));
  const h1 = createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
}

let counter = 0;
/** A Paddle-style id: prefix + `_01` + 23 lower-case base32 characters, unique per call. */
export function paddleId(prefix: string): string {
  counter += 1;
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let n = BigInt(Date.now()) * 1_000_000n + BigInt(counter) * 7919n + BigInt(Math.floor(Math.random() * 1e6));
  let s = '';
  for (let i = 0; i < 23; i++) {
    s = alphabet[Number(n % 32n)] + s;
    n /= 32n;
  }
  return `${prefix}_01${s}`;
}

const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString().replace('Z', '123Z'));

export interface Envelope<T> {
  event_id: string;
  event_type: string;
  occurred_at: string;
  notification_id: string;
  data: T;
}

export function envelope<T>(
  eventType: string,
  data: T,
  occurredAt: Date | string = new Date(),
  eventId = paddleId('evt'),
): Envelope<T> {
  return {
    event_id: eventId,
    event_type: eventType,
    occurred_at: iso(occurredAt),
    notification_id: paddleId('ntf'),
    data,
  };
}

/** Sign a body as Paddle does; returns the headers to send with it. */
export function signedHeaders(secret: string, rawBody: string, nowMs = Date.now()): Record<string, string> {
  return { 'content-type': 'application/json', 'paddle-signature': signatureHeader(secret, rawBody, nowMs / 1000) };
}

export interface PriceInfo {
  id: string;
  /** Lowest currency unit, e.g. "999" for $9.99. */
  amount: string;
  description: string;
  /** null for a one-time price. */
  interval: 'week' | 'month' | 'year' | null;
}

function price(p: PriceInfo, productId: string) {
  return {
    id: p.id,
    name: p.description,
    type: 'standard',
    status: 'active',
    quantity: { maximum: 1, minimum: 1 },
    tax_mode: 'account_setting',
    product_id: productId,
    unit_price: { amount: p.amount, currency_code: 'USD' },
    custom_data: null,
    description: p.description,
    import_meta: null,
    trial_period: null,
    billing_cycle: p.interval ? { interval: p.interval, frequency: 1 } : null,
    unit_price_overrides: [],
    created_at: '2026-01-05T10:00:00.000000Z',
    updated_at: '2026-01-05T10:00:00.000000Z',
  };
}

export interface TransactionOptions {
  id?: string;
  price: PriceInfo;
  quantity?: number;
  customData?: Record<string, unknown> | null;
  subscriptionId?: string | null;
  billingPeriod?: { starts_at: string; ends_at: string } | null;
  origin?: 'web' | 'subscription_recurring' | 'api' | 'subscription_charge' | 'subscription_update';
  customerId?: string;
  at?: Date;
}

/** `data` of a `transaction.completed` notification. */
export function transactionData(o: TransactionOptions) {
  const id = o.id ?? paddleId('txn');
  const at = o.at ?? new Date();
  const quantity = o.quantity ?? 1;
  const productId = 'pro_01aidressupcredits0000000';
  const subtotal = String(Number(o.price.amount) * quantity);
  const tax = '0';
  const totals = {
    fee: String(Math.round(Number(subtotal) * 0.05 + 50)),
    tax,
    total: subtotal,
    credit: '0',
    balance: '0',
    discount: '0',
    earnings: String(Number(subtotal) - Math.round(Number(subtotal) * 0.05 + 50)),
    subtotal,
    grand_total: subtotal,
    currency_code: 'USD',
    credit_to_balance: '0',
  };
  return {
    id,
    items: [{ price: price(o.price, productId), quantity, proration: null }],
    origin: o.origin ?? 'web',
    status: 'completed',
    details: {
      totals,
      line_items: [
        {
          id: paddleId('txnitm'),
          totals: { tax, total: subtotal, discount: '0', subtotal },
          product: {
            id: productId,
            name: 'AI Dress Up',
            type: 'standard',
            status: 'active',
            image_url: null,
            custom_data: null,
            description: 'Virtual try-on credits',
            tax_category: 'standard',
            created_at: '2026-01-05T10:00:00.000000Z',
            updated_at: '2026-01-05T10:00:00.000000Z',
          },
          price_id: o.price.id,
          quantity,
          tax_rate: '0',
          proration: null,
          unit_totals: { tax: '0', total: o.price.amount, discount: '0', subtotal: o.price.amount },
        },
      ],
      payout_totals: { ...totals },
      tax_rates_used: [{ totals: { tax, total: subtotal, discount: '0', subtotal }, tax_rate: '0' }],
      adjusted_totals: {
        fee: totals.fee,
        tax,
        total: subtotal,
        earnings: totals.earnings,
        subtotal,
        grand_total: subtotal,
        currency_code: 'USD',
      },
      adjusted_payout_totals: null,
    },
    checkout: { url: `https://aidressup.example/checkout?_ptxn=${id}` },
    payments: [
      {
        amount: subtotal,
        status: 'captured',
        created_at: iso(at),
        error_code: null,
        captured_at: iso(at),
        method_details: {
          card: { type: 'visa', last4: '4242', expiry_year: 2030, expiry_month: 1, cardholder_name: 'Test Shopper' },
          type: 'card',
        },
        payment_method_id: paddleId('paymtd'),
        payment_attempt_id: '0b4a7c2e-5d1f-4b8e-9a3c-2f6d8e1a4b7c',
        stored_payment_method_id: '5e8c1a9f-3b2d-4c7e-8f1a-6d2b9e4c7a1f',
      },
    ],
    billed_at: iso(at),
    address_id: 'add_01aidressuptestaddress00',
    created_at: iso(new Date(at.getTime() - 60_000)),
    invoice_id: paddleId('inv'),
    updated_at: iso(at),
    revised_at: null,
    business_id: null,
    custom_data: o.customData === undefined ? null : o.customData,
    customer_id: o.customerId ?? 'ctm_01aidressuptestcustomer0',
    discount_id: null,
    currency_code: 'USD',
    billing_period: o.billingPeriod ?? null,
    invoice_number: '325-10001',
    billing_details: null,
    collection_mode: 'automatic',
    subscription_id: o.subscriptionId ?? null,
  };
}

export interface SubscriptionOptions {
  id: string;
  price: PriceInfo;
  status: 'active' | 'trialing' | 'past_due' | 'paused' | 'canceled';
  customData?: Record<string, unknown> | null;
  period?: { starts_at: string; ends_at: string } | null;
  transactionId?: string;
  scheduledChange?: { action: 'cancel' | 'pause' | 'resume'; effective_at: string; resume_at: string | null } | null;
  updatedAt?: Date;
}

/** `data` of a `subscription.*` notification. */
export function subscriptionData(o: SubscriptionOptions) {
  const updated = o.updatedAt ?? new Date();
  const period = o.period === undefined ? null : o.period;
  const next = o.status === 'canceled' || o.status === 'paused' || !period ? null : period.ends_at;
  const {
    quantity: _q,
    status: _s,
    name: _n,
    type: _t,
    import_meta: _i,
    unit_price_overrides: _u,
    custom_data: _c,
    created_at: _ca,
    updated_at: _ua,
    ...p
  } = price(o.price, 'pro_01aidressupcredits0000000');
  return {
    id: o.id,
    transaction_id: o.transactionId ?? paddleId('txn'),
    items: [
      {
        price: p,
        status: 'active',
        quantity: 1,
        recurring: true,
        created_at: '2026-01-05T10:00:00.000000Z',
        updated_at: iso(updated),
        trial_dates: null,
        next_billed_at: next,
        previously_billed_at: period?.starts_at ?? null,
      },
    ],
    status: o.status,
    discount: null,
    paused_at: o.status === 'paused' ? iso(updated) : null,
    address_id: 'add_01aidressuptestaddress00',
    created_at: '2026-01-05T10:00:00.000000Z',
    started_at: '2026-01-05T10:00:00.000000Z',
    updated_at: iso(updated),
    business_id: null,
    canceled_at: o.status === 'canceled' ? iso(updated) : null,
    custom_data: o.customData === undefined ? null : o.customData,
    customer_id: 'ctm_01aidressuptestcustomer0',
    import_meta: null,
    billing_cycle: { interval: o.price.interval ?? 'month', frequency: 1 },
    currency_code: 'USD',
    next_billed_at: next,
    billing_details: null,
    collection_mode: 'automatic',
    first_billed_at: '2026-01-05T10:00:00.000000Z',
    scheduled_change: o.scheduledChange ?? null,
    current_billing_period: period,
  };
}

export interface AdjustmentOptions {
  id?: string;
  transactionId: string;
  subscriptionId?: string | null;
  action: 'refund' | 'chargeback' | 'chargeback_reverse' | 'chargeback_warning' | 'credit' | 'credit_reverse';
  status: 'pending_approval' | 'approved' | 'rejected' | 'reversed';
  amount: string;
  type?: 'full' | 'partial';
  at?: Date;
}

/** `data` of an `adjustment.*` notification. */
export function adjustmentData(o: AdjustmentOptions) {
  const at = o.at ?? new Date();
  const fee = String(Math.round(Number(o.amount) * 0.05));
  return {
    id: o.id ?? paddleId('adj'),
    items: [
      {
        id: paddleId('adjitm'),
        type: o.type ?? 'full',
        amount: o.amount,
        totals: { tax: '0', total: o.amount, subtotal: o.amount },
        item_id: paddleId('txnitm'),
        proration: null,
      },
    ],
    action: o.action,
    reason: 'Customer asked for a refund',
    status: o.status,
    totals: {
      fee,
      tax: '0',
      total: o.amount,
      earnings: String(Number(o.amount) - Number(fee)),
      subtotal: o.amount,
      currency_code: 'USD',
    },
    created_at: iso(at),
    updated_at: iso(at),
    customer_id: 'ctm_01aidressuptestcustomer0',
    currency_code: 'USD',
    payout_totals: {
      fee,
      tax: '0',
      total: o.amount,
      earnings: String(Number(o.amount) - Number(fee)),
      subtotal: o.amount,
      currency_code: 'USD',
      chargeback_fee: null,
    },
    transaction_id: o.transactionId,
    subscription_id: o.subscriptionId ?? null,
    credit_applied_to_balance: null,
  };
}
