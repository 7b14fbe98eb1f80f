/**
 * DELETE /api/account (delete my data), and the plan's management: GET /api/billing/portal and
 * GET /api/billing/history.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BillingHistoryResponseSchema,
  BillingPortalResponseSchema,
  DeleteAccountResponseSchema,
  MESSAGES,
  PLAN_IDS,
  findPlan,
  type PlanId,
  type Purchase,
} from '@aidressup/contract';
import { AppError } from '../errors.js';
import { endSession, requireSessionUserId, userOf } from '../http/session.js';
import { listPurchases } from '../repositories/users.js';
import { deleteAccount } from '../services/accounts.js';
import { openCustomerPortal } from '../billing/paddle/portal.js';
import { ERROR_RESPONSES } from '../http/schemas.js';

/** Where the demo billing's stand-in for a customer portal lives (a page of the web app). */
const DEMO_PORTAL_PATH = '/billing/demo-portal';

export default async function accountRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const security = [{ session: [] }];

  app.delete(
    '/api/account',
    {
      schema: {
        summary:
          'Delete my data: cancels a plan that still renews, then deletes photos, results and personal data (transaction records stay, without personal data); ends the session. Deletes nothing when the plan cannot be cancelled',
        tags: ['account'],
        security,
        response: { 200: DeleteAccountResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const userId = requireSessionUserId(request);
      await deleteAccount(
        { db: app.db, config, clock: app.clock, secret: app.sessionSecret, log: app.log, storage: app.storage },
        userId,
      );
      await endSession(app, request, reply);
      request.log.info('account data deleted');
      return reply.send({ success: true });
    },
  );

  app.get(
    '/api/billing/history',
    {
      schema: {
        summary: 'The session user’s purchases',
        tags: ['billing'],
        security,
        response: { 200: BillingHistoryResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const userId = requireSessionUserId(request);
      const rows = await listPurchases(app.db, userId);
      return {
        success: true as const,
        items: rows.map((r) => {
          const planId = (PLAN_IDS as readonly string[]).includes(r.plan_id ?? '') ? (r.plan_id as PlanId) : null;
          const plan = planId ? findPlan(planId) : undefined;
          const demo = r.source === 'demo';
          return {
            id: r.id,
            planId,
            credits: r.amount,
            amount: r.amount_paid ?? (demo && plan ? plan.priceValue.toFixed(2) : null),
            currency: r.currency ?? (demo && plan ? plan.currency : null),
            createdAt: r.created_at,
            expiresAt: r.expires_at,
            refunded: r.clawed_back,
            // A text column; the response schema checks it is one of the sources.
            source: r.source as Purchase['source'],
          };
        }),
      };
    },
  );

  app.get(
    '/api/billing/portal',
    {
      schema: {
        summary: 'A customer-portal URL to manage the plan (the demo portal page with demo billing)',
        tags: ['billing'],
        security,
        response: { 200: BillingPortalResponseSchema, ...ERROR_RESPONSES },
      },
      preHandler: app.requireUser,
    },
    async (request) => {
      const user = userOf(request);
      if (config.billing.provider === 'demo') {
        const purchases = await listPurchases(app.db, user.id, 1);
        if (user.subscription_id === null && purchases.length === 0) throw new AppError('PORTAL_UNAVAILABLE');
        return { success: true as const, url: DEMO_PORTAL_PATH };
      }
      const paddle = config.billing.paddle;
      if (!user.paddle_customer_id) throw new AppError('PORTAL_UNAVAILABLE');
      if (!paddle.apiKey) {
        request.log.error('the customer portal needs PADDLE_API_KEY');
        throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.portalNotConfigured);
      }
      const url = await openCustomerPortal({
        apiBaseUrl: paddle.apiBaseUrl,
        apiKey: paddle.apiKey,
        customerId: user.paddle_customer_id,
        subscriptionId: user.subscription_id?.startsWith('sub_') ? user.subscription_id : null,
        log: request.log,
      });
      return { success: true as const, url };
    },
  );
}
