/**
 * The operator console's users on SQLite and PostgreSQL: search, a user's page, credits added and
 * taken back through the ledger (never below zero, a reason required), blocks (403 ACCOUNT_BLOCKED
 * on try-on and on email sign-in), the audit rows of each, and account deletion keeping the audit
 * rows without personal data.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdminAuditResponseSchema,
  AdminUserDetailResponseSchema,
  AdminUserResponseSchema,
  AdminUserSearchResponseSchema,
  ErrorResponseSchema,
  MESSAGES,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { newDeviceId, signIn, type TestApp, testApps } from '../../test/app.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { memoryMailer, newEmail, signInByEmail, verifyEmail, type MemoryMailer } from '../../test/operator.js';
import { REMOVED } from '../../repositories/audit.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});

function tryOn(app: FastifyInstance, cookie: string, userId: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

describe.each(DATABASE_KINDS)('operator console users on %s', (kind) => {
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

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: operator.cookie } });
  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, payload, headers: { cookie: operator.cookie } });
  const detail = async (id: string) =>
    AdminUserDetailResponseSchema.parse((await get(`/api/admin/users/${id}`)).json()).user;
  const audit = async () => AdminAuditResponseSchema.parse((await get('/api/admin/audit?limit=200')).json()).items;

  it('finds users by part of an email, an id or its prefix, and a device id', async () => {
    const email = newEmail('findme');
    const account = await signInByEmail(t.app, mailer, email);
    const deviceId = newDeviceId();
    const anonymous = await signIn(t.app, deviceId);
    const search = async (query: string) =>
      AdminUserSearchResponseSchema.parse((await get(`/api/admin/users?query=${encodeURIComponent(query)}`)).json())
        .items;

    const part = email.slice(0, 12).toUpperCase();
    expect((await search(part)).map((u) => u.id)).toContain(account.userId);
    expect((await search(account.userId)).map((u) => u.id)).toEqual([account.userId]);
    expect((await search(anonymous.user.id.slice(0, 8))).map((u) => u.id)).toContain(anonymous.user.id);
    expect((await search(deviceId)).map((u) => u.id)).toEqual([anonymous.user.id]);
    const [found] = await search(account.userId);
    expect(found).toMatchObject({
      id: account.userId,
      email,
      credits: 0,
      free_trials_used: 0,
      free_trials_limit: 2,
      segment: 'trial',
      blocked: false,
    });
    // LIKE's wildcards are searched for as text.
    expect(await search('%')).toEqual([]);
    expect((await get('/api/admin/users?query=')).statusCode).toBe(400);
    expect((await get('/api/admin/users/unknown-user')).statusCode).toBe(404);
  });

  it('adds and takes back credits through the ledger, never below zero, each with its reason and audit row', async () => {
    const shopper = await signIn(t.app);
    const id = shopper.user.id;
    const add = await post(`/api/admin/users/${id}/credits`, { amount: 5, reason: 'goodwill: slow service' });
    expect(add.statusCode).toBe(200);
    expect(AdminUserResponseSchema.parse(add.json()).user).toMatchObject({ id, credits: 5, segment: 'trial' });

    t.clock.advance(1000);
    const take = await post(`/api/admin/users/${id}/credits`, { amount: -3, reason: 'granted twice by mistake' });
    expect(AdminUserResponseSchema.parse(take.json()).user.credits).toBe(2);
    t.clock.advance(1000);
    const tooMuch = await post(`/api/admin/users/${id}/credits`, { amount: -10, reason: 'abuse' });
    expect(AdminUserResponseSchema.parse(tooMuch.json()).user.credits).toBe(0);

    for (const body of [
      { amount: 5 },
      { amount: 5, reason: '   ' },
      { amount: 0, reason: 'x' },
      { amount: 1.5, reason: 'x' },
    ]) {
      const refused = await post(`/api/admin/users/${id}/credits`, body);
      expect(refused.statusCode).toBe(400);
      expect(ErrorResponseSchema.parse(refused.json()).code).toBe('VALIDATION_ERROR');
    }
    expect((await post('/api/admin/users/nobody/credits', { amount: 1, reason: 'x' })).statusCode).toBe(404);

    // The shopper sees the balance the ledger holds.
    const own = await t.app.inject({ method: 'GET', url: `/api/auth/user/${id}`, headers: { cookie: shopper.cookie } });
    expect(own.json<{ user: { credits: number } }>().user.credits).toBe(0);

    const page = await detail(id);
    const manual = page.ledger.filter((e) => e.actor !== null);
    expect(manual.map((e) => [e.kind, e.amount, e.balance_after, e.reason])).toEqual([
      ['grant', 5, 5, 'goodwill: slow service'],
      ['admin_remove', -3, 2, 'granted twice by mistake'],
      ['admin_remove', -2, 0, 'abuse'],
    ]);
    for (const e of manual) expect(e.actor).toEqual({ id: operator.userId, email: operatorEmail });
    expect(page.payments.grants).toEqual([expect.objectContaining({ source: 'admin', amount: 5, remaining: 0 })]);

    const rows = (await audit()).filter((a) => a.target_id === id);
    expect(rows.map((a) => [a.action, a.reason, a.before, a.after])).toEqual([
      ['credits.remove', 'abuse', { credits: 2 }, { credits: 0, requested: -10, changed: -2 }],
      ['credits.remove', 'granted twice by mistake', { credits: 5 }, { credits: 2, requested: -3, changed: -3 }],
      ['credits.add', 'goodwill: slow service', { credits: 0 }, { credits: 5, requested: 5, changed: 5 }],
    ]);
    for (const a of rows) expect(a.actor).toEqual({ id: operator.userId, email: operatorEmail });
  });

  it('shows a user’s page: ledger, try-ons, payments, sessions', async () => {
    const shopper = await signIn(t.app);
    expect((await tryOn(t.app, shopper.cookie, shopper.user.id)).statusCode).toBe(200);
    t.clock.advance(1000);
    const buy = await t.app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      payload: { planId: 'credits_200' },
      headers: { cookie: shopper.cookie },
    });
    expect(buy.statusCode).toBe(200);
    const page = await detail(shopper.user.id);
    expect(page).toMatchObject({ id: shopper.user.id, credits: 200, segment: 'customer', blocked: false });
    expect(page.sessions.count).toBe(1);
    expect(page.tryons).toEqual([
      expect.objectContaining({
        engine: 'test-double',
        category: 'upper_body',
        status: 'succeeded',
        units: 1,
        charge: 'trial',
        error_code: null,
        report: null,
      }),
    ]);
    expect(page.tryons[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(page.tryons[0]!.result_url).toBe(`/api/admin/tryons/${page.tryons[0]!.id}/result`);
    expect(page.ledger.map((e) => [e.kind, e.unit, e.amount, e.balance_after])).toEqual([
      ['trial_spend', 'free_trial', -1, 0],
      ['grant', 'credit', 200, 200],
    ]);
    expect(page.payments.grants).toEqual([
      expect.objectContaining({ source: 'demo', plan_id: 'credits_200', amount: 200 }),
    ]);
  });

  it('blocks an account: its sessions get 403 ACCOUNT_BLOCKED at once, email sign-in into it too; unblocking ends them', async () => {
    const email = newEmail('blocked');
    const shopper = await signInByEmail(t.app, mailer, email);
    await post(`/api/admin/users/${shopper.userId}/credits`, { amount: 3, reason: 'before the block' });

    t.clock.advance(1000);
    const blocked = await post(`/api/admin/users/${shopper.userId}/block`, { reason: 'chargeback fraud' });
    expect(AdminUserResponseSchema.parse(blocked.json()).user).toMatchObject({ blocked: true, credits: 3 });
    expect((await post(`/api/admin/users/${shopper.userId}/block`, {})).statusCode).toBe(400);

    const refusal = await tryOn(t.app, shopper.cookie, shopper.userId);
    expect(refusal.statusCode).toBe(403);
    expect(ErrorResponseSchema.parse(refusal.json())).toMatchObject({
      code: 'ACCOUNT_BLOCKED',
      error: MESSAGES.accountBlocked,
    });
    for (const url of ['/api/tryons', `/api/auth/user/${shopper.userId}`, '/api/billing/history']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: shopper.cookie } });
      expect(res.statusCode, url).toBe(403);
    }
    // Sign-in with the blocked session is refused too, not answered with a new user.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/auth/anonymous',
      headers: { cookie: shopper.cookie },
      payload: {
        deviceId: newDeviceId(),
        deviceInfo: { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' },
      },
    });
    expect(anonymous.statusCode).toBe(403);
    // Public routes still answer, so the page can say why.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/config', headers: { cookie: shopper.cookie } })).statusCode,
    ).toBe(200);

    // Email sign-in into the blocked account from a fresh browser: refused, and no session for it.
    const again = await verifyEmail(t.app, mailer, email);
    expect(again.statusCode).toBe(403);
    expect(ErrorResponseSchema.parse(again.json()).code).toBe('ACCOUNT_BLOCKED');
    expect(again.cookies.find((c) => c.name === 'aidu_session' && c.value !== '')).toBeUndefined();
    // Blocking refunded nothing and took nothing.
    expect((await detail(shopper.userId)).credits).toBe(3);

    t.clock.advance(1000);
    const unblocked = await post(`/api/admin/users/${shopper.userId}/unblock`, {
      reason: 'the bank confirmed the payment',
    });
    expect(AdminUserResponseSchema.parse(unblocked.json()).user.blocked).toBe(false);
    // The old session stays ended; signing in again works.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: shopper.cookie } })).statusCode,
    ).toBe(401);
    const back = await signInByEmail(t.app, mailer, email);
    expect(back.userId).toBe(shopper.userId);

    const rows = (await audit()).filter((a) => a.target_id === shopper.userId && a.action.startsWith('user.'));
    expect(rows.map((a) => [a.action, a.reason, a.before, a.after])).toEqual([
      ['user.unblock', 'the bank confirmed the payment', { blocked: true }, { blocked: false, sessions_ended: 1 }],
      ['user.block', 'chargeback fraud', { blocked: false }, { blocked: true }],
    ]);
  });

  it('does not let an operator block their own account', async () => {
    const res = await post(`/api/admin/users/${operator.userId}/block`, { reason: 'oops' });
    expect(res.statusCode).toBe(403);
  });

  it('keeps audit rows when the account is deleted, without its personal data', async () => {
    const email = newEmail('leaving');
    const shopper = await signInByEmail(t.app, mailer, email);
    await post(`/api/admin/users/${shopper.userId}/credits`, { amount: 2, reason: `goodwill for ${email}` });
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: shopper.cookie } });
    expect(deleted.statusCode).toBe(200);
    const rows = (await audit()).filter((a) => a.target_user_id === shopper.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'credits.add', reason: REMOVED, before: { credits: 0 } });
    expect(JSON.stringify(await audit())).not.toContain(email);
    expect((await detail(shopper.userId)).email).toBeNull();
  });

  it('pages the audit log newest first by a cursor', async () => {
    const shopper = await signIn(t.app);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      await post(`/api/admin/users/${shopper.user.id}/credits`, { amount: 1, reason: `page ${i}` });
    }
    const first = AdminAuditResponseSchema.parse((await get('/api/admin/audit?limit=2')).json());
    expect(first.items.map((a) => a.reason)).toEqual(['page 2', 'page 1']);
    expect(first.nextCursor).not.toBeNull();
    const second = AdminAuditResponseSchema.parse(
      (await get(`/api/admin/audit?limit=1&before=${first.nextCursor}`)).json(),
    );
    expect(second.items.map((a) => a.reason)).toEqual(['page 0']);
    expect((await get('/api/admin/audit?before=bogus')).statusCode).toBe(400);
  });
});
