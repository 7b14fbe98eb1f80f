/**
 * Security review, round two (item 3): a page on another site cannot sign a shopper out, post a
 * try-on, buy, or delete the account with the shopper's cookie. The product's own origin and
 * CORS_ORIGIN can; so can Paddle's signed webhook.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@aidressup/contract';
import { envelope, signedHeaders } from '@aidressup/paddle-stand-in';
import { DATABASE_KINDS } from '../test/databases.js';
import { testApps, newDeviceId } from '../test/app.js';
import { jpeg, multipart, png } from '../test/images.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

const REFUSED = { success: false, code: 'CROSS_SITE_REQUEST', error: MESSAGES.crossSiteRequest };

type Headers = Record<string, string>;

/** The four state-changing requests the review tried from another site. */
const actions = {
  logout: (app: FastifyInstance, cookie: string, headers: Headers) =>
    app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...headers, cookie }, payload: {} }),
  tryOn: (app: FastifyInstance, cookie: string, headers: Headers, userId: string) => {
    const body = multipart({
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
    });
    return app.inject({
      method: 'POST',
      url: '/api/process-image',
      headers: { ...headers, ...body.headers, cookie },
      payload: body.payload,
    });
  },
  checkout: (app: FastifyInstance, cookie: string, headers: Headers) =>
    app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { ...headers, cookie },
      payload: { planId: 'credits_200' },
    }),
  deleteAccount: (app: FastifyInstance, cookie: string, headers: Headers) =>
    app.inject({ method: 'DELETE', url: '/api/account', headers: { ...headers, cookie } }),
};

/** A new anonymous shopper: its cookie (`aidu_session`, or `__Host-aidu_session` over https) and user. */
async function signIn(app: FastifyInstance) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/anonymous', payload: { deviceId: newDeviceId() } });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name.endsWith('aidu_session'))!;
  return { cookie: `${cookie.name}=${cookie.value}`, user: (res.json() as { user: { id: string } }).user };
}

async function stillSignedIn(app: FastifyInstance, cookie: string, userId: string) {
  const res = await app.inject({ method: 'GET', url: `/api/auth/user/${userId}`, headers: { cookie } });
  return res.statusCode === 200 ? (res.json() as { user: { credits: number; free_trials_used: number } }).user : null;
}

function expectRefused(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual(REFUSED);
}

describe.each(DATABASE_KINDS)('cross-site requests on %s', (kind) => {
  const newApp = testApps(kind);
  const make = (env: Record<string, string> = {}) => newApp({ env });

  const foreign: [string, Headers][] = [
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without an Origin', { 'sec-fetch-site': 'cross-site' }],
  ];

  it.each(foreign)(
    'attack 3: refuses logout, try-on, checkout and account deletion with %s',
    async (_label, headers) => {
      const { app, engine } = await make({ CORS_ORIGIN: 'https://shop.example.com' });
      const s = await signIn(app);
      const calls = engine.calls.length;

      expectRefused(await actions.logout(app, s.cookie, headers));
      expectRefused(await actions.tryOn(app, s.cookie, headers, s.user.id));
      expectRefused(await actions.checkout(app, s.cookie, headers));
      expectRefused(await actions.deleteAccount(app, s.cookie, headers));

      // Nothing happened: still signed in, no try-on, no credits, the account still there.
      const user = await stillSignedIn(app, s.cookie, s.user.id);
      expect(user).toMatchObject({ credits: 0, free_trials_used: 0 });
      expect(engine.calls.length).toBe(calls);
      const row = await app.db.selectFrom('users').select('deleted_at').where('id', '=', s.user.id).executeTakeFirst();
      expect(row?.deleted_at).toBeNull();
    },
  );

  it('accepts them from the product’s own origin (the request’s host without PUBLIC_URL)', async () => {
    const { app } = await make();
    const s = await signIn(app);
    const own = { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' };
    expect((await actions.tryOn(app, s.cookie, own, s.user.id)).statusCode).toBe(200);
    expect((await actions.checkout(app, s.cookie, own)).statusCode).toBe(200);
    expect((await actions.logout(app, s.cookie, own)).statusCode).toBe(200);
    const t = await signIn(app);
    expect((await actions.deleteAccount(app, t.cookie, own)).statusCode).toBe(200);
    // Without PUBLIC_URL another host is still another site.
    const u = await signIn(app);
    expectRefused(await actions.logout(app, u.cookie, { origin: 'http://localhost.evil.example' }));
    expectRefused(await actions.logout(app, u.cookie, { origin: 'http://localhost:8080' }));
  });

  it('accepts them from PUBLIC_URL and from CORS_ORIGIN, and from nothing else', async () => {
    const { app } = await make({ PUBLIC_URL: 'https://dress.example/app', CORS_ORIGIN: 'https://shop.example.com' });
    const ids = async () => {
      const s = await signIn(app);
      expect(s.cookie).toMatch(/^__Host-aidu_session=/);
      return { cookie: s.cookie, id: s.user.id };
    };
    for (const origin of ['https://dress.example', 'https://shop.example.com']) {
      const headers = { origin, 'sec-fetch-site': origin === 'https://dress.example' ? 'same-origin' : 'cross-site' };
      const s = await ids();
      expect((await actions.tryOn(app, s.cookie, headers, s.id)).statusCode, origin).toBe(200);
      expect((await actions.checkout(app, s.cookie, headers)).statusCode, origin).toBe(200);
      expect((await actions.logout(app, s.cookie, headers)).statusCode, origin).toBe(200);
      const t = await ids();
      expect((await actions.deleteAccount(app, t.cookie, headers)).statusCode, origin).toBe(200);
    }
    // With PUBLIC_URL set, the Host header does not decide: a request sent to this server under
    // another name is another site.
    const u = await ids();
    expectRefused(await actions.logout(app, u.cookie, { origin: 'http://localhost' }));
    expectRefused(await actions.logout(app, u.cookie, { origin: 'http://dress.example' }));
  });

  it('covers every /api/ route, present or future, and leaves reads and non-browser clients alone', async () => {
    const { app } = await make();
    const s = await signIn(app);
    const evil = { origin: 'https://evil.example' };
    // A route that does not exist yet (a future operator route) is refused before anything else.
    expectRefused(
      await app.inject({ method: 'POST', url: '/api/admin/credits', headers: { ...evil, cookie: s.cookie } }),
    );
    expectRefused(await app.inject({ method: 'PUT', url: '/api/admin/users/x', headers: evil }));
    expectRefused(await app.inject({ method: 'PATCH', url: '/api/admin/users/x', headers: evil }));
    // Reads are not state-changing.
    expect((await app.inject({ method: 'GET', url: '/api/config', headers: evil })).statusCode).toBe(200);
    // No Origin and no Sec-Fetch-Site: not a browser carrying a shopper's cookie by accident.
    expect((await actions.logout(app, s.cookie, {})).statusCode).toBe(200);
  });

  it('refuses every state-changing operator route from another site (listed from the OpenAPI document)', async () => {
    const { app } = await make({ ADMIN_EMAILS: 'operator@example.com' });
    const s = await signIn(app);
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const writes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => ({ method: m.toUpperCase() as 'POST', url: path.replace(/\{[^}]+\}/g, 'x') })),
      );
    expect(writes.length).toBeGreaterThanOrEqual(4);
    for (const w of writes) {
      const res = await app.inject({
        ...w,
        headers: { origin: 'https://evil.example', cookie: s.cookie },
        payload: { amount: 5, reason: 'cross-site', decision: 'refund', note: '' },
      });
      expect(res.json(), `${w.method} ${w.url}`).toEqual(REFUSED);
    }
  });

  it('leaves Paddle’s signed webhook open to any origin', async () => {
    const secret = 'pdl_ntfset_01test_cross_site_secret';
    const { app, clock } = await make({
      PADDLE_ENV: 'sandbox',
      PADDLE_CLIENT_TOKEN: 'test_0123456789abcdef0123456789a',
      PADDLE_WEBHOOK_SECRET: secret,
      PADDLE_PRICE_WEEKLY: 'pri_01weekly',
      PADDLE_PRICE_MONTHLY: 'pri_01monthly',
      PADDLE_PRICE_YEARLY: 'pri_01yearly',
      PADDLE_PRICE_CREDITS_200: 'pri_01credits',
    });
    const raw = JSON.stringify(envelope('customer.updated', { id: 'ctm_01x' }, clock.now));
    const res = await app.inject({
      method: 'POST',
      url: PADDLE_WEBHOOK_PATH,
      payload: raw,
      headers: { ...signedHeaders(secret, raw, clock.now.getTime()), origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(200);
  });
});
