/**
 * The shop widget in the try-on line, on SQLite and PostgreSQL: the merchant's and the shopper's
 * daily caps are checked before a place is taken (a capped shopper takes no place in the line
 * everyone shares and has no photo decoded); a busy answer's ticket, sent back as `lineTicket`,
 * keeps the place; a shopper who leaves gives up the place and the merchant is charged nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TryOnEngine, TryOnInput } from '@aidressup/engine';
import {
  AdminMerchantCreatedResponseSchema,
  AdminMerchantDetailResponseSchema,
  EmbedSessionResponseSchema,
  EngineBusyResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { type TestApp, testApps } from '../test/app.js';
import { createEngineDouble } from '../test/engine-double.js';
import { jpeg, multipart, png } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';

const SHOP = 'https://shop.example';
const OWN = 'http://localhost';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

/** The engine double behind a gate the test closes and opens: while closed, try-ons wait in the engine. */
function gatedEngine() {
  const double = createEngineDouble();
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  const calls: TryOnInput[] = [];
  const engine: TryOnEngine = {
    id: double.id,
    label: double.label,
    async tryOn(input) {
      calls.push(input);
      if (gate) await gate.promise;
      return double.tryOn(input);
    },
  };
  return {
    engine,
    calls,
    close() {
      let open!: () => void;
      const promise = new Promise<void>((r) => (open = r));
      gate = { promise, open };
    },
    open() {
      gate?.open();
      gate = undefined;
    },
  };
}

describe.each(DATABASE_KINDS)('the shop widget in the line on %s', (kind) => {
  const newApp = testApps(kind, {}, { closeAfter: 'each' });

  async function setup(env: Record<string, string> = {}) {
    const mailer = memoryMailer();
    const operatorEmail = newEmail('operator');
    const gated = gatedEngine();
    const t = await newApp({
      mailer,
      engines: { [gated.engine.id]: gated.engine },
      env: { ADMIN_EMAILS: operatorEmail, ENGINE_CONCURRENCY: '1', ...env },
    });
    const operator = await signInByEmail(t.app, mailer, operatorEmail);
    const admin = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: operator.cookie } });
    return { t, gated, admin };
  }

  type Admin = Awaited<ReturnType<typeof setup>>['admin'];

  async function merchantOf(admin: Admin, extra: Record<string, unknown> = {}) {
    const res = await admin('POST', '/api/admin/merchants', {
      name: 'Shop Example',
      allowedOrigins: [SHOP],
      billing: 'merchant',
      credits: 20,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return AdminMerchantCreatedResponseSchema.parse(res.json()).merchant;
  }

  async function tokenFor(t: TestApp, key: string, ip: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/embed/session',
      payload: { key },
      headers: { origin: SHOP },
      remoteAddress: ip,
    });
    expect(res.statusCode, res.body).toBe(200);
    return EmbedSessionResponseSchema.parse(res.json()).token;
  }

  function form(extra: Record<string, string> = {}) {
    return multipart({
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, contentType: 'image/png', filename: 'g.png' },
      category: 'upper_body',
      ...extra,
    });
  }

  function embedTryOn(t: TestApp, token: string, extra: Record<string, string> = {}) {
    const body = form(extra);
    return t.app.inject({
      method: 'POST',
      url: '/api/embed/tryon',
      headers: { ...body.headers, origin: OWN, authorization: `Bearer ${token}` },
      payload: body.payload,
    });
  }

  it('a shopper or a merchant past the daily cap is refused before taking a place, while the engine is busy', async () => {
    const { t, gated, admin } = await setup({ ENGINE_LINE_WAIT_MS: '2000' });
    const merchant = await merchantOf(admin, { dailyLimit: 3, shopperDailyLimit: 1 });
    const capped = await tokenFor(t, merchant.publishableKey, '198.51.100.31');
    expect((await embedTryOn(t, capped)).statusCode).toBe(200);

    // Another shopper's try-on holds the one slot.
    gated.close();
    const other = await tokenFor(t, merchant.publishableKey, '198.51.100.32');
    const running = embedTryOn(t, other);
    await expect.poll(() => gated.calls.length).toBe(2);

    const started = Date.now();
    const refused = await embedTryOn(t, capped);
    expectApiError(refused, 429, 'EMBED_LIMIT_REACHED');
    // Refused at once, without waiting in line.
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await t.app.tryOnLine.waiting(gated.engine.id)).toBe(0);

    // The merchant's own cap: 3 a day, two used and one under way.
    const third = await tokenFor(t, merchant.publishableKey, '198.51.100.33');
    const fourth = await tokenFor(t, merchant.publishableKey, '198.51.100.34');
    const thirdTry = embedTryOn(t, third);
    await expect.poll(() => t.app.tryOnLine.waiting(gated.engine.id)).toBe(1);
    gated.open();
    expect((await running).statusCode).toBe(200);
    expect((await thirdTry).statusCode).toBe(200);
    gated.close();
    const blocker = await tokenFor(t, (await merchantOf(admin)).publishableKey, '198.51.100.35');
    const blocking = embedTryOn(t, blocker);
    await expect.poll(() => gated.calls.length).toBe(4);
    const started2 = Date.now();
    expectApiError(await embedTryOn(t, fourth), 429, 'EMBED_LIMIT_REACHED');
    expect(Date.now() - started2).toBeLessThan(1_500);
    gated.open();
    expect((await blocking).statusCode).toBe(200);
  });

  it('a busy answer carries a ticket the widget’s route takes back: the place is kept', async () => {
    const { t, gated, admin } = await setup({ ENGINE_QUEUE_LIMIT: '0' });
    const merchant = await merchantOf(admin);
    const [blocker, x, y] = [
      await tokenFor(t, merchant.publishableKey, '198.51.100.41'),
      await tokenFor(t, merchant.publishableKey, '198.51.100.42'),
      await tokenFor(t, merchant.publishableKey, '198.51.100.43'),
    ];
    gated.close();
    const running = embedTryOn(t, blocker);
    await expect.poll(() => gated.calls.length).toBe(1);
    const xBusy = await embedTryOn(t, x);
    expect(xBusy.statusCode).toBe(503);
    const xTicket = EngineBusyResponseSchema.parse(xBusy.json());
    const yTicket = EngineBusyResponseSchema.parse((await embedTryOn(t, y)).json());
    expect([xTicket.place, yTicket.place]).toEqual([1, 2]);
    expect(xTicket.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);

    gated.open();
    expect((await running).statusCode).toBe(200);
    // y comes back first: the slot is kept for x, who is due back.
    const yEarly = await embedTryOn(t, y, { lineTicket: yTicket.ticket! });
    expect(yEarly.statusCode).toBe(503);
    expect(EngineBusyResponseSchema.parse(yEarly.json())).toMatchObject({ place: 2, ticket: yTicket.ticket });
    const xBack = await embedTryOn(t, x, { lineTicket: xTicket.ticket! });
    expect(xBack.statusCode, xBack.body).toBe(200);
    expect((await embedTryOn(t, y, { lineTicket: yTicket.ticket! })).statusCode).toBe(200);
    // A ticket that is not one is refused as bad input.
    expectApiError(await embedTryOn(t, x, { lineTicket: 'nope' }), 400, 'VALIDATION_ERROR');
  });

  it('a shopper who leaves while waiting gives up the place; the merchant is charged nothing', async () => {
    const { t, gated, admin } = await setup();
    const merchant = await merchantOf(admin, { credits: 5 });
    const [blocker, leaver] = [
      await tokenFor(t, merchant.publishableKey, '198.51.100.51'),
      await tokenFor(t, merchant.publishableKey, '198.51.100.52'),
    ];
    gated.close();
    const running = embedTryOn(t, blocker);
    await expect.poll(() => gated.calls.length).toBe(1);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const body = form();
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/embed/tryon',
      headers: {
        ...body.headers,
        authorization: `Bearer ${leaver}`,
        'content-length': String(body.payload.length),
      },
    });
    req.on('error', () => undefined);
    req.end(body.payload);
    await expect.poll(() => t.app.tryOnLine.waiting(gated.engine.id)).toBe(1);
    req.destroy();
    await expect.poll(() => t.app.tryOnLine.waiting(gated.engine.id)).toBe(0);
    gated.open();
    expect((await running).statusCode).toBe(200);
    // Nobody is left in line or let in who could still run: the shopper who left is gone for good.
    expect(await t.app.tryOnLine.snapshot(gated.engine.id)).toMatchObject({ tickets: [], running: [] });
    expect(gated.calls).toHaveLength(1);
    const detail = await admin('GET', `/api/admin/merchants/${merchant.id}`);
    expect(AdminMerchantDetailResponseSchema.parse(detail.json()).merchant.credits).toBe(4);
  });
});
