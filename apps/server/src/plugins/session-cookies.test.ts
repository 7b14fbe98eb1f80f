/**
 * Security review, round two (items 1, 2 and 5): no everlasting cookie of the old format, a merge
 * that hands over no session, and a cookie that is Secure and `__Host-` whenever the product is
 * served over https.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailVerifyResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { testApps, newDeviceId, signIn } from '../test/app.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { createSession } from '../repositories/sessions.js';
import { verifyByEmail } from '../test/email-sign-in.js';

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.close();
});

let mailSeq = 0;
const newEmail = () => `cookie.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}@example.com`;

/** The Set-Cookie lines of a response. */
function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

/** `name=value` of the named cookie a response sets. */
function cookieOf(res: LightMyRequestResponse, name: string): string {
  const cookie = res.cookies.find((c) => c.name === name && c.value !== '');
  if (!cookie) throw new Error(`no ${name} cookie in response ${res.statusCode}: ${setCookies(res).join(' | ')}`);
  return `${cookie.name}=${cookie.value}`;
}

const deviceInfo = { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' };

describe.each(DATABASE_KINDS)('session cookies on %s', (kind) => {
  const newApp = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));
  const make = (env: Record<string, string> = {}) => newApp({ env });

  const me = (app: FastifyInstance, id: string, cookie: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/auth/user/${id}`, headers: { ...headers, cookie } });

  const signInByEmail = (app: FastifyInstance, email: string, cookie: string, remoteAddress = '203.0.113.10') =>
    verifyByEmail(app, smtp, email, { cookie, remoteAddress });

  it('attack 1: a cookie of the old format (a signed user id) opens nothing, and makes no session', async () => {
    const { app } = await make();
    const { user } = await signIn(app);
    const forged = `aidu_session=${app.signCookie(user.id)}`;
    const before = await app.db.selectFrom('sessions').select('id').execute();
    for (let i = 0; i < 3; i++) {
      const res = await me(app, user.id, forged);
      expect(res.statusCode).toBe(401);
      expect(setCookies(res)).toEqual([]);
    }
    expect(await app.db.selectFrom('sessions').select('id').execute()).toHaveLength(before.length);
  });

  it('attack 1: signing out ends every way back in', async () => {
    const { app } = await make();
    const s = await signIn(app);
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: s.cookie } });
    expect(out.statusCode).toBe(200);
    expect((await me(app, s.user.id, s.cookie)).statusCode).toBe(401);
    expect((await me(app, s.user.id, `aidu_session=${app.signCookie(s.user.id)}`)).statusCode).toBe(401);
  });

  it('attack 2: a planted cookie does not put its planter into the account it signs in to', async () => {
    const { app, clock } = await make();
    // The victim has an account.
    const victimEmail = newEmail();
    const victimFirst = await signIn(app);
    const owned = await signInByEmail(app, victimEmail, victimFirst.cookie);
    expect(owned.statusCode).toBe(200);
    const victimId = EmailVerifyResponseSchema.parse(owned.json()).user.id;

    // The attacker is an anonymous user with two sessions: one kept, one planted in the victim's browser.
    const attacker = await signIn(app, newDeviceId(), '198.51.100.66');
    const token = await createSession(app.db, {
      userId: attacker.user.id,
      now: clock.now,
      ttlMs: 365 * 24 * 3600 * 1000,
      cookieName: 'aidu_session',
    });
    const planted = `aidu_session=${app.signCookie(`s1.${token}`)}`;
    expect((await me(app, attacker.user.id, planted)).statusCode).toBe(200);

    // The victim signs in from the browser holding the planted cookie: the anonymous user merges in.
    const res = await signInByEmail(app, victimEmail, planted);
    expect(res.statusCode).toBe(200);
    const body = EmailVerifyResponseSchema.parse(res.json());
    expect(body.user.id).toBe(victimId);
    expect(body.merged).toBe(true);
    // A new session id for the victim, neither of the attacker's.
    const victimCookie = cookieOf(res, 'aidu_session');
    expect(victimCookie).not.toBe(planted);
    expect(victimCookie).not.toBe(attacker.cookie);
    expect((await me(app, victimId, victimCookie)).statusCode).toBe(200);

    // The attacker's kept session opens neither the victim's account nor the merged user.
    expect((await me(app, victimId, attacker.cookie)).statusCode).toBe(401);
    expect((await me(app, attacker.user.id, attacker.cookie)).statusCode).toBe(401);
    const gallery = await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: attacker.cookie } });
    expect(gallery.statusCode).toBe(401);
    const rows = await app.db
      .selectFrom('sessions')
      .select('user_id')
      .where('user_id', '=', attacker.user.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('attack 2: a planted cookie does not put its planter into the account a new address makes of it', async () => {
    const { app, clock } = await make();
    const attacker = await signIn(app, newDeviceId(), '198.51.100.66');
    const token = await createSession(app.db, {
      userId: attacker.user.id,
      now: clock.now,
      ttlMs: 365 * 24 * 3600 * 1000,
      cookieName: 'aidu_session',
    });
    const planted = `aidu_session=${app.signCookie(`s1.${token}`)}`;
    // The victim signs in with an address that has no account yet: the anonymous user takes it.
    const res = await signInByEmail(app, newEmail(), planted);
    expect(res.statusCode).toBe(200);
    const body = EmailVerifyResponseSchema.parse(res.json());
    expect(body.user.id).toBe(attacker.user.id);
    expect(body.merged).toBe(false);
    expect((await me(app, body.user.id, cookieOf(res, 'aidu_session'))).statusCode).toBe(200);
    // The attacker's kept session no longer opens it.
    expect((await me(app, body.user.id, attacker.cookie)).statusCode).toBe(401);
  });

  it('issues a new session id on every sign-in', async () => {
    const { app } = await make();
    const s = await signIn(app);
    const email = newEmail();
    const first = await signInByEmail(app, email, s.cookie);
    const c1 = cookieOf(first, 'aidu_session');
    expect(c1).not.toBe(s.cookie);
    expect((await me(app, s.user.id, s.cookie)).statusCode).toBe(401);
    const second = await signInByEmail(app, email, c1);
    const c2 = cookieOf(second, 'aidu_session');
    expect(c2).not.toBe(c1);
    expect((await me(app, s.user.id, c1)).statusCode).toBe(401);
    expect((await me(app, s.user.id, c2)).statusCode).toBe(200);
  });

  it('attack 5: behind a TLS proxy without TRUST_PROXY, an https PUBLIC_URL makes the cookie Secure and __Host-', async () => {
    const { app } = await make({ PUBLIC_URL: 'https://dress.example' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { origin: 'https://dress.example' },
      payload: { deviceId: newDeviceId(), deviceInfo },
    });
    expect(res.statusCode).toBe(200);
    const [line] = setCookies(res);
    expect(line).toMatch(/^__Host-aidu_session=s1\./);
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\//i);
    expect(line).not.toMatch(/Domain=/i);
    const cookie = cookieOf(res, '__Host-aidu_session');
    const user = (res.json() as { user: { id: string } }).user;
    expect((await me(app, user.id, cookie)).statusCode).toBe(200);
    // The same value under the plain name is not read over https.
    expect((await me(app, user.id, cookie.replace(/^__Host-/, ''))).statusCode).toBe(401);
  });

  it('marks the cookie Secure and __Host- when a trusted proxy says https, and keeps aidu_session over plain http', async () => {
    const { app } = await make({ TRUST_PROXY: '1' });
    const https = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.50' },
      payload: { deviceId: newDeviceId(), deviceInfo },
    });
    expect(setCookies(https)[0]).toMatch(/^__Host-aidu_session=.*;\s*Secure/i);
    const plain = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      payload: { deviceId: newDeviceId(), deviceInfo },
    });
    const [line] = setCookies(plain);
    expect(line).toMatch(/^aidu_session=s1\./);
    expect(line).not.toMatch(/Secure/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
  });

  it('over https, refuses a plain-named cookie issued since (planted over http or by a sibling domain)', async () => {
    const { app } = await make({ TRUST_PROXY: '1' });
    // Issued over plain http: the name recorded is aidu_session.
    const plain = await signIn(app);
    const res = await me(app, plain.user.id, plain.cookie, {
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.50',
    });
    expect(res.statusCode).toBe(401);
    expect(setCookies(res).filter((l) => l.startsWith('__Host-'))).toEqual([]);
  });

  it('moves a session from before cookie names were kept to the __Host- name once, ending the old one a minute later', async () => {
    const { app, clock } = await make({ PUBLIC_URL: 'https://dress.example' });
    const first = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      payload: { deviceId: newDeviceId(), deviceInfo },
    });
    const s = { cookie: cookieOf(first, '__Host-aidu_session'), user: (first.json() as { user: { id: string } }).user };
    const old = s.cookie.replace(/^__Host-/, '');
    // As a session issued before this change has it.
    await app.db.updateTable('sessions').set({ cookie_name: null }).where('user_id', '=', s.user.id).execute();
    const res = await me(app, s.user.id, old);
    expect(res.statusCode).toBe(200);
    const renamed = cookieOf(res, '__Host-aidu_session');
    expect(renamed.slice('__Host-'.length)).not.toBe(old);
    expect(setCookies(res).some((l) => /^aidu_session=;/.test(l))).toBe(true);
    // Requests in flight with the old cookie still work for a minute, then never.
    expect((await me(app, s.user.id, old)).statusCode).toBe(200);
    clock.advance(61_000);
    expect((await me(app, s.user.id, old)).statusCode).toBe(401);
    expect((await me(app, s.user.id, renamed)).statusCode).toBe(200);
  });

  it('uses SameSite=None; Secure with the __Host- name when CORS_ORIGIN needs it', async () => {
    const { app } = await make({ CORS_ORIGIN: 'https://shop.example.com' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { origin: 'https://shop.example.com' },
      payload: { deviceId: newDeviceId(), deviceInfo },
    });
    const [line] = setCookies(res);
    expect(line).toMatch(/^__Host-aidu_session=/);
    expect(line).toMatch(/;\s*SameSite=None/i);
    expect(line).toMatch(/;\s*Secure/i);
  });
});
