import { describe, expect, it } from 'vitest';
import { signIn, testApps } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';

describe('abuse limits and cross-origin access', () => {
  const make = testApps('sqlite');

  it('limits try-ons per user even across addresses', async () => {
    const t = await make({ env: { RATE_LIMIT_TRYON_PER_MINUTE: '2' } });
    const { cookie } = await signIn(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/process-image',
        remoteAddress: `198.51.100.${i + 1}`,
        headers: { cookie },
        payload: {},
      });
      codes.push(res.statusCode);
    }
    // The first two get as far as validation; the rest are refused before it.
    expect(codes).toEqual([400, 400, 429, 429]);
    const other = await signIn(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/process-image',
      remoteAddress: '198.51.100.99',
      headers: { cookie: other.cookie },
      payload: {},
    });
    expect(res.statusCode).toBe(400);
  });

  it('applies a global limit per address', async () => {
    const t = await make({ env: { RATE_LIMIT_GLOBAL_PER_MINUTE: '3' } });
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.5' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const res = await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.5' });
    expectApiError(res, 429, 'RATE_LIMITED', 'Too many requests. Please wait a moment and try again.');
    // The web app's pages are not counted.
    expect((await t.app.inject({ method: 'GET', url: '/privacy-policy', remoteAddress: '192.0.2.5' })).statusCode).toBe(
      200,
    );
  });

  it('answers CORS preflights for the configured origin only', async () => {
    const t = await make({ env: { CORS_ORIGIN: 'https://shop.example.com' } });
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/process-image',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-allow-methods'])).toContain('POST');
    const foreign = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/process-image',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('allows every method the API uses in the preflight, PATCH included (the console changes a merchant)', async () => {
    const t = await make({ env: { CORS_ORIGIN: 'https://console.example.com' } });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.keys(ops).map((m) => m.toUpperCase())));
    expect(used).toContain('PATCH');
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/admin/merchants/someId123',
      headers: { origin: 'https://console.example.com', 'access-control-request-method': 'PATCH' },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers['access-control-allow-methods']).split(/,\s*/);
    for (const method of used) expect(allowed, method).toContain(method);
  });
});
