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

/** Asks for a sign-in code for `email` and reads the code and the link from the mail that arrives. */
export async function mailedCode(
  app: FastifyInstance,
  smtp: Pick<SmtpStandIn, 'waitForMail'>,
  email: string,
  as: AsClient = {},
): Promise<{ code: string; link: URL }> {
  const since = new Date();
  const res = await app.inject({ method: 'POST', url: '/api/auth/email/start', payload: { email }, ...client(as) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true });
  const mail = await smtp.waitForMail(email, { since });
  return { code: codeFromMail(mail), link: linkFromMail(mail) };
}

/** Signs in by email with the mailed code: the verify answer (the caller checks it). */
export async function verifyByEmail(
  app: FastifyInstance,
  smtp: Pick<SmtpStandIn, 'waitForMail'>,
  email: string,
  as: AsClient = {},
): Promise<LightMyRequestResponse> {
  const { code } = await mailedCode(app, smtp, email, as);
  return app.inject({ method: 'POST', url: '/api/auth/email/verify', payload: { email, code }, ...client(as) });
}
