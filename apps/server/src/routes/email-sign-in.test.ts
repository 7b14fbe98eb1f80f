/**
 * Email sign-in on SQLite and PostgreSQL: codes and links read from the mail a real SMTP stand-in
 * received, their limits, and merging an anonymous shopper into an existing account.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BillingHistoryResponseSchema,
  EmailVerifyResponseSchema,
  MESSAGES,
  TryOnListResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, postJson, sessionCookieOf, signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { codeFromMail, linkFromMail, startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { expectApiError } from '../test/api-error.js';
import { mergeUserInto } from '../ledger/ledger.js';
import { bindingCookieOf, mailedCode as mailedCodeFor, verifyByEmail } from '../test/email-sign-in.js';

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

const mailedCode = (app: FastifyInstance, email: string, cookie?: string) =>
  mailedCodeFor(app, smtp, email, { cookie });

async function signInByEmail(app: FastifyInstance, email: string, cookie: string) {
  const res = await verifyByEmail(app, smtp, email, { cookie });
  expect(res.statusCode).toBe(200);
  return { body: EmailVerifyResponseSchema.parse(res.json()), cookie: sessionCookieOf(res) };
}

describe.each(DATABASE_KINDS)('email sign-in on %s', (kind) => {
  const build = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));
  const make = (env: Record<string, string> = {}) => build({ env });

  describe('email sign-in', () => {
    it('answers alike for known and unknown addresses, refuses malformed ones, and mails a code and a link', async () => {
      const { app } = await make();
      const email = newEmail();
      const res = await postJson(app, '/api/auth/email/start', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const mail = await smtp.waitForMail(email);
      expect(mail.subject).toBe(MESSAGES.signInMailSubject);
      expect(mail.html).toContain(codeFromMail(mail));
      expect(linkFromMail(mail).hash).toMatch(/^#email=[^&]+&token=[A-Za-z0-9_-]{43}$/);
      for (const bad of ['', 'not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`, 42, null]) {
        const r = await postJson(app, '/api/auth/email/start', { email: bad });
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
      const asked = await postJson(app, '/api/auth/email/start', { email: spanish, locale: 'es' });
      expect(asked.statusCode).toBe(200);
      const es = await smtp.waitForMail(spanish);
      expect(es.subject).toBe('Tu código para iniciar sesión en AI Dress Up');
      const code = /sesión en AI Dress Up es (\d{6})/.exec(es.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(es.text).toContain('O inicia sesión con un solo clic: ');
      expect(es.html).toContain('<html lang="es" dir="ltr">');
      expect(es.html).toContain(`>${code}</p>`);
      expect(linkFromMail(es).hash).toMatch(/^#email=[^&]+&token=[A-Za-z0-9_-]{43}$/);
      // The Spanish mail's code signs in like any other.
      const verified = await postJson(app, '/api/auth/email/verify', { email: spanish, code }, bindingCookieOf(asked));
      expect(verified.statusCode).toBe(200);

      const arabic = newEmail();
      expect((await postJson(app, '/api/auth/email/start', { email: arabic, locale: 'ar' })).statusCode).toBe(200);
      const ar = await smtp.waitForMail(arabic);
      expect(ar.subject).toBe('رمز تسجيل الدخول إلى AI Dress Up');
      expect(ar.html).toContain('<html lang="ar" dir="rtl">');
      expect(ar.text).toContain('رمز تسجيل الدخول إلى AI Dress Up هو ');

      for (const locale of ['xx', 'es-ES', 'EN', 42, null]) {
        const bad = await postJson(app, '/api/auth/email/start', { email: newEmail(), locale });
        expectApiError(bad, 400, 'VALIDATION_ERROR', { message: MESSAGES.invalidRequest, label: String(locale) });
      }
      // A bad address is still INVALID_EMAIL, whatever the language.
      const both = await postJson(app, '/api/auth/email/start', { email: 'nope', locale: 'xx' });
      expectApiError(both, 400, 'INVALID_EMAIL');
    });

    it('limits mails per address and per client address', async () => {
      const { app } = await make({ EMAIL_CODES_PER_ADDRESS_PER_HOUR: '2', RATE_LIMIT_EMAIL_PER_MINUTE: '4' });
      const email = newEmail();
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await postJson(app, '/api/auth/email/start', { email }, undefined, '192.0.2.1')).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      const others = [];
      for (let i = 0; i < 3; i++)
        others.push(
          (await postJson(app, '/api/auth/email/start', { email: newEmail() }, undefined, '192.0.2.1')).statusCode,
        );
      expect(others).toEqual([200, 429, 429]);
    });

    it('says so, without internals, when the mail cannot be sent', async () => {
      const { app } = await make();
      smtp.setFailing(true);
      try {
        const res = await postJson(app, '/api/auth/email/start', { email: newEmail() });
        expectApiError(res, 503, 'SERVICE_UNAVAILABLE', MESSAGES.mailNotSent);
      } finally {
        smtp.setFailing(false);
      }
    });

    it('gives a new address to the session’s user, keeping its credits, trials and results', async () => {
      const { app } = await make();
      const anon = await signIn(app);
      expect((await tryOn(app, anon.cookie, anon.user.id)).statusCode).toBe(200);
      expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'weekly' }, anon.cookie)).statusCode).toBe(
        200,
      );
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
      expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, a.cookie)).statusCode).toBe(
        200,
      );
      expect((await tryOn(app, a.cookie, a.user.id)).statusCode).toBe(200);
      const email = newEmail();
      await signInByEmail(app, email, a.cookie);

      // Device B, a day later: a stranger to A until the email arrives; it has a result and credits of its own.
      clock.advance(24 * 60 * 60 * 1000);
      const b = await signIn(app);
      expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'weekly' }, b.cookie)).statusCode).toBe(200);
      expect((await tryOn(app, b.cookie, b.user.id)).statusCode).toBe(200);
      expect(
        (await app.inject({ method: 'GET', url: `/api/auth/user/${a.user.id}`, headers: { cookie: b.cookie } }))
          .statusCode,
      ).toBe(403);

      const { body, cookie } = await signInByEmail(app, email.toUpperCase(), b.cookie);
      expect(body.merged).toBe(true);
      // What joined, as the page reports it: the weekly pass's 20 credits (B's try-on used a free trial) and B's result.
      expect(body.moved).toEqual({ credits: 20, results: 1 });
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

    it('reports that nothing joined the account when the anonymous user had no credits and no results', async () => {
      const { app } = await make();
      const email = newEmail();
      await signInByEmail(app, email, (await signIn(app)).cookie);
      const { body } = await signInByEmail(app, email, (await signIn(app)).cookie);
      expect(body.merged).toBe(true);
      expect(body.moved).toEqual({ credits: 0, results: 0 });
    });
    it('signs in with the magic link’s token', async () => {
      const { app } = await make();
      const owner = await signIn(app);
      const email = newEmail();
      await signInByEmail(app, email, owner.cookie);
      const other = await signIn(app);
      const { link, cookie: browser } = await mailedCode(app, email, other.cookie);
      const params = new URLSearchParams(link.hash.slice(1));
      const res = await postJson(
        app,
        '/api/auth/email/verify',
        { email: params.get('email'), token: params.get('token') },
        browser,
      );
      expect(res.statusCode).toBe(200);
      expect(EmailVerifyResponseSchema.parse(res.json()).user.id).toBe(owner.user.id);
      // A link works once.
      const again = await postJson(
        app,
        '/api/auth/email/verify',
        { email: params.get('email'), token: params.get('token') },
        browser,
      );
      expectApiError(again, 410, 'CODE_EXPIRED');
    });

    it('refuses wrong, used and expired codes with clear messages, and ends a code after five wrong tries', async () => {
      const t = await make();
      const { app, clock } = t;
      const s = await signIn(app);
      const email = newEmail();
      const { code, cookie: browser } = await mailedCode(app, email, s.cookie);
      const wrong = code === '000000' ? '000001' : '000000';
      const bad = await postJson(app, '/api/auth/email/verify', { email, code: wrong }, browser);
      expectApiError(bad, 400, 'INVALID_CODE', MESSAGES.invalidCode);
      for (let i = 0; i < 3; i++)
        expect((await postJson(app, '/api/auth/email/verify', { email, code: wrong }, browser)).statusCode).toBe(400);
      const fifth = await postJson(app, '/api/auth/email/verify', { email, code: wrong }, browser);
      expectApiError(fifth, 429, 'CODE_LOCKED', MESSAGES.codeLocked);
      // Dead: even the right code no longer works.
      expect((await postJson(app, '/api/auth/email/verify', { email, code }, browser)).json()).toMatchObject({
        code: 'CODE_LOCKED',
      });

      // Expired after ten minutes.
      const second = await mailedCode(app, email, browser);
      clock.advance(10 * 60 * 1000 + 1);
      const late = await postJson(app, '/api/auth/email/verify', { email, code: second.code }, browser);
      expectApiError(late, 410, 'CODE_EXPIRED', MESSAGES.codeExpired);

      // Used once only; a malformed code is refused before any lookup.
      const third = await mailedCode(app, email, browser);
      const ok = await postJson(app, '/api/auth/email/verify', { email, code: third.code }, browser);
      expect(ok.statusCode).toBe(200);
      const reused = await postJson(app, '/api/auth/email/verify', { email, code: third.code }, sessionCookieOf(ok));
      expect(reused.statusCode).toBe(410);
      expectApiError(
        await postJson(app, '/api/auth/email/verify', { email, code: '12ab56' }, browser),
        400,
        'INVALID_CODE',
      );
      expectApiError(
        await postJson(app, '/api/auth/email/verify', { email: 'nope', code: '123456' }, browser),
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
      expect(
        (await postJson(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, anon.cookie)).statusCode,
      ).toBe(200);
      const { code, cookie: browser } = await mailedCode(app, email, anon.cookie);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => postJson(app, '/api/auth/email/verify', { email, code }, browser)),
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
});
