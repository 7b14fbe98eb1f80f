/**
 * What each verified Paddle notification does. One notification is handled in one database
 * transaction that first records its `event_id` (a replay finds it recorded and does nothing)
 * and then applies its effect, so the effect happens exactly once or not at all.
 *
 * - `transaction.completed`: grants the plan bought (found from the price id in our
 *   configuration, never from the payload's amounts or custom data) to the user named in
 *   `custom_data.userId` (or, for renewals, the user holding the subscription). A one-time pack
 *   never expires; a subscription's credits expire at the end of the transaction's billing
 *   period. The grant's reference is the Paddle transaction id, so the same transaction arriving
 *   under another event id grants nothing more.
 * - `subscription.*`: records the subscription's status, plan and current period on the user,
 *   in the order the changes happened (`occurred_at`), not the order they arrive.
 * - `adjustment.created/updated`: an approved refund or chargeback takes back whatever is left
 *   unspent of the transaction's credits (credits already used are not taken back).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import { findPlan, PLAN_IDS, type Plan, type PlanId } from '@aidressup/contract';
import type { PaddleConfig } from '../../config.js';
import type { Database, UserRow } from '../../db/schema.js';
import { clawbackGrant, grantCredits } from '../../ledger/ledger.js';
import { findUserById, setPaddleCustomerId, setUserSubscription } from '../../repositories/users.js';
import type { Adjustment, CustomData, PaddleEvent, Subscription, Transaction } from './events.js';
import {
  findGrantsForTransaction,
  findUserBySubscriptionId,
  grantRef,
  markBillingEventProcessed,
  recordBillingEvent,
} from './repository.js';

type Trx = KyselyTransaction<Database>;
type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface HandlerContext {
  db: Kysely<Database>;
  paddle: PaddleConfig;
  log: Logger;
  now?: () => Date;
}

export type Outcome =
  | { result: 'duplicate' }
  | { result: 'ignored'; reason: string }
  | {
      result: 'granted';
      userId: string;
      grants: { planId: PlanId; amount: number; expiresAt: string | null; created: boolean }[];
    }
  | { result: 'subscription'; userId: string; applied: boolean }
  | { result: 'clawback'; userId: string | null; clawedBack: number };

/** Largest quantity of one price we grant for in a single transaction (checkout sends 1). */
const MAX_QUANTITY = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const ACTIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);

function planForPrice(paddle: PaddleConfig, priceId: string): Plan | undefined {
  const id = PLAN_IDS.find((p) => paddle.prices[p] === priceId);
  return id ? findPlan(id) : undefined;
}

/** Handles one verified, parsed notification. Throws on an internal failure (nothing is applied). */
export async function handleNotification(ctx: HandlerContext, event: PaddleEvent, payload: string): Promise<Outcome> {
  const now = (ctx.now ?? (() => new Date()))();
  const log = ctx.log;
  const base = { eventId: event.envelope.event_id, eventType: event.type };
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const recordId = await recordBillingEvent(trx, {
      eventId: event.envelope.event_id,
      eventType: event.type,
      occurredAt: new Date(event.envelope.occurred_at).toISOString(),
      // Events we do not act on (customer.*, address.* …) may carry personal data we have no
      // reason to keep: only their envelope is recorded.
      payload:
        event.kind === 'ignored'
          ? JSON.stringify({
              event_id: event.envelope.event_id,
              event_type: event.type,
              occurred_at: event.envelope.occurred_at,
            })
          : payload,
      now,
    });
    if (recordId === null) return { result: 'duplicate' } as const;
    let result: Outcome;
    switch (event.kind) {
      case 'transaction':
        result = await onTransactionCompleted(trx, ctx, event.data, event.envelope.occurred_at, now);
        break;
      case 'subscription':
        result = await onSubscription(trx, ctx, event.data, event.envelope.occurred_at);
        break;
      case 'adjustment':
        result = await onAdjustment(trx, event.data, event.envelope.event_id, now);
        break;
      default:
        result = { result: 'ignored', reason: 'event type not handled' };
    }
    await markBillingEventProcessed(trx, recordId, now);
    return result;
  });
  if (outcome.result === 'ignored')
    log.warn({ ...base, reason: outcome.reason }, 'paddle event acknowledged without effect');
  else log.info({ ...base, ...outcome }, 'paddle event handled');
  return outcome;
}

/** Paddle's grand total (in the currency's smallest unit) as a decimal string, e.g. "999" USD → "9.99". */
function paidAmount(txn: Transaction): { amount: string | null; currency: string | null } {
  const totals = txn.details?.totals;
  const currency = totals?.currency_code ?? txn.currency_code ?? null;
  const minor = totals?.grand_total ?? totals?.total;
  if (!currency || minor === undefined || !/^\d+$/.test(minor)) return { amount: null, currency };
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // an unknown currency code: keep two decimals
  }
  const value = (Number(minor) / 10 ** digits).toFixed(digits);
  return { amount: value, currency };
}

/** The user a payment or subscription belongs to: the checkout's userId, else the subscription's holder. */
async function resolveUser(
  trx: Trx,
  customData: CustomData,
  subscriptionId: string | null | undefined,
): Promise<UserRow | undefined> {
  const userId = customData?.userId;
  let user: UserRow | undefined;
  if (userId) user = await findUserById(trx, userId);
  if (!user && subscriptionId) user = await findUserBySubscriptionId(trx, subscriptionId);
  // An anonymous user who later signed in by email was merged into that account: the purchase
  // belongs to the account now.
  for (let hops = 0; user?.merged_into && hops < 5; hops++) user = await findUserById(trx, user.merged_into);
  return user;
}

async function onTransactionCompleted(
  trx: Trx,
  ctx: HandlerContext,
  txn: Transaction,
  occurredAt: string,
  now: Date,
): Promise<Outcome> {
  if (txn.status !== 'completed') return { result: 'ignored', reason: `transaction status ${txn.status}` };

  const lines = txn.items.map((item) => ({ item, plan: planForPrice(ctx.paddle, item.price.id) }));
  const unknown = lines.filter((l) => !l.plan).map((l) => l.item.price.id);
  if (unknown.length > 0)
    ctx.log.warn(
      { transactionId: txn.id, priceIds: unknown },
      'paddle transaction has prices not in the configuration',
    );
  const known = lines.filter((l): l is { item: typeof l.item; plan: Plan } => l.plan !== undefined);
  if (known.length === 0) return { result: 'ignored', reason: `unknown price ${unknown.join(', ')}` };

  const user = await resolveUser(trx, txn.custom_data, txn.subscription_id);
  if (!user)
    return { result: 'ignored', reason: `no such user (${txn.custom_data?.userId ?? 'no userId'}) for ${txn.id}` };

  if (txn.customer_id && user.paddle_customer_id !== txn.customer_id)
    await setPaddleCustomerId(trx, user.id, txn.customer_id);
  const paid = paidAmount(txn);

  const grants: Extract<Outcome, { result: 'granted' }>['grants'] = [];
  let index = 0;
  for (const { item, plan } of known) {
    const ref = grantRef(txn.id, index++);
    const quantity = Math.min(item.quantity, MAX_QUANTITY);
    const amount = plan.credits * quantity;
    let expiresAt: string | null = null;
    if (plan.validityDays !== null) {
      // A subscription's credits last for the billing period Paddle charged for.
      const end = txn.billing_period?.ends_at
        ? new Date(txn.billing_period.ends_at)
        : new Date(new Date(txn.billed_at ?? occurredAt).getTime() + plan.validityDays * DAY_MS);
      if (end.getTime() <= now.getTime()) {
        ctx.log.warn(
          { transactionId: txn.id, periodEnd: end.toISOString() },
          'paddle transaction for a period already over: nothing granted',
        );
        continue;
      }
      expiresAt = end.toISOString();
    }
    const { grant, created } = await grantCredits(trx, {
      userId: user.id,
      source: 'paddle',
      planId: plan.id,
      amount,
      expiresAt,
      externalRef: ref,
      // The transaction's total goes with its first line (a checkout here has one item).
      amountPaid: index === 1 ? paid.amount : null,
      currency: paid.currency,
      note: `paddle ${txn.id}${txn.subscription_id ? ` (${txn.subscription_id})` : ''}`,
      now,
    });
    grants.push({ planId: plan.id, amount: grant.amount, expiresAt: grant.expires_at, created });
  }

  // A paid subscription transaction also tells us the subscription is live for this period,
  // in case its subscription.* notification is late or not subscribed to.
  const subscriptionLine = known.find((l) => l.plan.validityDays !== null);
  if (txn.subscription_id && subscriptionLine && txn.billing_period) {
    const mayTrack =
      user.subscription_id === null ||
      user.subscription_id === txn.subscription_id ||
      !ACTIVE_STATUSES.has(user.subscription_status ?? '');
    if (mayTrack) {
      await setUserSubscription(trx, user.id, {
        subscriptionId: txn.subscription_id,
        status: 'active',
        planId: subscriptionLine.plan.id,
        periodEnd: txn.billing_period.ends_at,
        occurredAt,
      });
    }
  }

  if (grants.length === 0) return { result: 'ignored', reason: `billing period of ${txn.id} already over` };
  return { result: 'granted', userId: user.id, grants };
}

async function onSubscription(trx: Trx, ctx: HandlerContext, sub: Subscription, occurredAt: string): Promise<Outcome> {
  const user = await resolveUser(trx, sub.custom_data, sub.id);
  if (!user)
    return { result: 'ignored', reason: `no such user (${sub.custom_data?.userId ?? 'no userId'}) for ${sub.id}` };

  // A late notification about an older subscription must not override the one in force.
  if (
    user.subscription_id &&
    user.subscription_id !== sub.id &&
    ACTIVE_STATUSES.has(user.subscription_status ?? '') &&
    !ACTIVE_STATUSES.has(sub.status)
  ) {
    return { result: 'ignored', reason: `${sub.id} ${sub.status}, user holds ${user.subscription_id}` };
  }

  const plan = sub.items
    .map((i) => planForPrice(ctx.paddle, i.price.id))
    .find((p) => p !== undefined && p.validityDays !== null);
  if (!plan)
    ctx.log.warn(
      { subscriptionId: sub.id, priceIds: sub.items.map((i) => i.price.id) },
      'paddle subscription has no configured plan price',
    );
  const applied = await setUserSubscription(trx, user.id, {
    subscriptionId: sub.id,
    status: sub.status,
    planId: plan?.id ?? (user.subscription_id === sub.id ? user.subscription_plan_id : null),
    periodEnd: sub.status === 'canceled' ? null : (sub.current_billing_period?.ends_at ?? null),
    occurredAt,
  });
  if (!applied)
    ctx.log.info(
      { subscriptionId: sub.id, occurredAt },
      'paddle subscription notification older than the last applied: ignored',
    );
  return { result: 'subscription', userId: user.id, applied };
}

async function onAdjustment(trx: Trx, adj: Adjustment, eventId: string, now: Date): Promise<Outcome> {
  if (adj.action !== 'refund' && adj.action !== 'chargeback')
    return { result: 'ignored', reason: `adjustment action ${adj.action}` };
  if (adj.status !== 'approved') return { result: 'ignored', reason: `${adj.action} ${adj.status}` };
  const grants = await findGrantsForTransaction(trx, adj.transaction_id);
  if (grants.length === 0) return { result: 'ignored', reason: `no grant for ${adj.transaction_id}` };
  let clawedBack = 0;
  for (const grant of grants) {
    if (!grant.external_ref) continue;
    const res = await clawbackGrant(trx, {
      externalRef: grant.external_ref,
      note: `paddle ${adj.action} ${adj.id} (${eventId})`,
      now,
    });
    clawedBack += res?.clawedBack ?? 0;
  }
  return { result: 'clawback', userId: grants[0]?.user_id ?? null, clawedBack };
}
