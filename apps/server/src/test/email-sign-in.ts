/** Email sign-in as a shopper does it, against the SMTP stand-in: ask for a code, read it from the mail, verify. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { codeFromMail, linkFromMail, type SmtpStandIn } from './stand-ins/smtp-stand-in.js';

export interface AsClient {
  /** The session cookie the request carries. */
  cookie?: string | undefined;
  /** The client address the request comes from (app.inject's default otherwise). */
  remoteAddress?: string | undefined;
}

function client({ cookie, remoteAddress }: AsClient) {
  return { ...(cookie ? { headers: { cookie } } : {}), ...(remoteAddress ? { remoteAddress } : {}) };
}

/**
 * The sign-in binding cookie (`aidu_signin`) that `POST /api/auth/email/start` gave the asking
 * browser, as a `name=value` pair.
 */
export function bindingCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'aidu_signin' || c.name === '__Host-aidu_signin');
  if (!cookie) throw new Error(`no sign-in binding cookie in response ${res.statusCode}: ${res.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Cookie pairs joined into one `cookie` header, leaving out the missing ones. */
export function cookieHeader(...pairs: (string | undefined)[]): string {
  return pairs.filter((p): p is string => !!p).join('; ');
}

/**
 * Asks for a sign-in code for `email` and reads the code and the link from the mail that arrives.
 * `cookie` is what the asking browser sends from then on: its session and the sign-in binding.
 */
export async function mailedCode(
  app: FastifyInstance,
  smtp: Pick<SmtpStandIn, 'waitForMail'>,
  email: string,
  as: AsClient = {},
): Promise<{ code: string; link: URL; cookie: string }> {
  const since = new Date();
  const res = await app.inject({ method: 'POST', url: '/api/auth/email/start', payload: { email }, ...client(as) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true });
  const mail = await smtp.waitForMail(email, { since });
  return { code: codeFromMail(mail), link: linkFromMail(mail), cookie: cookieHeader(as.cookie, bindingCookieOf(res)) };
}

/** Signs in by email with the mailed code, from the browser that asked: the verify answer (the caller checks it). */
export async function verifyByEmail(
  app: FastifyInstance,
  smtp: Pick<SmtpStandIn, 'waitForMail'>,
  email: string,
  as: AsClient = {},
): Promise<LightMyRequestResponse> {
  const { code, cookie } = await mailedCode(app, smtp, email, as);
  return app.inject({
    method: 'POST',
    url: '/api/auth/email/verify',
    payload: { email, code },
    ...client({ ...as, cookie }),
  });
}
