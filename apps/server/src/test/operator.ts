/**
 * Test helpers for the operator console (also used by `npm run bench:admin`, so no Vitest here): a
 * mailer that keeps sign-in mails in memory, email sign-in, and try-ons made straight through the
 * ledger (no engine, no images) when a test needs many settled try-ons.
 */
import type { FastifyInstance } from 'fastify';
import { completeTryOn, refundTryOn, reserveTryOn } from '../ledger/ledger.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { newId } from '../db/ids.js';
import { bindingCookieOf, cookieHeader } from './email-sign-in.js';

/** The `name=value` of the answer's session cookie. */
function sessionCookieOf(res: {
  statusCode: number;
  body: string;
  cookies: { name: string; value: string }[];
}): string {
  const cookie = res.cookies.find((c) => c.name === 'aidu_session');
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** A new anonymous session (this module stays free of Vitest, so the admin benchmark can use it). */
async function anonymousCookie(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/anonymous',
    payload: {
      deviceId: `device_operator_${Math.random().toString(36).slice(2, 12)}`,
      deviceInfo: { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' },
    },
  });
  return sessionCookieOf(res);
}

export interface MemoryMailer extends Mailer {
  sent: Mail[];
}

export function memoryMailer(): MemoryMailer {
  const sent: Mail[] = [];
  return {
    kind: 'log',
    sent,
    async send(mail: Mail) {
      sent.push(mail);
    },
    async close() {},
  };
}

let mailSeq = 0;
export const newEmail = (who = 'shopper') =>
  `${who}.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Starts and verifies an email sign-in (from `cookie`'s session, or a new anonymous one); the raw verify answer. */
export async function verifyEmail(app: FastifyInstance, mailer: MemoryMailer, email: string, cookie?: string) {
  const session = cookie ?? (await anonymousCookie(app));
  const start = await app.inject({
    method: 'POST',
    url: '/api/auth/email/start',
    payload: { email },
    headers: { cookie: session },
  });
  if (start.statusCode !== 200) throw new Error(`email start failed: ${start.statusCode} ${start.body}`);
  const mail = [...mailer.sent].reverse().find((m) => m.to === email);
  const code = /sign-in code is (\d{6})/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return app.inject({
    method: 'POST',
    url: '/api/auth/email/verify',
    payload: { email, code },
    headers: { cookie: cookieHeader(session, bindingCookieOf(start)) },
  });
}

/** Signs in by email; the session cookie and the account's id. */
export async function signInByEmail(
  app: FastifyInstance,
  mailer: MemoryMailer,
  email: string,
): Promise<{ cookie: string; userId: string }> {
  const res = await verifyEmail(app, mailer, email);
  if (res.statusCode !== 200) throw new Error(`email sign-in failed: ${res.statusCode} ${res.body}`);
  return { cookie: sessionCookieOf(res), userId: res.json<{ user: { id: string } }>().user.id };
}

/**
 * A settled try-on made through the ledger: `units` 2 is a whole outfit; `fail` refunds it as
 * the engine's refusal or failure instead of completing it.
 */
export async function ledgerTryOn(
  app: FastifyInstance,
  userId: string,
  opts: {
    units?: number;
    engine?: string;
    fail?: string;
    now?: Date;
    /** The engine that made it (another after a failover) and what it cost, recorded as it completes. */
    made?: { engine: string; costMicros: number };
  } = {},
): Promise<string> {
  const now = opts.now ?? app.clock();
  const reserved = await reserveTryOn(app.db, {
    userId,
    freeTrialsLimit: app.config.freeTrialsLimit,
    category: 'upper_body',
    engine: opts.engine ?? 'test-double',
    units: opts.units ?? 1,
    now,
  });
  if (!reserved.ok) throw new Error('no free trials or credits for a try-on');
  const id = reserved.tryon.id;
  if (opts.fail) {
    await refundTryOn(app.db, { tryonId: id, errorCode: opts.fail, now: new Date(now.getTime() + 800) });
  } else {
    await completeTryOn(app.db, {
      tryonId: id,
      resultName: `${newId()}${newId()}x.jpg`,
      now: new Date(now.getTime() + 1500),
      made: opts.made,
    });
  }
  return id;
}
