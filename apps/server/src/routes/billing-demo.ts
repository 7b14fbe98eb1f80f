/**
 * POST /api/billing/demo/checkout: the demo checkout (charges nothing). It completes a purchase
 * through the same grant function as a verified Paddle webhook; the plan decides the credits
 * and their expiry, never the client. Refused with BILLING_DISABLED when Paddle is configured.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DemoCancelResponseSchema,
  DemoCheckoutRequestSchema,
  DemoCheckoutResponseSchema,
  findPlan,
  isSubscriptionPlan,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { requireSession, userOf } from '../http/session.js';
import { findUserById, setUserSubscription } from '../repositories/users.js';
import { recordPurchase } from '../repositories/purchases.js';
import { toApiUser } from '../services/users.js';
import { ERROR_RESPONSES } from '../http/schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export default async function demoBillingRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const security = [{ session: [] }];

  /** Demo billing only: refused (before the body is looked at) when real payments are enabled. */
  const demoBillingOnly = async (_request: FastifyRequest) => {
    if (config.billing.provider !== 'demo') throw new AppError('BILLING_DISABLED');
  };

  app.post(
    '/api/billing/demo/checkout',
    {
      schema: {
        summary: 'Demo checkout: buy a plan without paying (demo billing only)',
        tags: ['billing'],
        security,
        body: DemoCheckoutRequestSchema,
        response: { 200: DemoCheckoutResponseSchema, ...ERROR_RESPONSES },
      },
      config: { invalidInput: { otherwise: 'INVALID_PLAN' } },
      preValidation: [requireSession, demoBillingOnly],
      preHandler: app.requireUser,
    },
    async (request) => {
      const userId = userOf(request).id;
      const plan = findPlan(request.body.planId);
      if (!plan) throw new AppError('INVALID_PLAN');

      const now = app.clock();
      const expiresAt = plan.validityDays === null ? null : new Date(now.getTime() + plan.validityDays * DAY_MS);
      const ref = `demo_${randomBytes(12).toString('base64url')}`;
      await recordPurchase(
        app.db,
        {
          userId,
          source: 'demo',
          planId: plan.id,
          amount: plan.credits,
          expiresAt,
          externalRef: ref,
          note: `demo checkout: ${plan.name}`,
          now,
        },
        isSubscriptionPlan(plan)
          ? {
              subscriptionId: `demo_sub_${userId}`,
              status: 'active',
              planId: plan.id,
              periodEnd: expiresAt,
              occurredAt: now,
            }
          : null,
      );
      const row = await findUserById(app.db, userId);
      if (!row) throw new AppError('UNAUTHORIZED');
      const user = await toApiUser(app.db, row, { freeTrialsLimit: config.freeTrialsLimit, now });
      return { success: true as const, user };
    },
  );

  /** The demo portal's Cancel: the plan stops renewing; its credits last to the period's end. */
  app.post(
    '/api/billing/demo/cancel',
    {
      schema: {
        summary: 'Demo portal: cancel the plan (it stops renewing; its credits last to the period’s end)',
        tags: ['billing'],
        security,
        response: { 200: DemoCancelResponseSchema, ...ERROR_RESPONSES },
      },
      preValidation: [requireSession, demoBillingOnly],
      preHandler: app.requireUser,
    },
    async (request) => {
      const row = userOf(request);
      if (!row.subscription_id || row.subscription_status === 'canceled') throw new AppError('PORTAL_UNAVAILABLE');
      const now = app.clock();
      await setUserSubscription(app.db, row.id, {
        subscriptionId: row.subscription_id,
        status: 'canceled',
        planId: row.subscription_plan_id,
        periodEnd: row.subscription_period_end,
        occurredAt: now,
      });
      const fresh = await findUserById(app.db, row.id);
      if (!fresh) throw new AppError('UNAUTHORIZED');
      const user = await toApiUser(app.db, fresh, { freeTrialsLimit: config.freeTrialsLimit, now });
      return { success: true as const, user };
    },
  );
}
