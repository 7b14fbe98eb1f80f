import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HealthResponseSchema, PLANS, PublicConfigSchema } from '@aidressup/contract';
import { DATABASE_KINDS, tempDir } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';

const PADDLE = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_clienttoken',
  PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_very_secret_value',
  PADDLE_PRICE_WEEKLY: 'pri_w',
  PADDLE_PRICE_MONTHLY: 'pri_m',
  PADDLE_PRICE_YEARLY: 'pri_y',
  PADDLE_PRICE_CREDITS_200: 'pri_c',
};

describe.each(DATABASE_KINDS)('config, health, billing and web on %s', (kind) => {
  const make = testApps(kind);

  it('gives the browser the public configuration and nothing secret', async () => {
    const { app } = await make({ env: { ...PADDLE, SESSION_SECRET: 'x'.repeat(40), FREE_TRIALS_LIMIT: '3' } });
    const res = await app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    const cfg = PublicConfigSchema.parse(res.json());
    expect(cfg.billing).toEqual({ provider: 'paddle', environment: 'sandbox', clientToken: 'test_clienttoken' });
    expect(cfg.plans.map((p) => [p.id, p.paddlePriceId])).toEqual([
      ['weekly', 'pri_w'],
      ['monthly', 'pri_m'],
      ['yearly', 'pri_y'],
      ['credits_200', 'pri_c'],
    ]);
    expect(cfg.plans.map((p) => p.name)).toEqual(PLANS.map((p) => p.name));
    expect(cfg).toMatchObject({
      freeTrialsLimit: 3,
      maxUploadBytes: 10 * 1024 * 1024,
      defaultEngine: 'test-double',
      engines: [{ id: 'test-double', label: 'Deterministic test double' }],
    });
    expect(res.body).not.toMatch(/very_secret|xxxxxxxx/);
  });

  it('uses demo billing by default: plans have no price ids, subscriptions expire with their period', async () => {
    const { app, clock } = await make();
    const cfg = PublicConfigSchema.parse((await app.inject({ method: 'GET', url: '/api/config' })).json());
    expect(cfg.billing).toEqual({ provider: 'demo', environment: null, clientToken: null });
    expect(cfg.plans.every((p) => p.paddlePriceId === null)).toBe(true);

    const { cookie, user } = await signIn(app);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'lifetime' },
    });
    expectApiError(bad, 400, 'INVALID_PLAN');

    const res = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'monthly', credits: 100000 },
    });
    expect(res.statusCode).toBe(200);
    const bought = res.json().user;
    expect(bought).toMatchObject({
      id: user.id,
      credits: 50,
      segment: 'subscriber',
      subscription: { planId: 'monthly', status: 'active' },
    });
    expect(Date.parse(bought.subscription.currentPeriodEnd) - clock.now.getTime()).toBe(30 * 86_400_000);

    clock.advance(31 * 86_400_000);
    const later = await app.inject({ method: 'GET', url: `/api/auth/user/${user.id}`, headers: { cookie } });
    expect(later.json().user).toMatchObject({ credits: 0, segment: 'customer' });
  });

  it('refuses demo checkout when Paddle is configured', async () => {
    const { app } = await make({ env: PADDLE });
    const { cookie } = await signIn(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'monthly' },
    });
    expectApiError(res, 409, 'BILLING_DISABLED');
    expect((await app.db.selectFrom('credit_grants').select('id').execute()).length).toBe(0);
  });

  it('reports health, and 503 when storage is down', async () => {
    const { app, config } = await make();
    const ok = await app.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    const body = HealthResponseSchema.parse(ok.json());
    expect(body.status).toBe('ok');
    expect(body.checks.database).toMatchObject({ status: 'ok', kind });
    expect(body.checks.storage.status).toBe('ok');
    expect(body.checks.queue.status).toBe('disabled');
    expect(Object.keys(body.checks.engines)).toEqual(['test-double']);

    // Make the files folder unwritable by replacing it with a file.
    const files = path.join(config.dataDir, 'files');
    fs.rmSync(files, { recursive: true, force: true });
    fs.writeFileSync(files, 'not a folder');
    const down = await app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'down', checks: { storage: { status: 'down' } } });
  });

  it('reports health 503 when the database is down', async () => {
    const { app } = await make();
    await app.db.destroy();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'down',
      checks: { database: { status: 'down' }, storage: { status: 'ok' } },
    });
    // Other calls fail with a clean 500, no internals.
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      payload: { deviceId: 'device-after-db-down' },
    });
    expectApiError(signIn, 500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again.');
  });

  it('answers unknown /api routes with JSON 404 and sends security headers', async () => {
    const { app } = await make();
    const res = await app.inject({ method: 'GET', url: '/api/nope' });
    expectApiError(res, 404, 'NOT_FOUND', 'Not found.');
    const post = await app.inject({ method: 'POST', url: '/api/nope', payload: {} });
    expect(post.statusCode).toBe(404);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://cdn.paddle.com");
    expect(csp).toContain('frame-src https://*.paddle.com');
    expect(csp).toContain("connect-src 'self' https://*.paddle.com");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the built web app with SPA fallback and immutable hashed assets', async () => {
    const dist = tempDir('aidressup-web-');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>AI Dress Up</title><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    const { app } = await make({ webDistDir: dist });
    for (const url of ['/', '/terms-of-service', '/privacy-policy', '/refund-policy']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ method: 'GET', url: '/assets/missing-123.js' })).statusCode).toBe(404);
  });

  it("sends the static first paint's home hero on / only", async () => {
    const dist = tempDir('aidressup-web-');
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><div id="root"><nav>AI Dress Up</nav><main><!-- shell:home (for / only) --><h1>See yourself</h1><!-- /shell:home --></main></div>',
    );
    const { app } = await make({ webDistDir: dist });
    const home = await app.inject({ method: 'GET', url: '/' });
    expect(home.body).toContain('<h1>See yourself</h1>');
    for (const url of ['/terms-of-service', '/gallery', '/no-such-page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<nav>AI Dress Up</nav><main></main>');
      expect(res.body).not.toContain('See yourself');
    }
  });

  it('serves the pre-compressed copy of an asset to a browser that accepts it', async () => {
    const dist = tempDir('aidressup-web-');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const source = 'console.log("AI Dress Up");'.repeat(50);
    fs.writeFileSync(path.join(dist, 'assets', 'index-def456.js'), source);
    fs.writeFileSync(path.join(dist, 'assets', 'index-def456.js.br'), zlib.brotliCompressSync(source));
    const { app } = await make({ webDistDir: dist });
    const br = await app.inject({
      method: 'GET',
      url: '/assets/index-def456.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(source);
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/index-def456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(source);
  });

  it('says so when the web app is not built', async () => {
    const { app } = await make({ webDistDir: path.join(tempDir(), 'missing') });
    const res = await app.inject({ method: 'GET', url: '/privacy-policy' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/web app is not built/);
  });
});
