import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthResponseSchema, UserResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { newDeviceId, sessionCookieOf, signIn, testApps } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';

describe.each(DATABASE_KINDS)('anonymous sign-in on %s', (kind) => {
  const build = testApps(kind);
  const make = (env?: Record<string, string>) => build(env ? { env } : {});

  it('creates a user and sets an HttpOnly SameSite=Lax signed session cookie; the device id opens no account', async () => {
    const { app } = await make();
    const deviceId = newDeviceId();
    const first = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      payload: {
        deviceId,
        deviceInfo: {
          browser: 'Netscape',
          os: 'iOS',
          device_type: 'mobile',
          screen_resolution: '390x844',
          timezone: 'Europe/Paris',
          language: 'fr-FR',
          country: null,
        },
      },
    });
    expect(first.statusCode).toBe(200);
    const body = AuthResponseSchema.parse(first.json());
    expect(body.isNew).toBe(true);
    expect(body.user).toMatchObject({ credits: 0, free_trials_used: 0, free_trials_limit: 2, segment: 'trial' });
    expect(body.user.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(body.user.subscription).toBeUndefined();
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/aidu_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    // The cookie is signed: its value is not just the user id.
    expect(first.cookies[0]?.value).not.toBe(body.user.id);
    const row = await app.db.selectFrom('users').selectAll().where('id', '=', body.user.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.device_info)).toMatchObject({ browser: 'Unknown', os: 'iOS', device_type: 'mobile' });

    // The same device id with the session: the same user.
    const cookie = sessionCookieOf(first);
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { cookie },
      payload: { deviceId },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, isNew: false, user: { id: body.user.id } });
    // The same device id without it: always a new user, who sees nothing of the first.
    const stranger = await app.inject({ method: 'POST', url: '/api/auth/anonymous', payload: { deviceId } });
    expect(stranger.statusCode).toBe(200);
    const strangerBody = AuthResponseSchema.parse(stranger.json());
    expect(strangerBody.isNew).toBe(true);
    expect(strangerBody.user.id).not.toBe(body.user.id);
    const peek = await app.inject({
      method: 'GET',
      url: `/api/auth/user/${body.user.id}`,
      headers: { cookie: sessionCookieOf(stranger) },
    });
    expect(peek.statusCode).toBe(403);
    // The cookie holds a random token; the database only its hash.
    const sessions = await app.db.selectFrom('sessions').selectAll().where('user_id', '=', body.user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(cookie).not.toContain(sessions[0]!.id);
  });

  it('refuses malformed device ids with INVALID_DEVICE_ID and creates nobody', async () => {
    const { app } = await make();
    for (const deviceId of ['short', 'a'.repeat(129), 'has space in it', 'semi;colon12', 12345678, null]) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/anonymous', payload: { deviceId } });
      expectApiError(res, 400, 'INVALID_DEVICE_ID', 'Invalid device id.');
    }
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expectApiError(bad, 400, 'VALIDATION_ERROR');
    const count = await app.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('reads only the session’s own user', async () => {
    const { app } = await make();
    const alice = await signIn(app);
    const bob = await signIn(app);
    const own = await app.inject({
      method: 'GET',
      url: `/api/auth/user/${alice.user.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(own.statusCode).toBe(200);
    expect(UserResponseSchema.parse(own.json()).user.id).toBe(alice.user.id);

    const other = await app.inject({
      method: 'GET',
      url: `/api/auth/user/${bob.user.id}`,
      headers: { cookie: alice.cookie },
    });
    expectApiError(other, 403, 'FORBIDDEN');

    const none = await app.inject({ method: 'GET', url: `/api/auth/user/${alice.user.id}` });
    expectApiError(none, 401, 'UNAUTHORIZED');

    // A forged cookie (unsigned user id) is no session.
    const forged = await app.inject({
      method: 'GET',
      url: `/api/auth/user/${bob.user.id}`,
      headers: { cookie: `aidu_session=${bob.user.id}` },
    });
    expect(forged.statusCode).toBe(401);
    // Nor is a signed cookie tampered with.
    const value = alice.cookie.slice('aidu_session='.length);
    const tampered = `aidu_session=${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    const res = await app.inject({
      method: 'GET',
      url: `/api/auth/user/${bob.user.id}`,
      headers: { cookie: tampered },
    });
    expect(res.statusCode).toBe(401);
  });

  it('starts new users without free trials past the daily cap per address', async () => {
    const { app } = await make({ NEW_USERS_PER_IP_PER_DAY: '2' });
    const a = await signIn(app, newDeviceId(), '198.51.100.1');
    const b = await signIn(app, newDeviceId(), '198.51.100.1');
    const c = await signIn(app, newDeviceId(), '198.51.100.1');
    const elsewhere = await signIn(app, newDeviceId(), '198.51.100.2');
    expect([a, b, c, elsewhere].map((s) => [s.user.free_trials_used, s.user.segment])).toEqual([
      [0, 'trial'],
      [0, 'trial'],
      [2, 'trial_exhausted'],
      [0, 'trial'],
    ]);
    const rows = await app.db.selectFrom('users').select('signup_ip_hash').execute();
    expect(rows.every((r) => r.signup_ip_hash && !r.signup_ip_hash.includes('198.51'))).toBe(true);
  });

  it('rate-limits sign-in per address', async () => {
    const { app } = await make({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/anonymous',
        remoteAddress: '192.0.2.77',
        payload: { deviceId: newDeviceId() },
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) expectApiError(res, 429, 'RATE_LIMITED');
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
  });

  it('keeps a generated session secret in the data folder, mode 600, across restarts', async () => {
    const t = await make();
    const file = path.join(t.config.dataDir, 'session-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const alice = await signIn(t.app);
    const restarted = await build({
      dataDir: t.config.dataDir,
      ...(t.config.databaseUrl ? { databaseUrl: t.config.databaseUrl } : {}),
    });
    const res = await restarted.app.inject({
      method: 'GET',
      url: `/api/auth/user/${alice.user.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(res.statusCode).toBe(200);
  });

  it('sets a Secure SameSite=None cookie when the web app is on another origin', async () => {
    const { app } = await make({ CORS_ORIGIN: 'https://shop.example.com' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { origin: 'https://shop.example.com' },
      payload: { deviceId: newDeviceId() },
    });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/SameSite=None/i);
    expect(setCookie).toMatch(/Secure/i);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { origin: 'https://evil.example' },
      payload: { deviceId: newDeviceId() },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // A cross-site cookie is Secure, so it carries the __Host- prefix.
    expect(setCookie).toMatch(/^__Host-aidu_session=/);
  });
});
