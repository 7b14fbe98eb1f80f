/**
 * Who gets into the operator console. The routes are enumerated from the OpenAPI document, so a new
 * /api/admin route is checked without being listed here: anonymous → 401 UNAUTHORIZED, a shopper
 * (anonymous or signed in by email) → 403 FORBIDDEN, an operator whose email sign-in is 12 hours
 * old → 401 REAUTH_REQUIRED; and ADMIN_EMAILS is the only way in.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, type TestApp, testApps } from '../../test/app.js';
import { memoryMailer, newEmail, signInByEmail, type MemoryMailer } from '../../test/operator.js';

const HOUR_MS = 60 * 60 * 1000;

interface Operation {
  tags?: string[];
  summary?: string;
}

/** Every operator route in the OpenAPI document, as method and a concrete URL. */
async function adminRoutes(app: FastifyInstance): Promise<{ method: InjectOptions['method']; url: string }[]> {
  const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/admin'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        expect(op.tags, `${method} ${path}`).toEqual(['admin']);
        return {
          method: method.toUpperCase() as InjectOptions['method'],
          url: path.replace(/\{[^}]+\}/g, 'someId123'),
        };
      }),
    );
}

function codeOf(res: { statusCode: number; json(): unknown }) {
  return { status: res.statusCode, code: ErrorResponseSchema.parse(res.json()).code };
}

describe.each(DATABASE_KINDS)('operator access on %s', (kind) => {
  const newApp = testApps(kind);
  let t: TestApp;
  let mailer: MemoryMailer;
  const operatorEmail = newEmail('operator');
  beforeAll(async () => {
    mailer = memoryMailer();
    t = await newApp({
      mailer,
      // Any case, with spaces: compared without case.
      env: { ADMIN_EMAILS: ` ${operatorEmail.toUpperCase()} , other-operator@example.com` },
    });
  });

  it('lists the operator routes in the OpenAPI document, each tagged admin', async () => {
    const routes = await adminRoutes(t.app);
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/admin/users',
      'GET /api/admin/users/someId123',
      'POST /api/admin/users/someId123/credits',
      'POST /api/admin/users/someId123/block',
      'POST /api/admin/users/someId123/unblock',
      'GET /api/admin/reports',
      'POST /api/admin/reports/someId123',
      'GET /api/admin/stats',
      'GET /api/admin/audit',
      'GET /api/admin/tryons/someId123/result',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('refuses every operator route to anonymous requests (401) and shoppers (403), before reading input', async () => {
    const routes = await adminRoutes(t.app);
    const shopper = await signIn(t.app);
    const emailShopper = await signInByEmail(t.app, mailer, newEmail());
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      const anonymous = await t.app.inject({ ...route, payload: route.method === 'GET' ? undefined : {} });
      expect(codeOf(anonymous), where).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      for (const cookie of [shopper.cookie, emailShopper.cookie]) {
        const res = await t.app.inject({
          ...route,
          headers: { cookie },
          payload: route.method === 'GET' ? undefined : {},
        });
        expect(codeOf(res), where).toEqual({ status: 403, code: 'FORBIDDEN' });
      }
    }
  });

  it('lets an operator in, and asks again for an email sign-in 12 hours old', async () => {
    const operator = await signInByEmail(t.app, mailer, operatorEmail);
    const stats = () => t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie: operator.cookie } });
    expect((await stats()).statusCode).toBe(200);
    t.clock.advance(12 * HOUR_MS - 1000);
    expect((await stats()).statusCode).toBe(200);
    t.clock.advance(1000);
    const routes = await adminRoutes(t.app);
    for (const route of routes) {
      const res = await t.app.inject({
        ...route,
        headers: { cookie: operator.cookie },
        payload: route.method === 'GET' ? undefined : {},
      });
      expect(codeOf(res), `${route.method} ${route.url}`).toEqual({ status: 401, code: 'REAUTH_REQUIRED' });
    }
    // The shopper side of the same session still works; a new email sign-in opens the console again.
    const again = await signInByEmail(t.app, mailer, operatorEmail);
    expect(again.userId).toBe(operator.userId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie: again.cookie } })).statusCode,
    ).toBe(200);
  });

  it('opens nothing to an operator’s account without an email sign-in in this session', async () => {
    // The operator's address signs in; an anonymous session on the same device is still a shopper.
    await signInByEmail(t.app, mailer, operatorEmail);
    const anonymous = await signIn(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?query=a',
      headers: { cookie: anonymous.cookie },
    });
    expect(codeOf(res)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('has no operators without ADMIN_EMAILS', async () => {
    const plain = await newApp({ mailer });
    const someone = await signInByEmail(plain.app, mailer, operatorEmail);
    const res = await plain.app.inject({
      method: 'GET',
      url: '/api/admin/stats',
      headers: { cookie: someone.cookie },
    });
    expect(codeOf(res)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
});
