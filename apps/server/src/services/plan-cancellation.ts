/**
 * Ending a person's plan when they delete their data, so it bills them no more. A plan billed by
 * Paddle is cancelled at Paddle at once; a demo plan is cancelled as the demo portal's Cancel does.
 * Either way the user row records it straight away, before Paddle's `subscription.canceled`
 * notification arrives (which then finds the same state: applying it changes nothing).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { MESSAGES } from '@aidressup/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors.js';
import { cancelSubscriptionNow } from '../billing/paddle/cancel-subscription.js';
import { findUserById, setUserSubscription } from '../repositories/users.js';

/** Statuses in which a subscription can still bill the person (`paused` resumes and bills). */
const BILLABLE_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'paused']);

export type PlanCancellation = 'none' | 'paddle' | 'local';

/**
 * Cancels the user's plan if it can still bill them; returns what was done. Throws
 * SERVICE_UNAVAILABLE (`MESSAGES.planNotCanceled`) when a Paddle plan could not be cancelled:
 * the caller must then delete nothing.
 */
export async function cancelBillablePlan(
  deps: { db: Kysely<Database>; config: Config; clock: () => Date; log: FastifyBaseLogger },
  userId: string,
): Promise<PlanCancellation> {
  const user = await findUserById(deps.db, userId);
  const subscriptionId = user?.subscription_id;
  if (!user || !subscriptionId || !BILLABLE_SUBSCRIPTION_STATUSES.has(user.subscription_status ?? '')) return 'none';
  const log = deps.log.child({ subscriptionId });

  // Paddle's subscription ids start with `sub_`; anything else (`demo_sub_…`) was never billed.
  if (!subscriptionId.startsWith('sub_')) {
    await setUserSubscription(deps.db, user.id, {
      subscriptionId,
      status: 'canceled',
      planId: user.subscription_plan_id,
      periodEnd: user.subscription_period_end,
      occurredAt: deps.clock(),
    });
    log.info('demo plan cancelled before deleting the account');
    return 'local';
  }

  const paddle = deps.config.billing.provider === 'paddle' ? deps.config.billing.paddle : undefined;
  if (!paddle?.apiKey) {
    log.error('a Paddle plan must be cancelled before the account is deleted, and that needs PADDLE_API_KEY');
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.planNotCanceled);
  }
  const { canceledAt } = await cancelSubscriptionNow({
    apiBaseUrl: paddle.apiBaseUrl,
    apiKey: paddle.apiKey,
    subscriptionId,
    log: deps.log,
  });
  // Paddle's own time of the change orders it among Paddle's notifications, as the webhook does.
  const occurredAt = canceledAt && !Number.isNaN(Date.parse(canceledAt)) ? canceledAt : deps.clock();
  const applied = await setUserSubscription(deps.db, user.id, {
    subscriptionId,
    status: 'canceled',
    planId: user.subscription_plan_id,
    // As the webhook records a canceled subscription: no current period.
    periodEnd: null,
    occurredAt,
  });
  if (applied) log.info('Paddle plan cancelled before deleting the account');
  else log.warn('Paddle plan cancelled; a newer subscription change was recorded already');
  return 'paddle';
}
