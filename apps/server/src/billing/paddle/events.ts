/**
 * Paddle Billing notification shapes (the parts we read), as zod schemas.
 *
 * Every notification is an envelope `{event_id, event_type, occurred_at, notification_id, data}`
 * whose `data` is the entity after the change: a transaction, a subscription or an adjustment.
 * Paddle adds fields over time, so objects accept and drop unknown keys, and enumerations we
 * only pass through are plain strings. Amounts are strings of the lowest currency unit.
 */
import { z } from 'zod';

/** RFC 3339 timestamp as Paddle writes it (microsecond or nanosecond fractions, `Z`). */
const timestamp = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'not a timestamp' });

const TimePeriodSchema = z.object({ starts_at: timestamp, ends_at: timestamp });

/**
 * What the page puts into `customData` at checkout. Paddle copies it to the transaction and
 * to the subscription it creates. Only `userId` is trusted, and only after the user is found;
 * the plan always comes from the price id and the credits from our own plan table.
 */
const CustomDataSchema = z
  .object({
    userId: z.string().min(1).max(64).optional(),
    planId: z.string().max(40).optional(),
    credits: z.unknown().optional(),
  })
  .nullable()
  .optional()
  // Anything unexpected in custom_data (it is free-form) must not make us drop a payment.
  .catch(null);
export type CustomData = z.infer<typeof CustomDataSchema>;

const PriceRefSchema = z.object({ id: z.string().min(1) });

const TotalsSchema = z.object({
  subtotal: z.string().optional(),
  tax: z.string().optional(),
  discount: z.string().optional(),
  total: z.string().optional(),
  grand_total: z.string().optional(),
  fee: z.string().nullable().optional(),
  earnings: z.string().nullable().optional(),
  currency_code: z.string().optional(),
});

// ---------------------------------------------------------------- transaction
const TransactionItemSchema = z.object({
  price: PriceRefSchema,
  quantity: z.number().int().positive(),
});

const TransactionSchema = z.object({
  id: z.string().min(1),
  status: z.string(), // draft | ready | billed | paid | completed | canceled | past_due
  customer_id: z.string().nullable().optional(),
  subscription_id: z.string().nullable().optional(),
  origin: z.string().nullable().optional(),
  currency_code: z.string().optional(),
  items: z.array(TransactionItemSchema).min(1),
  custom_data: CustomDataSchema,
  billing_period: TimePeriodSchema.nullable().optional(),
  details: z
    .object({
      totals: TotalsSchema.nullable().optional(),
      line_items: z.array(z.object({ id: z.string(), price_id: z.string(), quantity: z.number() })).optional(),
    })
    .nullable()
    .optional(),
  billed_at: timestamp.nullable().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

// ---------------------------------------------------------------- subscription
const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;

const ScheduledChangeSchema = z
  .object({
    action: z.string(), // cancel | pause | resume
    effective_at: timestamp,
    resume_at: timestamp.nullable().optional(),
  })
  .nullable()
  .optional();

const SubscriptionSchema = z.object({
  id: z.string().min(1),
  status: z.enum(SUBSCRIPTION_STATUSES),
  customer_id: z.string().nullable().optional(),
  transaction_id: z.string().nullable().optional(),
  items: z
    .array(
      z.object({
        price: PriceRefSchema,
        quantity: z.number().int().positive(),
        status: z.string().optional(),
      }),
    )
    .min(1),
  custom_data: CustomDataSchema,
  current_billing_period: TimePeriodSchema.nullable().optional(),
  next_billed_at: timestamp.nullable().optional(),
  canceled_at: timestamp.nullable().optional(),
  paused_at: timestamp.nullable().optional(),
  scheduled_change: ScheduledChangeSchema,
  updated_at: timestamp.optional(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

// ---------------------------------------------------------------- adjustment
const AdjustmentSchema = z.object({
  id: z.string().min(1),
  action: z.string(), // refund | chargeback | chargeback_reverse | chargeback_warning | credit | credit_reverse
  status: z.string(), // pending_approval | approved | rejected | reversed
  transaction_id: z.string().min(1),
  subscription_id: z.string().nullable().optional(),
  customer_id: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
  currency_code: z.string().optional(),
  items: z
    .array(
      z.object({
        id: z.string().optional(),
        item_id: z.string(),
        type: z.string(), // full | partial | tax | proration
        amount: z.string().nullable().optional(),
      }),
    )
    .default([]),
  totals: TotalsSchema.nullable().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});
export type Adjustment = z.infer<typeof AdjustmentSchema>;

// ---------------------------------------------------------------- envelope
export const EnvelopeSchema = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  occurred_at: timestamp,
  notification_id: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()),
});
type Envelope = z.infer<typeof EnvelopeSchema>;

const SUBSCRIPTION_EVENT_TYPES = [
  'subscription.created',
  'subscription.updated',
  'subscription.activated',
  'subscription.canceled',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.trialing',
] as const;
const ADJUSTMENT_EVENT_TYPES = ['adjustment.created', 'adjustment.updated'] as const;
const TRANSACTION_EVENT_TYPES = ['transaction.completed'] as const;

export type PaddleEvent =
  | { kind: 'transaction'; envelope: Envelope; type: (typeof TRANSACTION_EVENT_TYPES)[number]; data: Transaction }
  | { kind: 'subscription'; envelope: Envelope; type: (typeof SUBSCRIPTION_EVENT_TYPES)[number]; data: Subscription }
  | { kind: 'adjustment'; envelope: Envelope; type: (typeof ADJUSTMENT_EVENT_TYPES)[number]; data: Adjustment }
  | { kind: 'ignored'; envelope: Envelope; type: string };

export type ParseResult = { ok: true; event: PaddleEvent } | { ok: false; error: string };

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

const includes = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

/** Parse a verified notification body (already JSON-decoded). */
export function parseNotification(body: unknown): ParseResult {
  const env = EnvelopeSchema.safeParse(body);
  if (!env.success) return { ok: false, error: describe(env.error) };
  const envelope = env.data;
  const type = envelope.event_type;
  if (includes(TRANSACTION_EVENT_TYPES, type)) {
    const d = TransactionSchema.safeParse(envelope.data);
    if (!d.success) return { ok: false, error: `data: ${describe(d.error)}` };
    return { ok: true, event: { kind: 'transaction', envelope, type, data: d.data } };
  }
  if (includes(SUBSCRIPTION_EVENT_TYPES, type)) {
    const d = SubscriptionSchema.safeParse(envelope.data);
    if (!d.success) return { ok: false, error: `data: ${describe(d.error)}` };
    return { ok: true, event: { kind: 'subscription', envelope, type, data: d.data } };
  }
  if (includes(ADJUSTMENT_EVENT_TYPES, type)) {
    const d = AdjustmentSchema.safeParse(envelope.data);
    if (!d.success) return { ok: false, error: `data: ${describe(d.error)}` };
    return { ok: true, event: { kind: 'adjustment', envelope, type, data: d.data } };
  }
  return { ok: true, event: { kind: 'ignored', envelope, type } };
}
