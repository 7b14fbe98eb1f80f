/**
 * POST /api/billing/demo/checkout: the demo checkout (charges nothing). It completes a purchase
 * through the same grant function as a verified Paddle webhook; the plan decides the credits
 * and their expiry, never the client. Refused with BILLING_DISABLED when Paddle is configured.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DemoCancelResponseSchema, DemoCheckoutRequestSchema, DemoCheckoutResponseSchema, findPlan, isSubscriptionPlan } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { requireSessionUserId } from '../plugins/session.js';
import { grantCredits } from '../ledger/ledger.js';
import { findUserById, setUserSubscription } from '../repositories/users.js';
import { toApiUser } from '../services/users.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export default async function demoBillingRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;

  app.post('/api/billing/demo/checkout', async (request) => {
    const userId = requireSessionUserId(request);
    if (config.billing.provider !== 'demo') throw new AppError('BILLING_DISABLED');
    const parsed = DemoCheckoutRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw new AppError('INVALID_PLAN');
    const plan = findPlan(parsed.data.planId);
    if (!plan) throw new AppError('INVALID_PLAN');
    if (!(await findUserById(app.db, userId))) throw new AppError('UNAUTHORIZED');

    const now = app.clock();
    const expiresAt = plan.validityDays === null ? null : new Date(now.getTime() + plan.validityDays * DAY_MS);
    const ref = `demo_${randomBytes(12).toString('base64url')}`;
    await app.db.transaction().execute(async (trx) => {
      await grantCredits(trx, {
        userId,
        source: 'demo',
        planId: plan.id,
        amount: plan.credits,
        expiresAt,
        externalRef: ref,
        note: `demo checkout: ${plan.name}`,
        now,
      });
      if (isSubscriptionPlan(plan)) {
        await setUserSubscription(trx, userId, {
          subscriptionId: `demo_sub_${userId}`,
          status: 'active',
          planId: plan.id,
          periodEnd: expiresAt,
          occurredAt: now,
        });
      }
    });
    const row = await findUserById(app.db, userId);
    if (!row) throw new AppError('UNAUTHORIZED');
    const user = await toApiUser(app.db, row, { freeTrialsLimit: config.freeTrialsLimit, now });
    return DemoCheckoutResponseSchema.parse({ success: true, user });
  });

  /** The demo portal's Cancel: the plan stops renewing; its credits last to the period's end. */
  app.post('/api/billing/demo/cancel', async (request) => {
    const userId = requireSessionUserId(request);
    if (config.billing.provider !== 'demo') throw new AppError('BILLING_DISABLED');
    const row = await findUserById(app.db, userId);
    if (!row) throw new AppError('UNAUTHORIZED');
    if (!row.subscription_id || row.subscription_status === 'canceled') throw new AppError('PORTAL_UNAVAILABLE');
    const now = app.clock();
    await setUserSubscription(app.db, userId, {
      subscriptionId: row.subscription_id,
      status: 'canceled',
      planId: row.subscription_plan_id,
      periodEnd: row.subscription_period_end,
      occurredAt: now,
    });
    const fresh = await findUserById(app.db, userId);
    if (!fresh) throw new AppError('UNAUTHORIZED');
    const user = await toApiUser(app.db, fresh, { freeTrialsLimit: config.freeTrialsLimit, now });
    return DemoCancelResponseSchema.parse({ success: true, user });
  });
}
