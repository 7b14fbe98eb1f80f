/**
 * Managing the plan on SQLite and PostgreSQL: the billing history and portal, cancelling, and what
 * Paddle's notifications (signed by the stand-in) and its API stand-in change.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthResponseSchema, MESSAGES, type User } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, newDeviceId, postJson, signIn, testApps, type TestApp } from '../test/app.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { sendJson, startStandInServer, type StandInServer } from '../test/stand-ins/stand-in-server.js';
import { expectApiError } from '../test/api-error.js';
import { envelope, paddleId, signedHeaders, subscriptionData, transactionData } from '@aidressup/paddle-stand-in';
import { setPaddleCustomerId } from '../repositories/users.js';
import { createMailer } from '../mail/mailer.js';
import { runRetention } from '../services/retention.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';
import { mailedCode as mailedCodeFor } from '../test/email-sign-in.js';

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.close();
});

let mailSeq = 0;
const newEmail = () => `Shopper.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}@Example.com`;

const mailedCode = (app: FastifyInstance, email: string, cookie?: string) =>
  mailedCodeFor(app, smtp, email, { cookie });

describe.each(DATABASE_KINDS)('managing the plan on %s', (kind) => {
  const build = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));
  const make = (env: Record<string, string> = {}) => build({ env });

  describe('managing the plan', () => {
    it('with demo billing: history, the demo portal, and cancelling the plan', async () => {
      const { app } = await make();
      const s = await signIn(app);
      const none = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
      expectApiError(none, 409, 'PORTAL_UNAVAILABLE', MESSAGES.portalUnavailable);
      expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'yearly' }, s.cookie)).statusCode).toBe(200);
      const portal = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
      expect(portal.json()).toEqual({ success: true, url: '/billing/demo-portal' });
      const cancel = await postJson(app, '/api/billing/demo/cancel', {}, s.cookie);
      expect(cancel.statusCode).toBe(200);
      const user = (cancel.json() as { user: User }).user;
      expect(user.subscription).toMatchObject({ planId: 'yearly', status: 'canceled' });
      // Credits already granted stay until the period ends.
      expect(user.credits).toBe(100);
      expect((await postJson(app, '/api/billing/demo/cancel', {}, s.cookie)).statusCode).toBe(409);
      expect((await app.inject({ method: 'GET', url: '/api/billing/history' })).statusCode).toBe(401);
    });

    describe('with Paddle', () => {
      const API_KEY = 'pdl_sdbx_apikey_standin';
      const WEBHOOK_SECRET = 'pdl_ntfset_01test_webhook_secret';
      const MONTHLY = { id: 'pri_01monthly', amount: '999', description: 'Monthly Pro', interval: 'month' } as const;
      const PADDLE_META = { request_id: 'standin' };
      /** Subscriptions the stand-in has cancelled, and the HTTP status it fails a cancel with, by id. */
      const canceledAtPaddle = new Set<string>();
      const cancelFailures = new Map<string, number>();
      /** Paddle's clock in the stand-in's answers (set to the app's clock by a test). */
      let paddleNow = () => new Date();

      let paddleApi: StandInServer;
      beforeAll(async () => {
        // A stand-in for Paddle's API, as documented: POST /customers/{id}/portal-sessions and
        // POST /subscriptions/{id}/cancel (200 with the canceled subscription; 400
        // subscription_update_when_canceled once it is canceled).
        paddleApi = await startStandInServer((req, res) => {
          const cancel = /^\/subscriptions\/(sub_[a-z0-9]+)\/cancel$/.exec(req.url);
          if (req.method === 'POST' && cancel && req.headers.authorization === `Bearer ${API_KEY}`) {
            const id = cancel[1]!;
            const failure = cancelFailures.get(id);
            if (failure) {
              sendJson(res, failure, {
                error: { type: 'api_error', code: 'internal_error', detail: 'An internal error occurred' },
                meta: PADDLE_META,
              });
              return;
            }
            if ((req.json as { effective_from?: unknown } | undefined)?.effective_from !== 'immediately') {
              sendJson(res, 400, {
                error: { type: 'request_error', code: 'bad_request', detail: 'this stand-in cancels immediately only' },
                meta: PADDLE_META,
              });
              return;
            }
            if (canceledAtPaddle.has(id)) {
              sendJson(res, 400, {
                error: {
                  type: 'request_error',
                  code: 'subscription_update_when_canceled',
                  detail: 'cannot update subscription, as subscription is canceled',
                },
                meta: PADDLE_META,
              });
              return;
            }
            canceledAtPaddle.add(id);
            sendJson(res, 200, {
              data: subscriptionData({ id, price: MONTHLY, status: 'canceled', period: null, updatedAt: paddleNow() }),
              meta: PADDLE_META,
            });
            return;
          }
          const m = /^\/customers\/(ctm_[a-z0-9]+)\/portal-sessions$/.exec(req.url);
          if (req.method !== 'POST' || !m || req.headers.authorization !== `Bearer ${API_KEY}`) {
            res.writeHead(404, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({ error: { type: 'request_error', code: 'not_found', detail: 'Entity not found' } }),
            );
            return;
          }
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              data: {
                id: 'cpls_01standin',
                customer_id: m[1],
                urls: {
                  general: {
                    overview: `https://customer-portal.paddle.com/cpl_01standin?action=overview&token=pga_standin_${m[1]}`,
                  },
                  subscriptions: [],
                },
                created_at: new Date().toISOString(),
              },
              meta: { request_id: 'standin' },
            }),
          );
        });
      });
      afterAll(async () => {
        await paddleApi.close();
      });
      const paddleEnv = (apiKey?: string, apiBaseUrl = paddleApi.url) => ({
        PADDLE_ENV: 'sandbox',
        PADDLE_CLIENT_TOKEN: 'test_0123456789abcdef0123456789a',
        PADDLE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PADDLE_PRICE_WEEKLY: 'pri_01weekly',
        PADDLE_PRICE_MONTHLY: MONTHLY.id,
        PADDLE_PRICE_YEARLY: 'pri_01yearly',
        PADDLE_PRICE_CREDITS_200: 'pri_01credits',
        PADDLE_API_BASE_URL: apiBaseUrl,
        ...(apiKey ? { PADDLE_API_KEY: apiKey } : {}),
      });

      /** Posts a Paddle notification, signed as Paddle signs it, at the app's clock. */
      function notify(t: TestApp, body: unknown) {
        const raw = JSON.stringify(body);
        return t.app.inject({
          method: 'POST',
          url: PADDLE_WEBHOOK_PATH,
          payload: raw,
          headers: signedHeaders(WEBHOOK_SECRET, raw, t.clock.now.getTime()),
        });
      }
      /** Paddle's subscription.canceled notification for the user's subscription, as of now. */
      function canceledNotice(t: TestApp, sub: string, userId: string) {
        return envelope(
          'subscription.canceled',
          subscriptionData({
            id: sub,
            price: MONTHLY,
            status: 'canceled',
            customData: { userId },
            period: null,
            updatedAt: t.clock.now,
          }),
          t.clock.now,
        );
      }
      /** Buys the monthly plan through Paddle (its transaction.completed notification); returns the subscription id. */
      async function subscribeMonthly(t: TestApp, userId: string): Promise<string> {
        const sub = paddleId('sub');
        const now = t.clock.now;
        const txn = envelope(
          'transaction.completed',
          transactionData({
            price: MONTHLY,
            customData: { userId, planId: 'monthly', credits: 50 },
            subscriptionId: sub,
            billingPeriod: {
              starts_at: now.toISOString(),
              ends_at: new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000).toISOString(),
            },
            at: now,
          }),
          now,
        );
        expect((await notify(t, txn)).statusCode).toBe(200);
        return sub;
      }
      const userRow = (t: TestApp, id: string) =>
        t.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const cancelsOf = (sub: string) => paddleApi.requests.filter((r) => r.url === `/subscriptions/${sub}/cancel`);
      const deleteAccount = (t: TestApp, cookie: string) =>
        t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie } });

      describe('deleting one’s data ends a renewing plan first', () => {
        it('cancels the subscription at Paddle, records it, then deletes; Paddle’s later notifications change nothing', async () => {
          const t = await make(paddleEnv(API_KEY));
          paddleNow = () => t.clock.now;
          const s = await signIn(t.app);
          const sub = await subscribeMonthly(t, s.user.id);
          expect(await userRow(t, s.user.id)).toMatchObject({ subscription_id: sub, subscription_status: 'active' });
          const before = t.clock.now;

          t.clock.advance(60_000);
          const del = await deleteAccount(t, s.cookie);
          expect(del.statusCode).toBe(200);
          expect(del.json()).toEqual({ success: true });

          const sent = cancelsOf(sub);
          expect(sent).toHaveLength(1);
          expect(sent[0]!.method).toBe('POST');
          expect(sent[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
          expect(sent[0]!.headers['content-type']).toBe('application/json');
          expect(sent[0]!.json).toEqual({ effective_from: 'immediately' });

          const row = await userRow(t, s.user.id);
          expect(row).toMatchObject({
            subscription_id: sub,
            subscription_status: 'canceled',
            subscription_plan_id: 'monthly',
            subscription_period_end: null,
            subscription_updated_at: t.clock.now.toISOString(),
            email: null,
            device_id: null,
            paddle_customer_id: null,
          });
          expect(row.deleted_at).not.toBeNull();
          expect(await t.app.db.selectFrom('sessions').selectAll().where('user_id', '=', s.user.id).execute()).toEqual(
            [],
          );
          const forfeit = await t.app.db
            .selectFrom('credit_events')
            .select('amount')
            .where('user_id', '=', s.user.id)
            .where('type', '=', 'forfeit')
            .execute();
          expect(forfeit.map((e) => e.amount)).toEqual([-50]);

          // Paddle's subscription.canceled notification arrives afterwards: the same state, applied or not.
          const canceled = canceledNotice(t, sub, s.user.id);
          expect((await notify(t, canceled)).statusCode).toBe(200);
          expect((await notify(t, canceled)).statusCode).toBe(200); // a replay
          // A late subscription.updated from before the cancellation does not bring the plan back.
          const late = envelope(
            'subscription.updated',
            subscriptionData({
              id: sub,
              price: MONTHLY,
              status: 'active',
              customData: { userId: s.user.id },
              period: { starts_at: before.toISOString(), ends_at: new Date(before.getTime() + 1e9).toISOString() },
              updatedAt: before,
            }),
            before,
          );
          expect((await notify(t, late)).statusCode).toBe(200);
          expect(await userRow(t, s.user.id)).toMatchObject({
            subscription_status: 'canceled',
            subscription_period_end: null,
            deleted_at: row.deleted_at,
          });
          expect(cancelsOf(sub)).toHaveLength(1);
        });

        it('deletes nothing, and says so, when Paddle fails or cannot be reached; a retry then succeeds', async () => {
          const t = await make(paddleEnv(API_KEY));
          const s = await signIn(t.app);
          const sub = await subscribeMonthly(t, s.user.id);
          const planNotCanceled = (res: LightMyRequestResponse) =>
            expectApiError(res, 503, 'SERVICE_UNAVAILABLE', MESSAGES.planNotCanceled);
          const untouched = async () => {
            expect(await userRow(t, s.user.id)).toMatchObject({
              subscription_status: 'active',
              deleted_at: null,
              device_id: expect.any(String),
            });
            // Still signed in, with the plan's credits.
            expect(await getUser(t.app, s.cookie, s.user.id)).toMatchObject({ credits: 50, segment: 'subscriber' });
          };

          cancelFailures.set(sub, 500);
          const failed = await deleteAccount(t, s.cookie);
          planNotCanceled(failed);
          expect(cancelsOf(sub)).toHaveLength(1);
          await untouched();

          // Paddle refuses (its documented error shape, a 4xx): the same.
          cancelFailures.set(sub, 404);
          planNotCanceled(await deleteAccount(t, s.cookie));
          await untouched();

          // Nothing listening at Paddle's address (connection refused).
          const gone = await startStandInServer(() => undefined);
          await gone.close();
          const offline = await make(paddleEnv(API_KEY, gone.url));
          const o = await signIn(offline.app);
          const osub = await subscribeMonthly(offline, o.user.id);
          const refused = await deleteAccount(offline, o.cookie);
          planNotCanceled(refused);
          expect(await userRow(offline, o.user.id)).toMatchObject({
            subscription_id: osub,
            subscription_status: 'active',
            deleted_at: null,
          });
          expect(await getUser(offline.app, o.cookie, o.user.id)).toMatchObject({ credits: 50 });

          // Without PADDLE_API_KEY the plan cannot be cancelled: nothing is deleted either.
          const keyless = await make(paddleEnv());
          const k = await signIn(keyless.app);
          await subscribeMonthly(keyless, k.user.id);
          planNotCanceled(await deleteAccount(keyless, k.cookie));
          expect(await userRow(keyless, k.user.id)).toMatchObject({ subscription_status: 'active', deleted_at: null });

          // Paddle answers again: the retry cancels and deletes.
          cancelFailures.delete(sub);
          const retried = await deleteAccount(t, s.cookie);
          expect(retried.statusCode).toBe(200);
          expect(await userRow(t, s.user.id)).toMatchObject({ subscription_status: 'canceled', email: null });
          expect((await userRow(t, s.user.id)).deleted_at).not.toBeNull();
          expect(cancelsOf(sub)).toHaveLength(3);
        });

        it('counts a subscription Paddle has canceled already as cancelled', async () => {
          const t = await make(paddleEnv(API_KEY));
          const s = await signIn(t.app);
          const sub = await subscribeMonthly(t, s.user.id);
          canceledAtPaddle.add(sub); // e.g. cancelled a moment ago, its notification not yet here
          const del = await deleteAccount(t, s.cookie);
          expect(del.statusCode).toBe(200);
          expect(cancelsOf(sub)).toHaveLength(1);
          expect(await userRow(t, s.user.id)).toMatchObject({ subscription_status: 'canceled' });
        });

        it('makes no Paddle call for a user without a renewing plan', async () => {
          const t = await make(paddleEnv(API_KEY));
          const calls = paddleApi.requests.length;
          const none = await signIn(t.app);
          expect((await deleteAccount(t, none.cookie)).statusCode).toBe(200);

          // A plan already canceled (its notification came) bills no more: nothing to cancel.
          const ended = await signIn(t.app);
          const sub = await subscribeMonthly(t, ended.user.id);
          t.clock.advance(1000);
          const canceled = canceledNotice(t, sub, ended.user.id);
          expect((await notify(t, canceled)).statusCode).toBe(200);
          expect((await deleteAccount(t, ended.cookie)).statusCode).toBe(200);

          expect(paddleApi.requests.length).toBe(calls);
          for (const id of [none.user.id, ended.user.id]) expect((await userRow(t, id)).deleted_at).not.toBeNull();
        });
      });

      it('opens the customer portal session for the signed-in customer', async () => {
        const { app } = await make(paddleEnv(API_KEY));
        const s = await signIn(app);
        expect(
          (await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } })).statusCode,
        ).toBe(409);
        await setPaddleCustomerId(app.db, s.user.id, 'ctm_01abc');
        const res = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          success: true,
          url: 'https://customer-portal.paddle.com/cpl_01standin?action=overview&token=pga_standin_ctm_01abc',
        });
        const sent = paddleApi.requests.at(-1)!;
        expect(sent.method).toBe('POST');
        expect(sent.url).toBe('/customers/ctm_01abc/portal-sessions');
        expect(sent.headers['content-type']).toBe('application/json');
        expect(sent.json).toEqual({});
      });

      it('says the portal is unavailable, without internals, when Paddle refuses or no API key is set', async () => {
        const { app } = await make(paddleEnv('pdl_sdbx_wrong_key'));
        const s = await signIn(app);
        await setPaddleCustomerId(app.db, s.user.id, 'ctm_01abc');
        const res = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
        expectApiError(res, 503, 'SERVICE_UNAVAILABLE', MESSAGES.portalNotConfigured);
        const keyless = await make(paddleEnv());
        const k = await signIn(keyless.app);
        await setPaddleCustomerId(keyless.app.db, k.user.id, 'ctm_01abc');
        expect(
          (await keyless.app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: k.cookie } }))
            .statusCode,
        ).toBe(503);
      });
    });
  });

  it('writes the sign-in mail to the log when no SMTP_URL is set', async () => {
    const lines: string[] = [];
    const log = {
      warn: (obj: unknown, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`),
    } as unknown as Parameters<typeof createMailer>[0]['log'];
    const mailer = await createMailer({ smtpUrl: undefined, from: 'x <x@example.com>', log });
    expect(mailer.kind).toBe('log');
    await mailer.send({
      to: 'a@example.com',
      subject: 'S',
      text: 'Your AI Dress Up sign-in code is 123456',
      html: '<p>123456</p>',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/MAIL NOT SENT \(no SMTP_URL is set\)/);
    expect(lines[0]).toContain('123456');
  });

  it('retention deletes expired sessions and sign-in codes, and nothing still valid', async () => {
    const { app, clock } = await make();
    const old = await signIn(app);
    await mailedCode(app, newEmail(), old.cookie);
    clock.advance(366 * 24 * 60 * 60 * 1000);
    const fresh = await signIn(app);
    await mailedCode(app, newEmail(), fresh.cookie);
    const report = await runRetention({ db: app.db, storage: app.storage, clock: () => clock.now }, { batchSize: 1 });
    expect(report.sessionsDeleted).toBe(1);
    expect(report.signInCodesDeleted).toBe(1);
    const sessions = await app.db.selectFrom('sessions').select('user_id').execute();
    expect(sessions.map((r) => r.user_id)).toEqual([fresh.user.id]);
    expect(await app.db.selectFrom('email_codes').selectAll().execute()).toHaveLength(1);
  });

  it('answers the same shape for a brand-new anonymous user as before', async () => {
    const { app } = await make();
    const res = await postJson(app, '/api/auth/anonymous', { deviceId: newDeviceId() });
    const body = AuthResponseSchema.parse(res.json());
    expect(body).toMatchObject({
      success: true,
      isNew: true,
      user: { email: null, free_trials_withheld: null, credits: 0 },
    });
  });
});
