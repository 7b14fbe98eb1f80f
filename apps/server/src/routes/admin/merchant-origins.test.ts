/**
 * Merchants' allowed origins are strict (docs/embed.md): `https://` (or `http://` for localhost
 * only), a hostname of letters, digits, dots and hyphens, an optional port, nothing else. They go
 * verbatim into the frame page's `frame-ancestors`, so `https://*`, a path, `;` or `,` (a directive
 * injected) or userinfo are refused by the operator's create and PATCH calls; a row holding such an
 * origin already (written before this rule) is reported at start, its bad origins are dropped on
 * every read, and they never reach the frame page's CSP or an embed session. Other merchants keep
 * working.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AdminMerchantCreatedResponseSchema, ErrorResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS, freshDatabaseEnv } from '../../test/databases.js';
import { testApps } from '../../test/app.js';
import { memoryMailer, newEmail, signInByEmail } from '../../test/operator.js';
import { insertMerchant } from '../../repositories/merchants.js';
import { createUser } from '../../repositories/users.js';

const BAD_ORIGINS = [
  'https://*',
  'https://*.example.com',
  'https://shop.example;script-src *',
  'https://shop.example, https://evil.example',
  'https://shop.example,evil.example',
  'https://user:pass@shop.example',
  'https://user@shop.example',
  'https://shop.example/path',
  'https://shop.example/?x=1',
  'https://shop.example/#x',
  'http://shop.example',
  'http://127.0.0.1:4321',
  'ftp://shop.example',
  'javascript:alert(1)',
  'https://shop_example.com',
  'https://shop..example',
  'https://.shop.example',
  'https://shop.example:99999',
  'https://shop.example:',
  'https://[::1]',
  "https://shop.example 'unsafe-inline'",
  '*',
  "'self'",
  'https://',
];
const GOOD_ORIGINS: [string, string][] = [
  ['https://shop.example', 'https://shop.example'],
  ['https://Shop.Example/', 'https://shop.example'],
  ['https://shop-1.example.co.uk:8443', 'https://shop-1.example.co.uk:8443'],
  ['https://shop.example:443', 'https://shop.example'],
  ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
  ['https://192.0.2.10', 'https://192.0.2.10'],
  ['http://localhost', 'http://localhost'],
  ['http://localhost:5173', 'http://localhost:5173'],
];

describe.each(DATABASE_KINDS)('merchant origins on %s', (kind) => {
  const newApp = testApps(kind);
  const operatorEmail = newEmail('operator');
  const mailer = memoryMailer();
  let env: { DATA_DIR: string; DATABASE_URL?: string };
  beforeAll(async () => {
    env = await freshDatabaseEnv(kind);
  });
  const appOn = (logStream?: { write(line: string): void }) =>
    newApp({
      mailer,
      dataDir: env.DATA_DIR,
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
      env: { ADMIN_EMAILS: operatorEmail, ...(logStream ? { LOG_LEVEL: 'info' } : {}) },
      ...(logStream ? { logStream } : {}),
    });

  it('the operator can set only strict origins, on create and on change', async () => {
    const { app } = await appOn();
    const operator = await signInByEmail(app, mailer, operatorEmail);
    const call = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      app.inject({ method, url, payload, headers: { cookie: operator.cookie } });

    const created = await call('POST', '/api/admin/merchants', {
      name: 'Good Shop',
      allowedOrigins: GOOD_ORIGINS.map(([o]) => o),
      credits: 0,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { merchant } = AdminMerchantCreatedResponseSchema.parse(created.json());
    expect(merchant.allowedOrigins).toEqual([...new Set(GOOD_ORIGINS.map(([, o]) => o))]);

    for (const bad of BAD_ORIGINS) {
      const create = await call('POST', '/api/admin/merchants', {
        name: 'Bad Shop',
        allowedOrigins: [bad],
        credits: 0,
      });
      expect(create.statusCode, `create with ${JSON.stringify(bad)}`).toBe(400);
      expect(ErrorResponseSchema.parse(create.json()).code).toBe('VALIDATION_ERROR');
      const change = await call('PATCH', `/api/admin/merchants/${merchant.id}`, {
        allowedOrigins: ['https://shop.example', bad],
        reason: 'a bad origin',
      });
      expect(change.statusCode, `change to ${JSON.stringify(bad)}`).toBe(400);
    }
    const merchants = await app.db.selectFrom('merchants').select(['name', 'allowed_origins']).execute();
    expect(merchants.map((m) => m.name)).toEqual(['Good Shop']);
    expect(JSON.parse(merchants[0]!.allowed_origins)).toEqual(merchant.allowedOrigins);
  });

  it('a row with bad origins from before is reported at start, and they never reach the CSP or a session', async () => {
    const { app: first } = await appOn();
    const now = new Date();
    const insert = async (name: string, origins: string[]) => {
      const account = await createUser(first.db, {
        deviceId: null,
        deviceInfo: { merchant: name },
        signupIpHash: null,
        freeTrialsUsed: 0,
        freeTrialsWithheld: null,
        now,
      });
      const key = `pk_${name.replace(/\W/g, '')}000000000000000000000000`;
      await insertMerchant(first.db, {
        id: `m_${name.replace(/\W/g, '')}`,
        name,
        user_id: account.id,
        publishable_key: key,
        secret_key_hash: `hash_${name}`,
        allowed_origins: JSON.stringify(origins),
        billing: 'merchant',
        daily_limit: 10,
        shopper_daily_limit: 10,
        out_of_credits_at: null,
        refused_no_credits: 0,
        created_at: now.toISOString(),
        keys_rotated_at: null,
      });
      return key;
    };
    const mixed = await insert('Mixed Shop', [
      'https://mixed.example',
      'https://*',
      'https://a.example;script-src https://evil.example',
    ]);
    const allBad = await insert('Wild Shop', ['https://*.example.com', 'https://b.example, https://evil.example']);
    const fine = await insert('Fine Shop', ['https://fine.example']);
    await first.close();

    const lines: string[] = [];
    const { app } = await appOn({ write: (line) => void lines.push(line) });
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; level: number; merchant?: { name?: string } });
    const about = (name: string) => logged.filter((l) => l.merchant?.name === name);
    expect(about('Mixed Shop').map((l) => l.msg)).toEqual([
      expect.stringMatching(/merchant .*allowed origins? refused/i) as string,
    ]);
    expect(JSON.stringify(about('Mixed Shop'))).toContain('https://*');
    expect(about('Wild Shop').map((l) => l.msg)).toEqual([expect.stringMatching(/no valid allowed origin/i) as string]);
    expect(about('Fine Shop')).toEqual([]);

    const csp = async (key: string) =>
      String((await app.inject({ method: 'GET', url: `/embed?key=${key}` })).headers['content-security-policy']);
    const ancestors = (policy: string) => /frame-ancestors ([^;]*)/.exec(policy)?.[1];
    expect(ancestors(await csp(mixed))).toBe('https://mixed.example');
    expect(ancestors(await csp(allBad))).toBe("'none'");
    expect(ancestors(await csp(fine))).toBe('https://fine.example');
    for (const key of [mixed, allBad]) {
      // No directive injected: one script-src (the product's), no foreign site anywhere.
      const policy = await csp(key);
      expect(policy.split(';').filter((d) => d.trim().startsWith('script-src'))).toHaveLength(1);
      expect(policy).not.toContain('evil');
    }

    const session = (key: string, origin: string) =>
      app.inject({ method: 'POST', url: '/api/embed/session', payload: { key }, headers: { origin } });
    expect((await session(mixed, 'https://mixed.example')).statusCode).toBe(200);
    expect((await session(mixed, 'https://*')).statusCode).toBe(403);
    expect((await session(allBad, 'https://*.example.com')).statusCode).toBe(403);
    expect((await session(fine, 'https://fine.example')).statusCode).toBe(200);

    // The operator sets the origins again: the audit log keeps what was stored, refused ones included.
    const operator = await signInByEmail(app, mailer, operatorEmail);
    const changed = await app.inject({
      method: 'PATCH',
      url: '/api/admin/merchants/m_MixedShop',
      payload: { allowedOrigins: ['https://mixed.example'], reason: 'origins checked' },
      headers: { cookie: operator.cookie },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'merchant.update')
      .where('target_id', '=', 'm_MixedShop')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toMatchObject({
      allowedOrigins: expect.arrayContaining(['https://*']) as unknown,
    });
  });
});
