/**
 * Reports of bad results on SQLite and PostgreSQL: the first AUTO_REFUND_REPORTS in 30 days are
 * refunded at once through the ledger (a free trial as a free trial, an outfit's two units), later
 * ones wait for an operator, who decides each once (concurrent refunds grant once), with audit
 * rows; a second report is 409, another user's try-on 404. Also the audited result view and the
 * statistics.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdminAuditResponseSchema,
  AdminReportDecisionResponseSchema,
  AdminReportListResponseSchema,
  AdminStatsResponseSchema,
  ErrorResponseSchema,
  ReportTryOnResponseSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, type TestApp, testApps } from '../../test/app.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { ledgerTryOn, memoryMailer, newEmail, signInByEmail, type MemoryMailer } from '../../test/operator.js';
import { findUserById } from '../../repositories/users.js';
import { balance, grantCredits } from '../../ledger/ledger.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DATABASE_KINDS)('reports of bad results on %s', (kind) => {
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

  const report = (cookie: string, tryonId: string, payload: Record<string, unknown> = { reason: 'wrong_garment' }) =>
    t.app.inject({ method: 'POST', url: `/api/tryons/${tryonId}/report`, payload, headers: { cookie } });
  const asOperator = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { cookie: operator.cookie }, ...(payload ? { payload } : {}) });
  const give = (app: FastifyInstance, userId: string, amount: number) =>
    grantCredits(app.db, {
      userId,
      source: 'demo',
      planId: 'credits_200',
      amount,
      expiresAt: null,
      externalRef: null,
      now: app.clock(),
    });
  const trialsUsed = async (userId: string) => (await findUserById(t.app.db, userId))!.free_trials_used;

  it('gives a free trial back as a free trial, and shows the report in the gallery', async () => {
    const shopper = await signIn(t.app);
    const id = await ledgerTryOn(t.app, shopper.user.id);
    expect(await trialsUsed(shopper.user.id)).toBe(1);
    const res = await report(shopper.cookie, id, { reason: 'body_or_face_changed', note: 'my face looks different' });
    expect(res.statusCode).toBe(200);
    expect(ReportTryOnResponseSchema.parse(res.json())).toEqual({
      success: true,
      status: 'refunded',
      creditsRemaining: 0,
    });
    expect(await trialsUsed(shopper.user.id)).toBe(0);
    const gallery = await t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: shopper.cookie } });
    expect(TryOnListResponseSchema.parse(gallery.json()).items).toEqual([
      expect.objectContaining({ id, report: { status: 'refunded', reason: 'body_or_face_changed' } }),
    ]);
    const again = await report(shopper.cookie, id);
    expect(again.statusCode).toBe(409);
    expect(ErrorResponseSchema.parse(again.json()).code).toBe('ALREADY_REPORTED');
  });

  it('gives both units of a whole outfit back', async () => {
    const shopper = await signIn(t.app);
    await give(t.app, shopper.user.id, 10);
    await ledgerTryOn(t.app, shopper.user.id, { units: 2 }); // the two free trials
    const outfit = await ledgerTryOn(t.app, shopper.user.id, { units: 2 });
    expect(await balance(t.app.db, shopper.user.id, t.app.clock())).toBe(8);
    const res = ReportTryOnResponseSchema.parse((await report(shopper.cookie, outfit)).json());
    expect(res).toMatchObject({ status: 'refunded', creditsRemaining: 10 });
    const events = await t.app.db
      .selectFrom('credit_events')
      .select(['type', 'amount', 'tryon_id', 'note'])
      .where('user_id', '=', shopper.user.id)
      .where('type', '=', 'refund')
      .execute();
    expect(events).toHaveLength(2);
    for (const e of events) expect(e).toMatchObject({ amount: 1, note: 'report wrong_garment: refunded at once' });
  });

  it('refuses another user’s try-on (404), an unknown one (404), one that did not succeed (409) and a bad reason (400)', async () => {
    const owner = await signIn(t.app);
    const other = await signIn(t.app);
    const id = await ledgerTryOn(t.app, owner.user.id);
    expect((await report(other.cookie, id)).statusCode).toBe(404);
    expect((await report(other.cookie, 'no-such-tryon')).statusCode).toBe(404);
    expect((await report(owner.cookie, 'bad id!')).statusCode).toBe(404);
    const failed = await ledgerTryOn(t.app, owner.user.id, { fail: 'PERSON_NOT_FOUND' });
    const notReportable = await report(owner.cookie, failed);
    expect(notReportable.statusCode).toBe(409);
    expect(ErrorResponseSchema.parse(notReportable.json()).code).toBe('NOT_REPORTABLE');
    const badReason = await report(owner.cookie, id, { reason: 'ugly' });
    expect(badReason.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/tryons/${id}/report`, payload: { reason: 'other' } }))
        .statusCode,
    ).toBe(401);
  });

  it('refunds the first 3 reports in 30 days at once; later ones wait, and an operator decides each once', async () => {
    const shopper = await signIn(t.app);
    await give(t.app, shopper.user.id, 20);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await ledgerTryOn(t.app, shopper.user.id));
    // Two trials, then credits: 20 - 5 = 15.
    expect(await balance(t.app.db, shopper.user.id, t.app.clock())).toBe(15);
    const statuses = [];
    for (const id of ids.slice(0, 5)) {
      t.clock.advance(1000);
      statuses.push(ReportTryOnResponseSchema.parse((await report(shopper.cookie, id)).json()).status);
    }
    expect(statuses).toEqual(['refunded', 'refunded', 'refunded', 'pending', 'pending']);
    expect(await trialsUsed(shopper.user.id)).toBe(0);
    expect(await balance(t.app.db, shopper.user.id, t.app.clock())).toBe(16);

    const pending = AdminReportListResponseSchema.parse((await asOperator('GET', '/api/admin/reports')).json()).items;
    const mine = pending.filter((r) => r.user.id === shopper.user.id);
    expect(mine.map((r) => r.tryon_id)).toEqual([ids[3], ids[4]]);
    expect(mine[0]).toMatchObject({ status: 'pending', units: 1, reason: 'wrong_garment', engine: 'test-double' });
    expect(mine[0]!.result_url).toBe(`/api/admin/tryons/${ids[3]}/result`);

    // Five operators' tabs refund the same report at once: one grant.
    const decisions = await Promise.all(
      Array.from({ length: 5 }, () =>
        asOperator('POST', `/api/admin/reports/${mine[0]!.id}`, { decision: 'refund', note: 'clearly wrong' }),
      ),
    );
    expect(decisions.map((d) => d.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const d of decisions.filter((x) => x.statusCode === 409))
      expect(ErrorResponseSchema.parse(d.json()).code).toBe('REPORT_DECIDED');
    const decided = AdminReportDecisionResponseSchema.parse(decisions.find((d) => d.statusCode === 200)!.json()).report;
    expect(decided).toMatchObject({
      status: 'refunded',
      decided_by: { id: operator.userId, email: operatorEmail },
      decision_note: 'clearly wrong',
    });
    expect(await balance(t.app.db, shopper.user.id, t.app.clock())).toBe(17);
    const refundEvents = await t.app.db
      .selectFrom('credit_events')
      .select(['actor_id', 'note'])
      .where('user_id', '=', shopper.user.id)
      .where('type', '=', 'refund')
      .where('actor_id', 'is not', null)
      .execute();
    expect(refundEvents).toEqual([
      { actor_id: operator.userId, note: 'report wrong_garment: refunded by an operator' },
    ]);

    t.clock.advance(1000);
    const reject = await asOperator('POST', `/api/admin/reports/${mine[1]!.id}`, {
      decision: 'reject',
      note: 'looks fine',
    });
    expect(AdminReportDecisionResponseSchema.parse(reject.json()).report.status).toBe('rejected');
    expect(await balance(t.app.db, shopper.user.id, t.app.clock())).toBe(17);
    expect(
      (await asOperator('POST', `/api/admin/reports/${mine[1]!.id}`, { decision: 'refund', note: 'x' })).statusCode,
    ).toBe(409);
    expect((await asOperator('POST', `/api/admin/reports/${mine[1]!.id}`, { decision: 'refund' })).statusCode).toBe(
      400,
    );
    expect((await asOperator('POST', '/api/admin/reports/unknown', { decision: 'refund', note: 'x' })).statusCode).toBe(
      404,
    );

    const refunded = AdminReportListResponseSchema.parse(
      (await asOperator('GET', '/api/admin/reports?status=refunded')).json(),
    ).items;
    expect(refunded.filter((r) => r.user.id === shopper.user.id)).toHaveLength(4);
    const audit = AdminAuditResponseSchema.parse((await asOperator('GET', '/api/admin/audit?limit=200')).json()).items;
    const rows = audit.filter((a) => a.target_user_id === shopper.user.id);
    expect(rows.map((a) => [a.action, a.reason, a.before, a.after])).toEqual([
      [
        'report.reject',
        'looks fine',
        { status: 'pending' },
        { status: 'rejected', credits_refunded: 0, free_trials_refunded: 0 },
      ],
      [
        'report.refund',
        'clearly wrong',
        { status: 'pending' },
        { status: 'refunded', credits_refunded: 1, free_trials_refunded: 0 },
      ],
    ]);

    // 30 days after the first report, the allowance is back.
    t.clock.advance(30 * DAY_MS);
    expect(ReportTryOnResponseSchema.parse((await report(shopper.cookie, ids[5]!)).json()).status).toBe('refunded');
    // The operator's sign-in is older than 12 hours by now.
    operator = await signInByEmail(t.app, mailer, operatorEmail);
  });

  it('counts the allowance under concurrency: of six reports at once, three are refunded', async () => {
    const shopper = await signIn(t.app);
    await give(t.app, shopper.user.id, 10);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await ledgerTryOn(t.app, shopper.user.id));
    const answers = await Promise.all(ids.map((id) => report(shopper.cookie, id)));
    const statuses = answers.map((a) => ReportTryOnResponseSchema.parse(a.json()).status);
    expect(statuses.filter((s) => s === 'refunded')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(3);
  });

  it('lets an operator see a reported result, writing each view to the audit log', async () => {
    const shopper = await signIn(t.app);
    const made = await postMultipart(
      t.app,
      '/api/process-image',
      {
        userImage: { data: await jpeg(480, 640, '#c08060') },
        clothingImage: { data: await png(300, 300, '#2040ff'), filename: 'shirt.png', contentType: 'image/png' },
        category: 'upper_body',
        userId: shopper.user.id,
      },
      shopper.cookie,
    );
    const { tryonId } = TryOnResponseSchema.parse(made.json());
    expect((await report(shopper.cookie, tryonId!, { reason: 'badly_placed' })).statusCode).toBe(200);

    t.clock.advance(1000);
    // A HEAD sends no image: it is not a view, and the audit log does not say it was.
    const auditRows = async () =>
      (await t.app.db.selectFrom('audit_log').select('id').where('action', '=', 'result.view').execute()).length;
    const viewsBefore = await auditRows();
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/admin/tryons/${tryonId}/result`,
      headers: { cookie: operator.cookie },
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(await auditRows()).toBe(viewsBefore);
    const image = await asOperator('GET', `/api/admin/tryons/${tryonId}/result`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(image.headers['cache-control']).toBe('private, no-store');
    // A shopper cannot use the operator's address.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/admin/tryons/${tryonId}/result`,
          headers: { cookie: shopper.cookie },
        })
      ).statusCode,
    ).toBe(403);
    expect((await asOperator('GET', '/api/admin/tryons/unknown/result')).statusCode).toBe(404);
    expect(await auditRows()).toBe(viewsBefore + 1);
    const audit = AdminAuditResponseSchema.parse((await asOperator('GET', '/api/admin/audit')).json()).items;
    expect(audit[0]).toMatchObject({
      action: 'result.view',
      target_type: 'tryon',
      target_id: tryonId,
      target_user_id: shopper.user.id,
      actor: { id: operator.userId, email: operatorEmail },
    });
  });

  it('gives each engine’s health over the last hour and the last day, with its latest failure', async () => {
    const fresh = await newApp({
      mailer,
      env: { ADMIN_EMAILS: operatorEmail },
      start: new Date('2026-07-01T12:00:00.000Z'),
    });
    const { app } = fresh;
    const shopper = await signIn(app);
    await give(app, shopper.user.id, 10);
    await ledgerTryOn(app, shopper.user.id);
    await ledgerTryOn(app, shopper.user.id, { fail: 'PERSON_NOT_FOUND' });
    await ledgerTryOn(app, shopper.user.id, { fail: 'ENGINE_TIMEOUT' });
    await ledgerTryOn(app, shopper.user.id, { engine: 'other' });
    const op = await signInByEmail(app, mailer, operatorEmail);
    const engines = async () =>
      AdminStatsResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/admin/stats?days=1', headers: { cookie: op.cookie } })).json(),
      ).engines;

    const failure = { code: 'ENGINE_TIMEOUT', at: '2026-07-01T12:00:00.000Z' };
    const double = {
      engine: 'test-double',
      succeeded: 1,
      refused: 1,
      failed: 1,
      p50_ms: 1500,
      p95_ms: 1500,
      failovers: 0,
    };
    const other = { engine: 'other', succeeded: 1, refused: 0, failed: 0, p50_ms: 1500, p95_ms: 1500, failovers: 0 };
    expect(await engines()).toEqual([
      { ...other, window: 'hour', last_error: null },
      { ...other, window: 'day', last_error: null },
      { ...double, window: 'hour', last_error: failure },
      { ...double, window: 'day', last_error: failure },
    ]);
    // Two hours on, the last hour has nothing; the last day still has them.
    fresh.clock.advance(2 * 60 * 60 * 1000);
    expect(await engines()).toEqual([
      { ...other, window: 'day', last_error: null },
      { ...double, window: 'day', last_error: failure },
    ]);
  });

  it('counts the day’s try-ons by engine and outcome, new users, purchases and reports', async () => {
    const fresh = await newApp({
      mailer,
      env: { ADMIN_EMAILS: operatorEmail },
      start: new Date('2026-06-10T12:00:00.000Z'),
    });
    const { app } = fresh;
    const shopper = await signIn(app);
    await give(app, shopper.user.id, 10);
    const ok = await ledgerTryOn(app, shopper.user.id);
    await ledgerTryOn(app, shopper.user.id);
    await ledgerTryOn(app, shopper.user.id, { fail: 'PERSON_NOT_FOUND' });
    await ledgerTryOn(app, shopper.user.id, { fail: 'ENGINE_TIMEOUT' });
    await ledgerTryOn(app, shopper.user.id, { engine: 'other', units: 2 });
    await app.inject({
      method: 'POST',
      url: `/api/tryons/${ok}/report`,
      payload: { reason: 'other' },
      headers: { cookie: shopper.cookie },
    });
    fresh.clock.advance(DAY_MS);
    const op = await signInByEmail(app, mailer, operatorEmail);
    const res = await app.inject({ method: 'GET', url: '/api/admin/stats?days=3', headers: { cookie: op.cookie } });
    const stats = AdminStatsResponseSchema.parse(res.json());
    expect(stats.days.map((d) => d.date)).toEqual(['2026-06-09', '2026-06-10', '2026-06-11']);
    const day = stats.days[1]!;
    expect(day.tryons).toEqual([
      { engine: 'other', succeeded: 1, refused: 0, failed: 0, p50_ms: 1500, p95_ms: 1500, failovers: 0 },
      { engine: 'test-double', succeeded: 2, refused: 1, failed: 1, p50_ms: 1500, p95_ms: 1500, failovers: 0 },
    ]);
    expect(day.new_users).toBe(1);
    expect(day.purchases).toEqual([{ plan_id: 'credits_200', currency: null, count: 1, revenue: null }]);
    expect(day.reports).toEqual({ created: 1, refunded: 1, rejected: 0 });
    // The operator's account is the next day's new user.
    expect(stats.days[2]).toMatchObject({ tryons: [], new_users: 1, purchases: [], economics: [] });
    // 10 credits, less the outfit's two units (the first two try-ons were free trials, failures refunded).
    expect(stats.totals).toEqual({ credits_outstanding: 8, active_plans: 0 });
    // Closed days are computed once and stored; the open day is aggregated on each request.
    const stored = await app.db.selectFrom('admin_daily_stats').select('day').orderBy('day').execute();
    expect(stored.map((r) => r.day)).toEqual(['2026-06-09', '2026-06-10']);
    await ledgerTryOn(app, shopper.user.id);
    const later = AdminStatsResponseSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/admin/stats?days=3', headers: { cookie: op.cookie } })).json(),
    );
    expect(later.days.slice(0, 2)).toEqual(stats.days.slice(0, 2));
    expect(later.days[2]!.tryons).toEqual([
      { engine: 'test-double', succeeded: 1, refused: 0, failed: 0, p50_ms: 1500, p95_ms: 1500, failovers: 0 },
    ]);
    for (const q of ['days=0', 'days=91', 'days=x'])
      expect(
        (await app.inject({ method: 'GET', url: `/api/admin/stats?${q}`, headers: { cookie: op.cookie } })).statusCode,
      ).toBe(400);
  });
});
