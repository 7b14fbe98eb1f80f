/**
 * Accounts on SQLite and PostgreSQL: the device id opens no account (exact caps), signing out, and
 * deleting one's data (a renewing plan is cancelled first, at Paddle's API stand-in). Email sign-in
 * is `email-sign-in.test.ts`; managing the plan `account-plan.test.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthResponseSchema,
  EmailVerifyResponseSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, newDeviceId, postJson, sessionCookieOf, signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { verifyByEmail } from '../test/email-sign-in.js';

let PERSON: Buffer;
let GARMENT: Buffer;
let smtp: SmtpStandIn;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.close();
});

let mailSeq = 0;
const newEmail = () => `Shopper.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}@Example.com`;

function tryOn(app: FastifyInstance, cookie: string, userId: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

async function signInByEmail(app: FastifyInstance, email: string, cookie: string) {
  const res = await verifyByEmail(app, smtp, email, { cookie });
  expect(res.statusCode).toBe(200);
  return { body: EmailVerifyResponseSchema.parse(res.json()), cookie: sessionCookieOf(res) };
}

describe.each(DATABASE_KINDS)('accounts on %s', (kind) => {
  const build = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));
  const make = (env: Record<string, string> = {}) => build({ env });

  describe('a device id is a signal, never a key', () => {
    it('gives a second browser on the same device a new user, without the trials the first used', async () => {
      const { app } = await make();
      const deviceId = newDeviceId();
      const first = await signIn(app, deviceId);
      expect((await tryOn(app, first.cookie, first.user.id)).statusCode).toBe(200);

      // One trial used on the device: the next user on it has one left.
      const second = await signIn(app, deviceId);
      expect(second.isNew).toBe(true);
      expect(second.user.id).not.toBe(first.user.id);
      expect(AuthResponseSchema.parse(second.res.json()).user).toMatchObject({
        free_trials_used: 1,
        segment: 'trial',
        free_trials_withheld: null,
      });
      const gallery = await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: second.cookie } });
      expect(TryOnListResponseSchema.parse(gallery.json()).items).toEqual([]);

      expect((await tryOn(app, second.cookie, second.user.id)).statusCode).toBe(200);
      // The device's trials are used: the first user has none left either, and a third starts without.
      expect(await getUser(app, first.cookie, first.user.id)).toMatchObject({
        free_trials_used: 2,
        segment: 'trial_exhausted',
      });
      const refused = await tryOn(app, first.cookie, first.user.id);
      expect(refused.statusCode).toBe(402);
      const third = await signIn(app, deviceId);
      expect(AuthResponseSchema.parse(third.res.json()).user).toMatchObject({
        free_trials_used: 2,
        segment: 'trial_exhausted',
        free_trials_withheld: 'device',
      });
    });

    it('keeps the per-address cap exact under concurrent sign-ins', async () => {
      const { app } = await make({ NEW_USERS_PER_IP_PER_DAY: '3' });
      const results = await Promise.all(Array.from({ length: 12 }, () => signIn(app, newDeviceId(), '198.51.100.9')));
      const users = results.map((r) => AuthResponseSchema.parse(r.res.json()).user);
      expect(users.filter((u) => u.free_trials_used === 0)).toHaveLength(3);
      expect(users.filter((u) => u.free_trials_withheld === 'network')).toHaveLength(9);
    });

    it('never lets one device spend more free trials than the limit, however many users race', async () => {
      const { app } = await make();
      const deviceId = newDeviceId();
      const users = await Promise.all(Array.from({ length: 6 }, () => signIn(app, deviceId)));
      const answers = await Promise.all(
        users.flatMap((u) => [tryOn(app, u.cookie, u.user.id), tryOn(app, u.cookie, u.user.id)]),
      );
      const trialsUsed = answers.filter(
        (a) => a.statusCode === 200 && TryOnResponseSchema.parse(a.json()).usedFreeTrial,
      ).length;
      expect(trialsUsed).toBe(2);
      expect(answers.filter((a) => a.statusCode === 402)).toHaveLength(10);
      const device = await app.db
        .selectFrom('devices')
        .selectAll()
        .where('device_id', '=', deviceId)
        .executeTakeFirstOrThrow();
      expect(device.free_trials_used).toBe(2);
    });

    it('refuses a session cookie of the older kind (a signed user id)', async () => {
      const { app } = await make();
      const { user } = await signIn(app);
      const legacy = `aidu_session=${app.signCookie(user.id)}`;
      const res = await app.inject({ method: 'GET', url: `/api/auth/user/${user.id}`, headers: { cookie: legacy } });
      expect(res.statusCode).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
      const { app } = await make({ TRUST_PROXY: '1' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/anonymous',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.50' },
        payload: { deviceId: newDeviceId() },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/;\s*Secure/i);
      const plain = await postJson(app, '/api/auth/anonymous', { deviceId: newDeviceId() });
      expect(String(plain.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
    });
  });

  describe('sign-out and deleting one’s data', () => {
    it('ends the session on the server; a fresh anonymous session gets no new trials on the device', async () => {
      const { app } = await make();
      const deviceId = newDeviceId();
      const s = await signIn(app, deviceId);
      await tryOn(app, s.cookie, s.user.id);
      await tryOn(app, s.cookie, s.user.id);
      const out = await postJson(app, '/api/auth/logout', {}, s.cookie);
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ success: true });
      expect(String(out.headers['set-cookie'])).toMatch(/aidu_session=;/);
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${s.user.id}`, headers: { cookie: s.cookie } }))
          .statusCode,
      ).toBe(401);
      const fresh = await signIn(app, deviceId);
      expect(AuthResponseSchema.parse(fresh.res.json()).user).toMatchObject({
        free_trials_used: 2,
        free_trials_withheld: 'device',
      });
    });

    it('deletes photos, results, email, device info and sessions; keeps the transaction records without personal data', async () => {
      const { app } = await make();
      const s = await signIn(app);
      expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'monthly' }, s.cookie)).statusCode).toBe(200);
      const made = TryOnResponseSchema.parse((await tryOn(app, s.cookie, s.user.id)).json());
      const email = newEmail();
      const { cookie } = await signInByEmail(app, email, s.cookie);
      expect((await app.inject({ method: 'GET', url: made.imageUrl })).statusCode).toBe(200);

      const del = await app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie } });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ success: true });
      expect((await app.inject({ method: 'GET', url: made.imageUrl })).statusCode).toBe(404);
      expect(await app.storage.get(`results/${made.imageUrl.split('/').pop()!}`)).toBeNull();
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${s.user.id}`, headers: { cookie } })).statusCode,
      ).toBe(401);

      const row = await app.db.selectFrom('users').selectAll().where('id', '=', s.user.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: null, device_id: null, device_info: '{}', signup_ip_hash: null });
      expect(row.deleted_at).not.toBeNull();
      // The demo plan stops renewing, as the demo portal's Cancel does (its period end stays).
      expect(row).toMatchObject({ subscription_status: 'canceled', subscription_plan_id: 'monthly' });
      expect(row.subscription_period_end).not.toBeNull();
      expect(await app.db.selectFrom('tryons').selectAll().where('user_id', '=', s.user.id).execute()).toEqual([]);
      expect(await app.db.selectFrom('sessions').selectAll().where('user_id', '=', s.user.id).execute()).toEqual([]);
      expect(
        await app.db.selectFrom('email_codes').selectAll().where('email', '=', email.toLowerCase()).execute(),
      ).toEqual([]);
      const grants = await app.db.selectFrom('credit_grants').selectAll().where('user_id', '=', s.user.id).execute();
      expect(grants.map((g) => [g.plan_id, g.amount, g.remaining])).toEqual([['monthly', 50, 0]]);
      const forfeit = await app.db
        .selectFrom('credit_events')
        .selectAll()
        .where('user_id', '=', s.user.id)
        .where('type', '=', 'forfeit')
        .execute();
      expect(forfeit.map((e) => e.amount)).toEqual([-50]); // the try-on took a free trial

      // The address is free again: signing in with it makes a new, empty account.
      const again = await signIn(app);
      const next = await signInByEmail(app, email, again.cookie);
      expect(next.body.user.id).toBe(again.user.id);
      expect(next.body.user.credits).toBe(0);
      // Without a session there is nothing to delete.
      expect((await app.inject({ method: 'DELETE', url: '/api/account' })).statusCode).toBe(401);
    });
  });
});
