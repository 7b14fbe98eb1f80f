/**
 * Shared setup for the webhooks-paddle-*.test.ts files: a test Paddle configuration (its webhook secret
 * and price ids), the plans' prices as Paddle sends them, and `webhookTestbed`, which serves
 * POST /api/webhooks/paddle from a fresh SQLite or PostgreSQL database, makes a new user before each test,
 * and posts notifications built with @aidressup/paddle-stand-in (shaped like Paddle Billing's, signed
 * with the test secret).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { PLANS, type PlanId } from '@aidressup/contract';
import { envelope, paddleId, signedHeaders, transactionData, type PriceInfo } from '@aidressup/paddle-stand-in';
import type { PaddleConfig } from '../config.js';
import type { DatabaseHandle, DatabaseKind } from '../db/database.js';
import { balance } from '../ledger/ledger.js';
import { createUser } from '../repositories/users.js';
import { openTestDatabase } from '../test/databases.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { paddleWebhookRoutes } from './webhooks-paddle.js';

export const SECRET = 'pdl_ntfset_01test_webhook_secret_for_tests';
export const PADDLE: PaddleConfig = {
  environment: 'sandbox',
  clientToken: 'test_0123456789abcdef0123456789a',
  webhookSecret: SECRET,
  apiKey: undefined,
  apiBaseUrl: 'https://sandbox-api.paddle.com',
  prices: {
    weekly: 'pri_01testweekly0000000000000',
    monthly: 'pri_01testmonthly000000000000',
    yearly: 'pri_01testyearly0000000000000',
    credits_200: 'pri_01testcredits2000000000000',
  },
};
const AMOUNTS: Record<PlanId, string> = { weekly: '599', monthly: '999', yearly: '1999', credits_200: '3999' };
const INTERVAL: Record<PlanId, PriceInfo['interval']> = {
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  credits_200: null,
};
export const priceOf = (plan: PlanId): PriceInfo => ({
  id: PADDLE.prices[plan],
  amount: AMOUNTS[plan],
  description: PLANS.find((p) => p.id === plan)!.name,
  interval: INTERVAL[plan],
});
export const DAY = 24 * 60 * 60 * 1000;

export function periodFrom(start: Date, days: number) {
  return { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + days * DAY).toISOString() };
}

/**
 * The webhook route on a fresh database of this kind, for the enclosing describe: `db` and `userId`
 * (a new user before each test) are read when a test runs; the helpers post and read back.
 */
export function webhookTestbed(kind: DatabaseKind) {
  let handle: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    app = Fastify({ logger: false });
    await app.register(paddleWebhookRoutes, { db: handle.db, paddle: PADDLE });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await handle?.close();
  });

  let userId: string;
  beforeEach(async () => {
    const user = await createUser(handle.db, {
      deviceId: `dev-${paddleId('x')}`,
      deviceInfo: { browser: 'Chrome', os: 'Linux' },
      signupIpHash: null,
      freeTrialsUsed: 0,
      freeTrialsWithheld: null,
      now: new Date(),
    });
    userId = user.id;
  });

  /** Posts a notification, signed with the test secret unless `headers` are given. */
  function post(body: unknown, headers?: Record<string, string>) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: headers ?? signedHeaders(SECRET, raw),
    });
  }
  const credits = () => balance(handle.db, userId);
  const eventCount = async (eventId: string) =>
    (await handle.db.selectFrom('billing_events').select('id').where('event_id', '=', eventId).execute()).length;
  const grantsOf = (uid: string) =>
    handle.db
      .selectFrom('credit_grants')
      .selectAll()
      .where('user_id', '=', uid)
      .orderBy('created_at')
      .orderBy('external_ref')
      .execute();

  /** A transaction.completed for this plan, bought by the test's user unless told otherwise. */
  function purchase(
    plan: PlanId,
    o: {
      userId?: string;
      subscriptionId?: string | null;
      period?: { starts_at: string; ends_at: string } | null;
      txnId?: string;
    } = {},
  ) {
    const subscription = INTERVAL[plan] !== null;
    const subscriptionId = o.subscriptionId === undefined ? (subscription ? paddleId('sub') : null) : o.subscriptionId;
    const period =
      o.period === undefined
        ? subscription
          ? periodFrom(new Date(), PLANS.find((p) => p.id === plan)!.validityDays!)
          : null
        : o.period;
    return envelope(
      'transaction.completed',
      transactionData({
        ...(o.txnId ? { id: o.txnId } : {}),
        price: priceOf(plan),
        customData: { userId: o.userId ?? userId, planId: plan, credits: PLANS.find((p) => p.id === plan)!.credits },
        subscriptionId,
        billingPeriod: period,
      }),
    );
  }

  return {
    get db() {
      return handle.db;
    },
    get userId() {
      return userId;
    },
    post,
    credits,
    eventCount,
    grantsOf,
    purchase,
  };
}
