/**
 * Security review, round two (item 7): the data folder is created private, a deleted account's
 * personal data leaves the SQLite files at once (not at the next checkpoint), and HSTS is sent
 * only over https.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieOf, signIn, testApps } from '../test/app.js';
import { tempDir } from '../test/databases.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { verifyByEmail } from '../test/email-sign-in.js';

let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
});
afterAll(async () => {
  await smtp.close();
});
// Closed before the mail stand-in (after-hooks run in reverse order).
const newApp = testApps('sqlite');

const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);

async function signInByEmail(app: FastifyInstance, email: string, cookie: string): Promise<string> {
  const res = await verifyByEmail(app, smtp, email, { cookie });
  expect(res.statusCode).toBe(200);
  return sessionCookieOf(res);
}

describe('the data folder and deleted data', () => {
  it('attack 7: creates DATA_DIR 0700, even under a lax umask', async () => {
    const parent = tempDir();
    const dataDir = path.join(parent, 'fresh', 'data');
    const old = process.umask(0o000);
    try {
      await newApp({ dataDir });
      expect(mode(dataDir)).toBe('700');
      expect(mode(path.join(dataDir, 'session-secret'))).toBe('600');
    } finally {
      process.umask(old);
    }
  });

  it('attack 7: a deleted account’s email leaves app.db and its write-ahead log at once', async () => {
    const t = await newApp({ env: { SMTP_URL: smtp.url } });
    const { app, config } = t;
    const secureDelete = await sql<{ secure_delete: number }>`PRAGMA secure_delete`.execute(app.db);
    expect(secureDelete.rows[0]?.secure_delete).toBe(1);

    const email = `forget.me.${process.pid}.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const s = await signIn(app);
    const cookie = await signInByEmail(app, email, s.cookie);
    const files = ['app.db', 'app.db-wal'].map((f) => path.join(config.dataDir, f));
    const holding = () =>
      files.filter((f) => fs.existsSync(f) && fs.readFileSync(f).includes(Buffer.from(email, 'utf8')));
    expect(holding().length).toBeGreaterThan(0);

    const res = await app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(holding()).toEqual([]);
  });
});

describe('HSTS', () => {
  const hsts = async (env: Record<string, string>, headers: Record<string, string> = {}) => {
    const t = await newApp({ env });
    const res = await t.app.inject({ method: 'GET', url: '/api/config', headers });
    return res.headers['strict-transport-security'];
  };

  it('attack 7: is not sent over plain http', async () => {
    expect(await hsts({})).toBeUndefined();
    // A trusted proxy that says the request came over http.
    expect(await hsts({ TRUST_PROXY: '1', PUBLIC_URL: 'https://dress.example' }, { 'x-forwarded-proto': 'http' })).toBe(
      undefined,
    );
    // An untrusted X-Forwarded-Proto changes nothing.
    expect(await hsts({}, { 'x-forwarded-proto': 'https' })).toBeUndefined();
  });

  it('is sent over https: through a trusted proxy, or with an https PUBLIC_URL', async () => {
    expect(await hsts({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'https' })).toMatch(/^max-age=\d+/);
    expect(await hsts({ PUBLIC_URL: 'https://dress.example' })).toMatch(/^max-age=\d+/);
  });
});
