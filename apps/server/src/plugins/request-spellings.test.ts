/**
 * One request, many spellings: the router decodes a path before it matches, so `/%61pi/auth/logout`
 * is `/api/auth/logout` to it. Every state-changing route of the OpenAPI document (a new one is
 * covered without being named here) is sent from another site under encoded, dotted, doubled,
 * absolute-form and other odd spellings of its path, with an operator's session cookie, over a
 * real socket (so nothing normalises the path on the way). No spelling may reach a handler: none
 * begins (Fastify's handler channel), no answer sets or clears a cookie, the database is unchanged,
 * and the answer is a refusal. The per-address rate limit counts whatever reaches a handler under
 * any spelling. Paddle's signed webhook and the widget's session are the routes open to other
 * sites, under their own spelling only.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';
import { rawRequest, watchHandlers, type HandlerRun } from '../test/raw-http.js';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';

const PADDLE_ENV = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_0123456789abcdef0123456789a',
  PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_01test_spellings_secret',
  PADDLE_PRICE_WEEKLY: 'pri_01weekly',
  PADDLE_PRICE_MONTHLY: 'pri_01monthly',
  PADDLE_PRICE_YEARLY: 'pri_01yearly',
  PADDLE_PRICE_CREDITS_200: 'pri_01credits',
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes that take requests from any site under their own spelling (docs/architecture.md, section 15). */
const OPEN_TO_ANY_SITE = [PADDLE_WEBHOOK_PATH, '/api/embed/session'];

const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
/** The path after `/api` (it starts with `/`). */
const rest = (p: string) => p.slice('/api'.length);

/** Other spellings of a canonical `/api/…` path: each is, to some parser, the same route. */
const SPELLINGS: [string, (p: string) => string][] = [
  ['%61pi', (p) => `/%61pi${rest(p)}`],
  ['ap%69', (p) => `/ap%69${rest(p)}`],
  ['%2Fapi', (p) => `/%2Fapi${rest(p)}`],
  ['%2fapi (lower-case hex)', (p) => `/%2fapi${rest(p)}`],
  ['//api', (p) => `/${p}`],
  ['/api/./', (p) => `/api/.${rest(p)}`],
  ['/./api', (p) => `/.${p}`],
  ['/api/%2e/', (p) => `/api/%2e${rest(p)}`],
  ['/%2e/api', (p) => `/%2e${p}`],
  ['/x/../api', (p) => `/x/..${p}`],
  ['/x/%2e%2e/api', (p) => `/x/%2e%2e${p}`],
  ['/api/x/../', (p) => `/api/x/..${rest(p)}`],
  ['a trailing slash', (p) => `${p}/`],
  ['a trailing /.', (p) => `${p}/.`],
  ['/API', (p) => `/API${rest(p)}`],
  ['all upper case', (p) => p.toUpperCase()],
  ['/Api', (p) => `/Api${rest(p)}`],
  ['double-encoded %2561pi', (p) => `/%2561pi${rest(p)}`],
  ['double-encoded %252Fapi', (p) => `/%252Fapi${rest(p)}`],
  ['the last character encoded', (p) => `${p.slice(0, -1)}${pct(p.slice(-1))}`],
  [
    'every character after /api/ encoded',
    (p) => `/api/${[...rest(p).slice(1)].map((c) => (c === '/' ? '/' : pct(c))).join('')}`,
  ],
  ['every slash encoded', (p) => p.replaceAll('/', '%2F')],
  ['a matrix parameter on /api', (p) => `/api;x=1${rest(p)}`],
  ['a matrix parameter at the end', (p) => `${p};x=1`],
  ['an encoded ; at the end', (p) => `${p}%3Bx=1`],
  ['a doubled slash inside', (p) => p.replace('/api/', '/api//')],
  ['a backslash', (p) => p.replace('/api/', '/api\\')],
  ['an encoded backslash', (p) => p.replace('/api/', '/api%5C')],
  ['absolute-form', (p) => `http://evil.example${p}`],
  ['absolute-form to this host', (p) => `http://127.0.0.1${p}`],
  ['an encoded NUL at the end', (p) => `${p}%00`],
  ['an encoded space at the end', (p) => `${p}%20`],
  ['an overlong UTF-8 slash', (p) => p.replace('/api/', '/api%C0%AF')],
];

/** Every operation of the OpenAPI document: method and path with each `{param}` filled in. */
async function documentedRoutes(app: FastifyInstance): Promise<{ method: string; path: string }[]> {
  const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      path: path.replace(/\{[^}]+\}/g, 'someId123'),
    })),
  );
}

/** Every row of every table but the processes' heartbeats, as text: equal snapshots mean nothing was written. */
async function snapshot(app: FastifyInstance): Promise<string> {
  const tables = (await app.db.introspection.getTables())
    .map((t) => t.name)
    .filter((name) => name !== 'processes')
    .sort();
  const out: Record<string, unknown[]> = {};
  for (const name of tables) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows = await (app.db as any).selectFrom(name).selectAll().execute();
    out[name] = (rows as unknown[]).map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(out);
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

const watches: { stop(): void }[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.stop();
});
function watch(): HandlerRun[] {
  const w = watchHandlers();
  watches.push(w);
  return w.runs;
}

describe.each(DATABASE_KINDS)('request spellings on %s', (kind) => {
  const newApp = testApps(kind, {}, { closeAfter: 'each' });

  it('refuses every state-changing route from another site under every spelling, before any handler', async () => {
    const mailer = memoryMailer();
    const email = newEmail('operator');
    const { app } = await newApp({
      mailer,
      env: { ...PADDLE_ENV, ADMIN_EMAILS: email, RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000' },
    });
    const operator = await signInByEmail(app, mailer, email);
    const routes = (await documentedRoutes(app)).filter((r) => STATE_CHANGING.has(r.method));
    // The document lists the routes this test must cover (a sanity check, not the list it uses).
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /api/auth/logout', 'DELETE /api/account', `POST ${PADDLE_WEBHOOK_PATH}`]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);

    const port = await listen(app);
    const before = await snapshot(app);
    const runs = watch();
    const headers = { origin: 'https://evil.example', 'content-type': 'text/plain', cookie: operator.cookie };
    const wrong: string[] = [];
    for (const route of routes) {
      const targets: [string, string][] = SPELLINGS.map(([name, spell]) => [name, spell(route.path)]);
      // The route's own spelling is refused too, except on the routes open to any site by design: Paddle's
      // webhook (it proves itself by its signature) and the widget's session (it reads no cookie and
      // checks the Origin against the merchant's list).
      if (!OPEN_TO_ANY_SITE.includes(route.path)) targets.push(['its own spelling', route.path]);
      for (const [name, target] of targets) {
        const seen = runs.length;
        const res = await rawRequest(port, route.method, target, headers, 'a=1');
        const label = `${route.method} ${target} (${name})`;
        if (runs.length > seen) wrong.push(`${label}: reached the handler of ${runs[seen]!.method} ${runs[seen]!.url}`);
        if (res.headers['set-cookie'] !== undefined) wrong.push(`${label}: set-cookie ${res.headers['set-cookie']}`);
        if (![400, 403, 404].includes(res.status)) wrong.push(`${label}: answered ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(app)).toBe(before);

    // Still signed in, and the watch sees a handler that does run.
    const me = await rawRequest(port, 'GET', `/api/auth/user/${operator.userId}`, { cookie: operator.cookie });
    expect(me.status).toBe(200);
    expect(runs.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/auth/user/:id']);
  });

  it('counts every request that reaches a handler against the per-address limit, whatever its spelling', async () => {
    const max = 12;
    const { app } = await newApp({ env: { RATE_LIMIT_GLOBAL_PER_MINUTE: String(max) } });
    // Signed in from another address, so the sign-in is not counted in this one's limit.
    const shopper = await signIn(app, undefined, '203.0.113.77');
    const gets = (await documentedRoutes(app)).filter((r) => r.method === 'GET').map((r) => r.path);
    expect(gets).toEqual(expect.arrayContaining(['/api/config', '/api/health']));
    const port = await listen(app);
    const runs = watch();
    const headers = { cookie: shopper.cookie };
    const spelled = async () => {
      const seen = runs.length;
      for (const path of gets) for (const [, spell] of SPELLINGS) await rawRequest(port, 'GET', spell(path), headers);
      return runs.length - seen;
    };

    // Spelled requests first: each that reaches a handler uses up one of the address's requests.
    const spelledRuns = await spelled();
    let answered = 0;
    for (let i = 0; i <= max; i++) {
      const res = await rawRequest(port, 'GET', '/api/config', headers);
      if (res.status === 429) break;
      expect(res.status).toBe(200);
      answered++;
    }
    expect({ spelledRuns, answered, total: spelledRuns + answered }).toEqual({
      spelledRuns,
      answered,
      total: expect.toSatisfy((n: number) => n <= max) as number,
    });
    expect((await rawRequest(port, 'GET', '/api/config', headers)).status).toBe(429);

    // Once the limit is reached, no spelling gets through to a handler.
    expect(await spelled()).toBe(0);
  });
});
