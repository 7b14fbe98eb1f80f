/**
 * A sign-in link or code used in another browser than the one that asked for it, on SQLite and
 * PostgreSQL. The attack: someone signs in to their own account, asks for a second link for their
 * own address and sends it to a shopper who uses the site anonymously. Opening it must not move
 * the shopper's kept photos, results or bought credits into the sender's account: the server asks
 * first (409 CONFIRM_OTHER_BROWSER, the address masked) and, when confirmed, signs that browser in
 * without any merge. From the browser that asked, the link and the code merge as before.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfirmOtherBrowserResponseSchema,
  EmailVerifyResponseSchema,
  ListPhotosResponseSchema,
  MESSAGES,
  TryOnListResponseSchema,
  maskEmail,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, postJson, sessionCookieOf, signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { mailedCode, verifyByEmail } from '../test/email-sign-in.js';

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

let seq = 0;
const newEmail = (who: string) =>
  `${who}.${process.pid}.${++seq}.${Math.random().toString(36).slice(2, 8)}@evil.example`;

async function photosOf(app: FastifyInstance, cookie: string) {
  const res = await app.inject({ method: 'GET', url: '/api/photos', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ListPhotosResponseSchema.parse(res.json()).photos;
}

async function resultsOf(app: FastifyInstance, cookie: string) {
  const res = await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return TryOnListResponseSchema.parse(res.json()).items;
}

/** An anonymous shopper with a kept photo, a result made from it and 200 bought credits. */
async function shopperWithThings(app: FastifyInstance) {
  const shopper = await signIn(app, undefined, '192.0.2.50');
  const keep = await postMultipart(app, '/api/photos', { photo: { data: PERSON } }, shopper.cookie);
  expect(keep.statusCode, keep.body).toBe(200);
  const photoId = (keep.json() as { photo: { id: string } }).photo.id;
  const tryOn = await postMultipart(
    app,
    '/api/process-image',
    {
      personPhotoId: photoId,
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId: shopper.user.id,
    },
    shopper.cookie,
  );
  expect(tryOn.statusCode, tryOn.body).toBe(200);
  const bought = await postJson(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, shopper.cookie);
  expect(bought.statusCode, bought.body).toBe(200);
  return { ...shopper, photoId };
}

describe.each(DATABASE_KINDS)('a sign-in link used in another browser, on %s', (kind) => {
  const build = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));

  for (const by of ['link', 'code'] as const) {
    it(`asks first and, confirmed, hands the sender none of the shopper's photos, results or credits (by ${by})`, async () => {
      const { app } = await build();
      // The attacker's account, and a second link or code for it, asked for in the attacker's browser.
      const attackerEmail = newEmail('attacker');
      const own = await verifyByEmail(app, smtp, attackerEmail, { cookie: (await signIn(app)).cookie });
      expect(own.statusCode, own.body).toBe(200);
      const attacker = { cookie: sessionCookieOf(own), id: EmailVerifyResponseSchema.parse(own.json()).user.id };
      const sent = await mailedCode(app, smtp, attackerEmail, { cookie: attacker.cookie });
      const params = new URLSearchParams(sent.link.hash.slice(1));
      const proof =
        by === 'link'
          ? { email: params.get('email'), token: params.get('token') }
          : { email: attackerEmail, code: sent.code };

      const shopper = await shopperWithThings(app);
      const before = await getUser(app, shopper.cookie, shopper.user.id);
      expect(before.credits).toBe(200);

      // The shopper's browser, which never asked: a question, with the address masked; nothing used up.
      const asked = await postJson(app, '/api/auth/email/verify', proof, shopper.cookie, '192.0.2.50');
      expect(asked.statusCode, asked.body).toBe(409);
      expect(ConfirmOtherBrowserResponseSchema.parse(asked.json())).toEqual({
        success: false,
        code: 'CONFIRM_OTHER_BROWSER',
        error: MESSAGES.confirmOtherBrowser,
        email: maskEmail(attackerEmail),
      });
      expect(maskEmail(attackerEmail)).toMatch(/^a•••@evil\.example$/);
      expect(asked.cookies.find((c) => /aidu_session/.test(c.name))).toBeUndefined();
      // The shopper's session still works, with everything in it.
      expect((await getUser(app, shopper.cookie, shopper.user.id)).credits).toBe(200);

      // Confirmed: this browser is signed in to the attacker's account, and nothing of it moved.
      const confirmed = await postJson(app, '/api/auth/email/verify', { ...proof, confirm: true }, shopper.cookie);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const body = EmailVerifyResponseSchema.parse(confirmed.json());
      expect(body.user.id).toBe(attacker.id);
      expect(body.merged).toBe(false);
      expect(body.moved).toEqual({ credits: 0, results: 0 });

      // What the attacker sees: no photo of the shopper's, no result, no credit.
      expect(await photosOf(app, attacker.cookie)).toEqual([]);
      expect(await resultsOf(app, attacker.cookie)).toEqual([]);
      expect((await getUser(app, attacker.cookie, attacker.id)).credits).toBe(0);
      const thumb = await app.inject({
        method: 'GET',
        url: `/api/photos/${shopper.photoId}/thumbnail`,
        headers: { cookie: attacker.cookie },
      });
      expect(thumb.statusCode).toBe(404);
      const useIt = await postMultipart(
        app,
        '/api/process-image',
        {
          personPhotoId: shopper.photoId,
          clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
          category: 'upper_body',
          userId: attacker.id,
        },
        attacker.cookie,
      );
      expect(useIt.statusCode).toBe(404);

      // The shopper's anonymous user still holds all of it.
      const row = await app.db
        .selectFrom('users')
        .select(['merged_into', 'deleted_at'])
        .where('id', '=', shopper.user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ merged_into: null, deleted_at: null });
      const photoRows = await app.db
        .selectFrom('person_photos')
        .select('user_id')
        .where('id', '=', shopper.photoId)
        .execute();
      expect(photoRows).toEqual([{ user_id: shopper.user.id }]);
      const tryonOwners = await app.db
        .selectFrom('tryons')
        .select('user_id')
        .where('user_id', '=', shopper.user.id)
        .execute();
      expect(tryonOwners).toHaveLength(1);
      const credits = await app.db
        .selectFrom('credit_grants')
        .select((eb) => eb.fn.sum<number | string>('remaining').as('n'))
        .where('user_id', '=', shopper.user.id)
        .executeTakeFirstOrThrow();
      expect(Number(credits.n)).toBe(200);
      // The proof signs in once.
      const again = await postJson(app, '/api/auth/email/verify', { ...proof, confirm: true }, shopper.cookie);
      expect(again.statusCode).toBe(410);
    });

    it(`merges as before from the browser that asked (by ${by})`, async () => {
      const { app } = await build();
      const email = newEmail('owner');
      const first = await verifyByEmail(app, smtp, email, { cookie: (await signIn(app)).cookie });
      const ownerId = EmailVerifyResponseSchema.parse(first.json()).user.id;

      const shopper = await shopperWithThings(app);
      const sent = await mailedCode(app, smtp, email, { cookie: shopper.cookie });
      const params = new URLSearchParams(sent.link.hash.slice(1));
      const proof =
        by === 'link' ? { email: params.get('email'), token: params.get('token') } : { email, code: sent.code };
      const res = await postJson(app, '/api/auth/email/verify', proof, sent.cookie);
      expect(res.statusCode, res.body).toBe(200);
      const body = EmailVerifyResponseSchema.parse(res.json());
      expect(body).toMatchObject({ merged: true, moved: { credits: 200, results: 1 }, user: { id: ownerId } });
      const cookie = sessionCookieOf(res);
      expect((await photosOf(app, cookie)).map((p) => p.id)).toEqual([shopper.photoId]);
      expect(await resultsOf(app, cookie)).toHaveLength(1);
    });
  }

  it('confirmed in another browser, a new address becomes a new account, not that browser’s anonymous user', async () => {
    const { app } = await build();
    const email = newEmail('fresh');
    const asker = await signIn(app);
    const sent = await mailedCode(app, smtp, email, { cookie: asker.cookie });
    const shopper = await shopperWithThings(app);
    const proof = { email, code: sent.code };
    expect((await postJson(app, '/api/auth/email/verify', proof, shopper.cookie)).statusCode).toBe(409);
    const res = await postJson(app, '/api/auth/email/verify', { ...proof, confirm: true }, shopper.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = EmailVerifyResponseSchema.parse(res.json());
    expect(body.user.id).not.toBe(shopper.user.id);
    expect(body.user.id).not.toBe(asker.user.id);
    expect(body.user.credits).toBe(0);
    expect(await photosOf(app, sessionCookieOf(res))).toEqual([]);
    const row = await app.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', shopper.user.id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBeNull();
  });

  it('does not let a forged or missing binding cookie pass for the asking browser', async () => {
    const { app } = await build();
    const email = newEmail('forged');
    const sent = await mailedCode(app, smtp, email, { cookie: (await signIn(app)).cookie });
    const shopper = await signIn(app);
    for (const forged of ['aidu_signin=x', `aidu_signin=${'A'.repeat(43)}`, '__Host-aidu_signin=abc']) {
      const res = await postJson(
        app,
        '/api/auth/email/verify',
        { email, code: sent.code },
        `${shopper.cookie}; ${forged}`,
      );
      expect(res.statusCode, forged).toBe(409);
    }
    // The real one still works afterwards: the questions used nothing up.
    expect((await postJson(app, '/api/auth/email/verify', { email, code: sent.code }, sent.cookie)).statusCode).toBe(
      200,
    );
  });
});
