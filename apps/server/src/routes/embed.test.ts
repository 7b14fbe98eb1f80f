/**
 * The "Try it on" widget of shops on SQLite and PostgreSQL (docs/embed.md): merchants made by an
 * operator (keys, origins, credits through the ledger, audited), key rotation, the usage call with
 * and without the secret key, embed sessions bound to allowed origins, try-ons charged to the
 * merchant (refunded on failure, nothing charged when refused), the daily caps, the frame's CSP
 * and the script.
 */
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '@aidressup/engine';
import {
  AdminAuditResponseSchema,
  AdminMerchantCreatedResponseSchema,
  AdminMerchantDetailResponseSchema,
  AdminMerchantListResponseSchema,
  AdminMerchantResponseSchema,
  EmbedSessionResponseSchema,
  EmbedTryOnResponseSchema,
  ERROR_MESSAGES,
  ErrorResponseSchema,
  MerchantUsageResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { type TestApp, testApps } from '../test/app.js';
import { jpeg, multipart, png } from '../test/images.js';
import { memoryMailer, newEmail, signInByEmail, type MemoryMailer } from '../test/operator.js';
import { runRetention } from '../services/retention.js';

const SHOP = 'https://shop.example';
const OTHER = 'https://evil.example';
const OWN = 'http://localhost';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

describe.each(DATABASE_KINDS)('the shop widget on %s', (kind) => {
  const newApp = testApps(kind);
  let t: TestApp;
  let mailer: MemoryMailer;
  let operator: { cookie: string; userId: string };
  const operatorEmail = newEmail('operator');
  beforeAll(async () => {
    mailer = memoryMailer();
    t = await newApp({ mailer, env: { ADMIN_EMAILS: operatorEmail } });
    operator = await signInByEmail(t.app, mailer, operatorEmail);
  });

  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: operator.cookie } });

  async function createMerchant(extra: Record<string, unknown> = {}) {
    const res = await admin('POST', '/api/admin/merchants', {
      name: 'Shop Example',
      allowedOrigins: [SHOP, 'http://localhost:4321/'],
      billing: 'merchant',
      credits: 3,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return AdminMerchantCreatedResponseSchema.parse(res.json());
  }

  async function session(key: string, origin = SHOP, ip = '198.51.100.7') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/embed/session',
      payload: { key },
      headers: { origin },
      remoteAddress: ip,
    });
    return res;
  }

  async function tokenFor(key: string, ip?: string) {
    const res = await session(key, SHOP, ip);
    expect(res.statusCode, res.body).toBe(200);
    return EmbedSessionResponseSchema.parse(res.json()).token;
  }

  function embedTryOn(
    token: string | undefined,
    fields = {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, contentType: 'image/png', filename: 'g.png' },
    },
  ) {
    const body = multipart({ ...fields, category: 'upper_body' });
    return t.app.inject({
      method: 'POST',
      url: '/api/embed/tryon',
      headers: { ...body.headers, origin: OWN, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: body.payload,
    });
  }

  const credits = async (id: string) =>
    AdminMerchantDetailResponseSchema.parse((await admin('GET', `/api/admin/merchants/${id}`)).json()).merchant.credits;

  it('creates a merchant: pk_ and a secret sk_ shown once, origins normalised, credits through the ledger, audited', async () => {
    const { merchant, secretKey } = await createMerchant();
    expect(merchant.publishableKey).toMatch(/^pk_/);
    expect(secretKey).toMatch(/^sk_/);
    expect(merchant.secretKey).toBe(secretKey);
    expect(merchant.allowedOrigins).toEqual([SHOP, 'http://localhost:4321']);
    expect(merchant.billing).toBe('merchant');
    expect(merchant.credits).toBe(3);

    const list = AdminMerchantListResponseSchema.parse((await admin('GET', '/api/admin/merchants')).json());
    const listed = list.items.find((m) => m.id === merchant.id)!;
    expect(listed.publishableKey).toBe(merchant.publishableKey);
    // The secret key is never shown again.
    expect(JSON.stringify(list)).not.toContain(secretKey);
    expect((await admin('GET', `/api/admin/merchants/${merchant.id}`)).body).not.toContain(secretKey);

    const audit = AdminAuditResponseSchema.parse((await admin('GET', '/api/admin/audit')).json());
    expect(audit.items.some((row) => row.action === 'merchant.create' && row.target_id === merchant.id)).toBe(true);
  });

  it('refuses bad merchant input and non-operators', async () => {
    const bad = await admin('POST', '/api/admin/merchants', {
      name: 'X',
      allowedOrigins: ['https://shop.example/path'],
    });
    expect(bad.statusCode).toBe(400);
    const none = await admin('POST', '/api/admin/merchants', { name: 'X', allowedOrigins: [] });
    expect(none.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/merchants' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('adds and removes credits with a reason, never below zero, audited', async () => {
    const { merchant } = await createMerchant({ credits: 0 });
    const add = await admin('POST', `/api/admin/merchants/${merchant.id}/credits`, { amount: 5, reason: 'invoice 12' });
    expect(AdminMerchantResponseSchema.parse(add.json()).merchant.credits).toBe(5);
    const remove = await admin('POST', `/api/admin/merchants/${merchant.id}/credits`, { amount: -9, reason: 'refund' });
    expect(AdminMerchantResponseSchema.parse(remove.json()).merchant.credits).toBe(0);
    const noReason = await admin('POST', `/api/admin/merchants/${merchant.id}/credits`, { amount: 1 });
    expect(noReason.statusCode).toBe(400);
    const audit = AdminAuditResponseSchema.parse((await admin('GET', '/api/admin/audit')).json());
    const rows = audit.items.filter((r) => r.target_id === merchant.id).map((r) => r.action);
    expect(rows).toEqual(expect.arrayContaining(['merchant.credits.add', 'merchant.credits.remove']));
    expect((await admin('POST', `/api/admin/merchants/nope/credits`, { amount: 1, reason: 'x' })).statusCode).toBe(404);
  });

  it('reads usage with the secret key only; rotation replaces it', async () => {
    const { merchant, secretKey } = await createMerchant();
    const usage = (key?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/merchant/usage',
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
    const ok = await usage(secretKey);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(MerchantUsageResponseSchema.parse(ok.json()).merchant).toEqual({
      id: merchant.id,
      name: 'Shop Example',
      credits: 3,
    });
    expect((await usage()).statusCode).toBe(401);
    expect((await usage(merchant.publishableKey)).statusCode).toBe(401);
    expect((await usage(`sk_${'x'.repeat(43)}`)).statusCode).toBe(401);

    const rotated = await admin('POST', `/api/admin/merchants/${merchant.id}/keys`, { key: 'secret' });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<{ secretKey: string; merchant: { publishableKey: string; keysRotatedAt: string } }>();
    expect(fresh.secretKey).toMatch(/^sk_/);
    expect(fresh.secretKey).not.toBe(secretKey);
    expect(fresh.merchant.publishableKey).toBe(merchant.publishableKey);
    expect(fresh.merchant.keysRotatedAt).toBeTruthy();
    expect((await usage(secretKey)).statusCode).toBe(401);
    expect((await usage(fresh.secretKey)).statusCode).toBe(200);

    const both = await admin('POST', `/api/admin/merchants/${merchant.id}/keys`, { key: 'publishable' });
    const newPk = both.json<{ merchant: { publishableKey: string }; secretKey: null }>();
    expect(newPk.secretKey).toBeNull();
    expect(newPk.merchant.publishableKey).not.toBe(merchant.publishableKey);
    expect((await session(merchant.publishableKey)).statusCode).toBe(404);
    expect((await session(newPk.merchant.publishableKey)).statusCode).toBe(200);
  });

  it('opens embed sessions only for allowed origins (the Origin header, or from our frame the page’s origin)', async () => {
    const { merchant } = await createMerchant();
    const key = merchant.publishableKey;
    const direct = await session(key, SHOP);
    expect(direct.statusCode).toBe(200);
    expect(direct.headers['access-control-allow-origin']).toBe(SHOP);
    expect(direct.headers['set-cookie']).toBeUndefined();
    const evil = await session(key, OTHER);
    expect(evil.statusCode).toBe(403);
    expect(ErrorResponseSchema.parse(evil.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    const noOrigin = await t.app.inject({ method: 'POST', url: '/api/embed/session', payload: { key } });
    expect(noOrigin.statusCode).toBe(403);
    const fromFrame = (origin: string) =>
      t.app.inject({ method: 'POST', url: '/api/embed/session', payload: { key, origin }, headers: { origin: OWN } });
    expect((await fromFrame(SHOP)).statusCode).toBe(200);
    expect((await fromFrame(OTHER)).statusCode).toBe(403);
    const unknown = await session(`pk_${'a'.repeat(32)}`);
    expect(unknown.statusCode).toBe(404);
    expect(ErrorResponseSchema.parse(unknown.json()).error).toBe(ERROR_MESSAGES.EMBED_KEY_INVALID);
    expect((await session('')).statusCode).toBe(404);
  });

  it('charges a try-on to the merchant, refunds a failed one, refuses politely when out of credits', async () => {
    const { merchant, secretKey } = await createMerchant({ credits: 2 });
    const token = await tokenFor(merchant.publishableKey);
    const done = await embedTryOn(token);
    expect(done.statusCode, done.body).toBe(200);
    const answer = EmbedTryOnResponseSchema.parse(done.json());
    expect(await credits(merchant.id)).toBe(1);
    // The result is served (to our own frame) and kept half an hour only.
    const image = await t.app.inject({ method: 'GET', url: answer.imageUrl });
    expect(image.statusCode).toBe(200);
    expect(Date.parse(answer.expiresAt) - t.clock.now.getTime()).toBe(30 * 60_000);

    t.engine.failWith = new EngineError('PERSON_NOT_FOUND');
    const refused = await embedTryOn(token);
    t.engine.failWith = undefined;
    expect(refused.statusCode).toBe(422);
    expect(await credits(merchant.id)).toBe(1);

    expect((await embedTryOn(token)).statusCode).toBe(200);
    expect(await credits(merchant.id)).toBe(0);
    const calls = t.engine.calls.length;
    const out = await embedTryOn(token);
    expect(out.statusCode).toBe(402);
    expect(ErrorResponseSchema.parse(out.json())).toMatchObject({
      code: 'MERCHANT_NO_CREDITS',
      error: ERROR_MESSAGES.MERCHANT_NO_CREDITS,
    });
    expect(t.engine.calls.length).toBe(calls);
    const seen = AdminMerchantDetailResponseSchema.parse(
      (await admin('GET', `/api/admin/merchants/${merchant.id}`)).json(),
    );
    expect(seen.merchant.outOfCreditsSince).not.toBeNull();
    expect(seen.merchant.refusedNoCredits).toBe(1);
    expect(seen.usage).toEqual([
      { day: t.clock.now.toISOString().slice(0, 10), tryOns: 3, succeeded: 2, refunded: 1, sessions: 1 },
    ]);
    expect(seen.sessions[0]).toMatchObject({ origin: SHOP, tryOns: 3, results: 2 });
    const usage = MerchantUsageResponseSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/merchant/usage',
          headers: { authorization: `Bearer ${secretKey}` },
        })
      ).json(),
    );
    expect(usage.usage[0]).toMatchObject({ tryOns: 3, succeeded: 2, refunded: 1 });
    // Credits added: no longer out of them.
    const back = await admin('POST', `/api/admin/merchants/${merchant.id}/credits`, { amount: 1, reason: 'top-up' });
    expect(AdminMerchantResponseSchema.parse(back.json()).merchant.outOfCreditsSince).toBeNull();
  });

  it('needs a live embed token: none, a wrong one or an expired one is refused and nothing is charged', async () => {
    const { merchant } = await createMerchant({ credits: 2 });
    expect((await embedTryOn(undefined)).statusCode).toBe(401);
    expect((await embedTryOn(`es_${'b'.repeat(43)}`)).statusCode).toBe(401);
    const token = await tokenFor(merchant.publishableKey);
    t.clock.advance(31 * 60_000);
    const late = await embedTryOn(token);
    expect(late.statusCode).toBe(401);
    expect(ErrorResponseSchema.parse(late.json()).code).toBe('EMBED_SESSION_INVALID');
    // The shopper's cookie session is not an embed token.
    expect(await credits(merchant.id)).toBe(2);
  });

  it('keeps to the per-shopper and per-merchant daily caps; refunded try-ons do not count; caps reset the next UTC day', async () => {
    const { merchant } = await createMerchant({ credits: 20, dailyLimit: 3, shopperDailyLimit: 2 });
    const a = await tokenFor(merchant.publishableKey, '198.51.100.21');
    expect((await embedTryOn(a)).statusCode).toBe(200);
    t.engine.failWith = new EngineError('ENGINE_FAILED');
    expect((await embedTryOn(a)).statusCode).toBe(502);
    t.engine.failWith = undefined;
    expect((await embedTryOn(a)).statusCode).toBe(200);
    const capped = await embedTryOn(a);
    expect(capped.statusCode).toBe(429);
    expect(ErrorResponseSchema.parse(capped.json()).code).toBe('EMBED_LIMIT_REACHED');
    // A new session from the same address is the same shopper.
    const again = await tokenFor(merchant.publishableKey, '198.51.100.21');
    expect((await embedTryOn(again)).statusCode).toBe(429);
    // Another shopper: one more, then the merchant's cap.
    const b = await tokenFor(merchant.publishableKey, '198.51.100.22');
    expect((await embedTryOn(b)).statusCode).toBe(200);
    expect((await embedTryOn(b)).statusCode).toBe(429);
    expect(await credits(merchant.id)).toBe(17);
    t.clock.advance(24 * 60 * 60_000);
    // Operator sign-ins last 12 hours.
    operator = await signInByEmail(t.app, mailer, operatorEmail);
    const c = await tokenFor(merchant.publishableKey, '198.51.100.22');
    expect((await embedTryOn(c)).statusCode).toBe(200);
    expect(await credits(merchant.id)).toBe(16);
  });

  it('never spends past the balance under concurrent try-ons', async () => {
    const { merchant } = await createMerchant({ credits: 2, shopperDailyLimit: 100 });
    const token = await tokenFor(merchant.publishableKey);
    const results = await Promise.all(Array.from({ length: 6 }, () => embedTryOn(token)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 402)).toHaveLength(4);
    expect(await credits(merchant.id)).toBe(0);
  });

  it('frames /embed on the merchant’s allowed origins only; a missing or unknown key is shown anywhere', async () => {
    const { merchant } = await createMerchant();
    const page = await t.app.inject({ method: 'GET', url: `/embed?key=${merchant.publishableKey}&lang=de` });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/frame-ancestors https:\/\/shop\.example http:\/\/localhost:4321(;|$)/);
    expect(csp).not.toContain("frame-ancestors 'self'");
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['set-cookie']).toBeUndefined();
    const unknown = await t.app.inject({ method: 'GET', url: '/embed?key=pk_unknown' });
    expect(String(unknown.headers['content-security-policy'])).toContain('frame-ancestors *');
    // Every other page keeps refusing to be framed.
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(String(home.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
  });

  it('serves /embed.js small, compressed, loadable from other sites, without cookies', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThanOrEqual(10 * 1024);
    const source = zlib.gunzipSync(res.rawPayload).toString();
    expect(source).toContain('data-aidressup-garment');
    expect(source).not.toMatch(/document\.cookie|localStorage/);
    // It runs as served: in a page (a stand-in of the few browser objects it touches) it listens for
    // clicks and messages and offers window.AIDressUp.
    const listeners: string[] = [];
    const win: Record<string, unknown> = { addEventListener: (type: string) => listeners.push(`window:${type}`) };
    const doc = {
      currentScript: { src: 'https://app.example/embed.js', getAttribute: () => 'pk_x' },
      documentElement: { lang: 'de' },
      addEventListener: (type: string) => listeners.push(`document:${type}`),
    };
    const run = new Function('window', 'document', 'location', 'navigator', source) as (...args: unknown[]) => void;
    run(win, doc, { href: 'https://shop.example/p' }, { language: 'de' });
    expect(Object.keys(win.AIDressUp as object).sort()).toEqual(['close', 'open']);
    expect(listeners.sort()).toEqual(['document:click', 'window:message']);
  });

  it('keeps a result half an hour, then retention deletes it; shopper sessions go 30 days after they end', async () => {
    const { merchant } = await createMerchant();
    const token = await tokenFor(merchant.publishableKey);
    const answer = EmbedTryOnResponseSchema.parse((await embedTryOn(token)).json());
    const name = answer.imageUrl.slice('/api/results/'.length);
    expect(await t.app.storage.get(`results/${name}`)).toBeTruthy();
    t.clock.advance(31 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: answer.imageUrl })).statusCode).toBe(404);
    const retention = () => runRetention({ db: t.app.db, storage: t.app.storage, clock: () => t.clock.now });
    expect((await retention()).resultsDeleted).toBeGreaterThanOrEqual(1);
    expect(await t.app.storage.get(`results/${name}`)).toBeFalsy();

    t.clock.advance(31 * 24 * 60 * 60_000);
    expect((await retention()).embedSessionsDeleted).toBeGreaterThanOrEqual(1);
    operator = await signInByEmail(t.app, mailer, operatorEmail);
    const seen = AdminMerchantDetailResponseSchema.parse(
      (await admin('GET', `/api/admin/merchants/${merchant.id}`)).json(),
    );
    expect(seen.sessions).toEqual([]);
  });
});
