/**
 * Security review, round two (items 6 and 7): no one can lock a stranger out of email sign-in,
 * wrong codes count per code, per email address and per client address, and `+tag` variants of
 * one address share its mail allowance.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailVerifyResponseSchema, MESSAGES } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { testApps } from '../test/app.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { mailedCode as mailedCodeFor } from '../test/email-sign-in.js';

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.close();
});

let mailSeq = 0;
const newEmail = (tag = '') =>
  `victim.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}${tag}@example.com`;

const VICTIM_IP = '203.0.113.10';
const ATTACKER_IP = '198.51.100.66';

const start = (app: FastifyInstance, email: string, ip: string) =>
  app.inject({ method: 'POST', url: '/api/auth/email/start', remoteAddress: ip, payload: { email } });

/** One browser per client address: the sign-in binding cookie it was given when it asked for a code. */
const browsers = new Map<string, string>();

const verify = (app: FastifyInstance, email: string, code: string, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/email/verify',
    remoteAddress: ip,
    payload: { email, code },
    ...(browsers.has(ip) ? { headers: { cookie: browsers.get(ip)! } } : {}),
  });

/** Asks for a code from `ip` (that address's browser) and reads it from the mail. */
async function mailedCode(app: FastifyInstance, email: string, ip: string): Promise<string> {
  const { code, cookie } = await mailedCodeFor(app, smtp, email, { remoteAddress: ip, cookie: browsers.get(ip) });
  browsers.set(ip, cookie);
  return code;
}

const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');

describe.each(DATABASE_KINDS)('sign-in abuse on %s', (kind) => {
  const newApp = testApps(kind, () => ({ env: { SMTP_URL: smtp.url, RATE_LIMIT_EMAIL_PER_MINUTE: '1000' } }));
  const make = (env: Record<string, string> = {}) => newApp({ env });

  it('attack 6: five requests and five wrong codes from elsewhere do not lock the shopper out', async () => {
    const { app } = await make();
    const email = newEmail();
    // The victim's account exists.
    const first = await mailedCode(app, email, VICTIM_IP);
    const created = await verify(app, email, first, VICTIM_IP);
    expect(created.statusCode).toBe(200);
    const victimId = EmailVerifyResponseSchema.parse(created.json()).user.id;

    // The attacker asks for five mails and tries five wrong codes.
    for (let i = 0; i < 5; i++) expect((await start(app, email, ATTACKER_IP)).statusCode).toBe(200);
    expect((await start(app, email, ATTACKER_IP)).json()).toMatchObject({ code: 'RATE_LIMITED' });
    const guesses = [];
    for (let i = 0; i < 5; i++) guesses.push((await verify(app, email, String(100000 + i), ATTACKER_IP)).statusCode);
    expect(guesses.slice(0, 4)).toEqual([400, 400, 400, 400]);
    expect(guesses[4]).toBe(429);

    // The victim asks for a fresh code from their own address, while the attacker keeps guessing.
    const code = await mailedCode(app, email, VICTIM_IP);
    for (let i = 0; i < 3; i++) await verify(app, email, wrongFor(code), ATTACKER_IP);
    const res = await verify(app, email, code, VICTIM_IP);
    expect(res.statusCode).toBe(200);
    expect(EmailVerifyResponseSchema.parse(res.json()).user.id).toBe(victimId);
  });

  it('attack 6: wrong codes from many addresses do not use up the tries of the shopper who asked', async () => {
    const { app } = await make();
    const email = newEmail();
    const code = await mailedCode(app, email, VICTIM_IP);
    // Five strangers, five wrong codes: the code is dead for strangers ...
    for (let i = 0; i < 5; i++) await verify(app, email, wrongFor(code), `198.51.100.${i + 1}`);
    const stranger = await verify(app, email, code, '198.51.100.200');
    expect(stranger.json()).toEqual({ success: false, code: 'CODE_LOCKED', error: MESSAGES.codeLocked });
    // ... and still good from where it was asked for.
    expect((await verify(app, email, code, VICTIM_IP)).statusCode).toBe(200);
  });

  it('still ends a code after five wrong tries from the address that asked for it', async () => {
    const { app } = await make();
    const email = newEmail();
    const code = await mailedCode(app, email, VICTIM_IP);
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await verify(app, email, wrongFor(code), VICTIM_IP)).json().code);
    expect(codes).toEqual(['INVALID_CODE', 'INVALID_CODE', 'INVALID_CODE', 'INVALID_CODE', 'CODE_LOCKED']);
    expect((await verify(app, email, code, VICTIM_IP)).json()).toMatchObject({ code: 'CODE_LOCKED' });
    // A fresh code works.
    expect((await verify(app, email, await mailedCode(app, email, VICTIM_IP), VICTIM_IP)).statusCode).toBe(200);
  });

  it('counts wrong codes per client address, across email addresses', async () => {
    const { app } = await make({ SIGN_IN_FAILURES_PER_IP_PER_HOUR: '6' });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const email = newEmail();
      const code = await mailedCode(app, email, VICTIM_IP);
      answers.push((await verify(app, email, wrongFor(code), ATTACKER_IP)).statusCode);
      answers.push((await verify(app, email, wrongFor(code), ATTACKER_IP)).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 400, 429, 429]);
    // Another client address is not affected.
    const email = newEmail();
    const code = await mailedCode(app, email, VICTIM_IP);
    expect((await verify(app, email, code, VICTIM_IP)).statusCode).toBe(200);
  });

  it('counts wrong codes per email address: past the limit, only the address that asked may try', async () => {
    const { app } = await make({ SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR: '3' });
    const email = newEmail();
    const code = await mailedCode(app, email, VICTIM_IP);
    // Three strangers guess once each: the fourth is refused even with the right code.
    for (let i = 0; i < 3; i++) await verify(app, email, wrongFor(code), `198.51.100.${i + 1}`);
    expect((await verify(app, email, code, '198.51.100.9')).json()).toMatchObject({ code: 'CODE_LOCKED' });
    // An attacker who asks for a code of their own gets tries at that code only.
    const own = await mailedCode(app, email, ATTACKER_IP);
    expect((await verify(app, email, code, ATTACKER_IP)).json()).toMatchObject({ code: 'INVALID_CODE' });
    expect(own).toMatch(/^\d{6}$/);
    expect((await verify(app, email, code, VICTIM_IP)).statusCode).toBe(200);
  });

  it('a code someone else asks for does not void the shopper’s', async () => {
    const { app } = await make();
    const email = newEmail();
    const code = await mailedCode(app, email, VICTIM_IP);
    await mailedCode(app, email, ATTACKER_IP);
    expect((await verify(app, email, code, VICTIM_IP)).statusCode).toBe(200);
    // Signed in: every code of the address is used up.
    const again = await verify(app, email, code, VICTIM_IP);
    expect(again.json()).toMatchObject({ code: 'CODE_EXPIRED' });
  });

  it('attack 7: +tag variants of one address share its mail allowance', async () => {
    const { app } = await make({ EMAIL_CODES_PER_ADDRESS_PER_HOUR: '2' });
    const base = newEmail();
    const [local, domain] = base.split('@') as [string, string];
    const statuses = [];
    for (const tag of ['', '+a', '+b', '+c'])
      statuses.push((await start(app, `${local}${tag}@${domain}`, ATTACKER_IP)).statusCode);
    expect(statuses).toEqual([200, 200, 429, 429]);
    // From another client address the mailbox still gets mail, up to four times the allowance in all.
    const others = [];
    for (let i = 0; i < 8; i++) others.push((await start(app, `${local}+x${i}@${domain}`, `192.0.2.${i}`)).statusCode);
    expect(others).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});
