/**
 * Accounts on SQLite and PostgreSQL: the device id opens no account, exact caps, email sign-in
 * (codes read from the mail a real SMTP stand-in received), merging, sign-out, deleting one's
 * data (a renewing plan is cancelled first, at Paddle's API stand-in), and the plan's management
 * (the Paddle API answered by a stand-in).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthResponseSchema,
  BillingHistoryResponseSchema,
  EmailVerifyResponseSchema,
  MESSAGES,
  TryOnListResponseSchema,
  TryOnResponseSchema,
  type User,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { newDeviceId, sessionCookieOf, signIn, testApps, type TestApp } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { codeFromMail, linkFromMail, startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { sendJson, startStandInServer, type StandInServer } from '../test/stand-ins/stand-in-server.js';
import { expectApiError } from '../test/api-error.js';
import { envelope, paddleId, signedHeaders, subscriptionData, transactionData } from '@aidressup/paddle-stand-in';
import { mergeUserInto } from '../ledger/ledger.js';
import { setPaddleCustomerId } from '../repositories/users.js';
import { createMailer } from '../mail/mailer.js';
import { runRetention } from '../services/retention.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';

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

const post = (app: FastifyInstance, url: string, payload: unknown, cookie?: string, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });

async function getUser(app: FastifyInstance, cookie: string, id: string): Promise<User> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/user/${id}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return (res.json() as { user: User }).user;
}

/** Asks for a code and reads it from the mail the stand-in received. */
async function mailedCode(app: FastifyInstance, email: string, cookie?: string): Promise<{ code: string; link: URL }> {
  const since = new Date();
  const res = await post(app, '/api/auth/email/start', { email }, cookie);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ success: true });
  const mail = await smtp.waitForMail(email, { since });
  return { code: codeFromMail(mail), link: linkFromMail(mail) };
}

async function signInByEmail(app: FastifyInstance, email: string, cookie: string) {
  const { code } = await mailedCode(app, email, cookie);
  const res = await post(app, '/api/auth/email/verify', { email, code }, cookie);
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
      const plain = await post(app, '/api/auth/anonymous', { deviceId: newDeviceId() });
      expect(String(plain.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
    });
  });

  describe('email sign-in', () => {
    it('answers alike for known and unknown addresses, refuses malformed ones, and mails a code and a link', async () => {
      const { app } = await make();
      const email = newEmail();
      const res = await post(app, '/api/auth/email/start', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const mail = await smtp.waitForMail(email);
      expect(mail.subject).toBe(MESSAGES.signInMailSubject);
      expect(mail.html).toContain(codeFromMail(mail));
      expect(linkFromMail(mail).hash).toMatch(/^#email=[^&]+&token=[A-Za-z0-9_-]{43}$/);
      for (const bad of ['', 'not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`, 42, null]) {
        const r = await post(app, '/api/auth/email/start', { email: bad });
        expectApiError(r, 400, 'INVALID_EMAIL', MESSAGES.invalidEmail);
      }
      // No code is stored in clear.
      const rows = await app.db.selectFrom('email_codes').selectAll().execute();
      expect(
        rows.every((r) => !r.code_hash.includes(codeFromMail(mail)) && /^[A-Za-z0-9_-]{43}$/.test(r.code_hash)),
      ).toBe(true);
    });

    it('writes the mail in the page’s language and refuses a language it does not speak', async () => {
      const { app } = await make();
      const spanish = newEmail();
      expect((await post(app, '/api/auth/email/start', { email: spanish, locale: 'es' })).statusCode).toBe(200);
      const es = await smtp.waitForMail(spanish);
      expect(es.subject).toBe('Tu código para iniciar sesión en AI Dress Up');
      const code = /sesión en AI Dress Up es (\d{6})/.exec(es.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(es.text).toContain('O inicia sesión con un solo clic: ');
      expect(es.html).toContain('<html lang="es" dir="ltr">');
      expect(es.html).toContain(`>${code}</p>`);
      expect(linkFromMail(es).hash).toMatch(/^#email=[^&]+&token=[A-Za-z0-9_-]{43}$/);
      // The Spanish mail's code signs in like any other.
      const verified = await post(app, '/api/auth/email/verify', { email: spanish, code });
      expect(verified.statusCode).toBe(200);

      const arabic = newEmail();
      expect((await post(app, '/api/auth/email/start', { email: arabic, locale: 'ar' })).statusCode).toBe(200);
      const ar = await smtp.waitForMail(arabic);
      expect(ar.subject).toBe('رمز تسجيل الدخول إلى AI Dress Up');
      expect(ar.html).toContain('<html lang="ar" dir="rtl">');
      expect(ar.text).toContain('رمز تسجيل الدخول إلى AI Dress Up هو ');

      for (const locale of ['xx', 'es-ES', 'EN', 42, null]) {
        const bad = await post(app, '/api/auth/email/start', { email: newEmail(), locale });
        expectApiError(bad, 400, 'VALIDATION_ERROR', { message: MESSAGES.invalidRequest, label: String(locale) });
      }
      // A bad address is still INVALID_EMAIL, whatever the language.
      const both = await post(app, '/api/auth/email/start', { email: 'nope', locale: 'xx' });
      expectApiError(both, 400, 'INVALID_EMAIL');
    });

    it('limits mails per address and per client address', async () => {
      const { app } = await make({ EMAIL_CODES_PER_ADDRESS_PER_HOUR: '2', RATE_LIMIT_EMAIL_PER_MINUTE: '4' });
      const email = newEmail();
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await post(app, '/api/auth/email/start', { email }, undefined, '192.0.2.1')).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      const others = [];
      for (let i = 0; i < 3; i++)
        others.push(
          (await post(app, '/api/auth/email/start', { email: newEmail() }, undefined, '192.0.2.1')).statusCode,
        );
      expect(others).toEqual([200, 429, 429]);
    });

    it('says so, without internals, when the mail cannot be sent', async () => {
      const { app } = await make();
      smtp.setFailing(true);
      try {
        const res = await post(app, '/api/auth/email/start', { email: newEmail() });
        expectApiError(res, 503, 'SERVICE_UNAVAILABLE', MESSAGES.mailNotSent);
      } finally {
        smtp.setFailing(false);
      }
    });

    it('gives a new address to the session’s user, keeping its credits, trials and results', async () => {
      const { app } = await make();
      const anon = await signIn(app);
      expect((await tryOn(app, anon.cookie, anon.user.id)).statusCode).toBe(200);
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'weekly' }, anon.cookie)).statusCode).toBe(200);
      const email = newEmail();
      const { body, cookie } = await signInByEmail(app, email, anon.cookie);
      expect(body.merged).toBe(false);
      expect(body.user).toMatchObject({
        id: anon.user.id,
        email: email.toLowerCase(),
        credits: 20,
        free_trials_used: 1,
        segment: 'subscriber',
      });
      // The session was renewed: the old cookie no longer works, the new one does.
      expect(cookie).not.toBe(anon.cookie);
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${anon.user.id}`, headers: { cookie: anon.cookie } }))
          .statusCode,
      ).toBe(401);
      expect((await getUser(app, cookie, anon.user.id)).email).toBe(email.toLowerCase());
    });

    it('carries credits and results to another device: the session moves to the account and the anonymous user merges into it', async () => {
      const { app, clock } = await make();
      // Device A: buys credits, tries one on, saves it all with an email.
      const a = await signIn(app);
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, a.cookie)).statusCode).toBe(200);
      expect((await tryOn(app, a.cookie, a.user.id)).statusCode).toBe(200);
      const email = newEmail();
      await signInByEmail(app, email, a.cookie);

      // Device B, a day later: a stranger to A until the email arrives; it has a result and credits of its own.
      clock.advance(24 * 60 * 60 * 1000);
      const b = await signIn(app);
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'weekly' }, b.cookie)).statusCode).toBe(200);
      expect((await tryOn(app, b.cookie, b.user.id)).statusCode).toBe(200);
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${a.user.id}`, headers: { cookie: b.cookie } }))
          .statusCode,
      ).toBe(403);

      const { body, cookie } = await signInByEmail(app, email.toUpperCase(), b.cookie);
      expect(body.merged).toBe(true);
      expect(body.user).toMatchObject({ id: a.user.id, email: email.toLowerCase(), credits: 200 + 20 });
      const gallery = TryOnListResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
      );
      expect(gallery.items).toHaveLength(2);
      // The ledger records the move on both sides.
      const events = await app.db
        .selectFrom('credit_events')
        .selectAll()
        .where('type', 'in', ['transfer_out', 'transfer_in'])
        .execute();
      expect(events.map((e) => [e.user_id, e.type, e.amount]).sort()).toEqual(
        [
          [a.user.id, 'transfer_in', 20],
          [b.user.id, 'transfer_out', -20],
        ].sort(),
      );
      // The anonymous user is gone for good; the purchase history follows the account.
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${b.user.id}`, headers: { cookie: b.cookie } }))
          .statusCode,
      ).toBe(401);
      const history = BillingHistoryResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/billing/history', headers: { cookie } })).json(),
      );
      expect(history.items.map((i) => [i.planId, i.credits, i.amount, i.currency])).toEqual([
        ['weekly', 20, '5.99', 'USD'],
        ['credits_200', 200, '39.99', 'USD'],
      ]);
    });

    it('signs in with the magic link’s token', async () => {
      const { app } = await make();
      const owner = await signIn(app);
      const email = newEmail();
      await signInByEmail(app, email, owner.cookie);
      const other = await signIn(app);
      const { link } = await mailedCode(app, email, other.cookie);
      const params = new URLSearchParams(link.hash.slice(1));
      const res = await post(
        app,
        '/api/auth/email/verify',
        { email: params.get('email'), token: params.get('token') },
        other.cookie,
      );
      expect(res.statusCode).toBe(200);
      expect(EmailVerifyResponseSchema.parse(res.json()).user.id).toBe(owner.user.id);
      // A link works once.
      const again = await post(
        app,
        '/api/auth/email/verify',
        { email: params.get('email'), token: params.get('token') },
        other.cookie,
      );
      expectApiError(again, 410, 'CODE_EXPIRED');
    });

    it('refuses wrong, used and expired codes with clear messages, and ends a code after five wrong tries', async () => {
      const t = await make();
      const { app, clock } = t;
      const s = await signIn(app);
      const email = newEmail();
      const { code } = await mailedCode(app, email, s.cookie);
      const wrong = code === '000000' ? '000001' : '000000';
      const bad = await post(app, '/api/auth/email/verify', { email, code: wrong }, s.cookie);
      expectApiError(bad, 400, 'INVALID_CODE', MESSAGES.invalidCode);
      for (let i = 0; i < 3; i++)
        expect((await post(app, '/api/auth/email/verify', { email, code: wrong }, s.cookie)).statusCode).toBe(400);
      const fifth = await post(app, '/api/auth/email/verify', { email, code: wrong }, s.cookie);
      expectApiError(fifth, 429, 'CODE_LOCKED', MESSAGES.codeLocked);
      // Dead: even the right code no longer works.
      expect((await post(app, '/api/auth/email/verify', { email, code }, s.cookie)).json()).toMatchObject({
        code: 'CODE_LOCKED',
      });

      // Expired after ten minutes.
      const second = await mailedCode(app, email, s.cookie);
      clock.advance(10 * 60 * 1000 + 1);
      const late = await post(app, '/api/auth/email/verify', { email, code: second.code }, s.cookie);
      expectApiError(late, 410, 'CODE_EXPIRED', MESSAGES.codeExpired);

      // Used once only; a malformed code is refused before any lookup.
      const third = await mailedCode(app, email, s.cookie);
      const ok = await post(app, '/api/auth/email/verify', { email, code: third.code }, s.cookie);
      expect(ok.statusCode).toBe(200);
      const reused = await post(app, '/api/auth/email/verify', { email, code: third.code }, sessionCookieOf(ok));
      expect(reused.statusCode).toBe(410);
      expectApiError(
        await post(app, '/api/auth/email/verify', { email, code: '12ab56' }, s.cookie),
        400,
        'INVALID_CODE',
      );
      expectApiError(
        await post(app, '/api/auth/email/verify', { email: 'nope', code: '123456' }, s.cookie),
        400,
        'INVALID_EMAIL',
      );
    });

    it('moves credits exactly once under concurrent verifies and merges', async () => {
      const { app } = await make();
      const owner = await signIn(app);
      const email = newEmail();
      await signInByEmail(app, email, owner.cookie);
      const anon = await signIn(app);
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, anon.cookie)).statusCode).toBe(
        200,
      );
      const { code } = await mailedCode(app, email, anon.cookie);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => post(app, '/api/auth/email/verify', { email, code }, anon.cookie)),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 410)).toHaveLength(5);
      // The ledger's merge itself is exactly once, whatever races it.
      const merges = await Promise.all(
        Array.from({ length: 5 }, () => mergeUserInto(app.db, { fromUserId: anon.user.id, toUserId: owner.user.id })),
      );
      expect(merges.filter((m) => m.merged)).toHaveLength(0);
      const ok = answers.find((r) => r.statusCode === 200)!;
      expect(EmailVerifyResponseSchema.parse(ok.json()).user.credits).toBe(200);
      const moved = await app.db
        .selectFrom('credit_events')
        .select('amount')
        .where('type', '=', 'transfer_in')
        .execute();
      expect(moved.map((m) => m.amount)).toEqual([200]);
    });
  });

  describe('sign-out and deleting one’s data', () => {
    it('ends the session on the server; a fresh anonymous session gets no new trials on the device', async () => {
      const { app } = await make();
      const deviceId = newDeviceId();
      const s = await signIn(app, deviceId);
      await tryOn(app, s.cookie, s.user.id);
      await tryOn(app, s.cookie, s.user.id);
      const out = await post(app, '/api/auth/logout', {}, s.cookie);
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
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'monthly' }, s.cookie)).statusCode).toBe(200);
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

  describe('managing the plan', () => {
    it('with demo billing: history, the demo portal, and cancelling the plan', async () => {
      const { app } = await make();
      const s = await signIn(app);
      const none = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
      expectApiError(none, 409, 'PORTAL_UNAVAILABLE', MESSAGES.portalUnavailable);
      expect((await post(app, '/api/billing/demo/checkout', { planId: 'yearly' }, s.cookie)).statusCode).toBe(200);
      const portal = await app.inject({ method: 'GET', url: '/api/billing/portal', headers: { cookie: s.cookie } });
      expect(portal.json()).toEqual({ success: true, url: '/billing/demo-portal' });
      const cancel = await post(app, '/api/billing/demo/cancel', {}, s.cookie);
      expect(cancel.statusCode).toBe(200);
      const user = (cancel.json() as { user: User }).user;
      expect(user.subscription).toMatchObject({ planId: 'yearly', status: 'canceled' });
      // Credits already granted stay until the period ends.
      expect(user.credits).toBe(100);
      expect((await post(app, '/api/billing/demo/cancel', {}, s.cookie)).statusCode).toBe(409);
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
    const res = await post(app, '/api/auth/anonymous', { deviceId: newDeviceId() });
    const body = AuthResponseSchema.parse(res.json());
    expect(body).toMatchObject({
      success: true,
      isNew: true,
      user: { email: null, free_trials_withheld: null, credits: 0 },
    });
  });
});
