/**
 * Failover between engines inside the whole product, on SQLite and PostgreSQL: vertex-tryon,
 * replicate and cog enabled by configuration alone against their stand-ins (the tests' only
 * network), ENGINE_FALLBACK `vertex-tryon=replicate,cog`. A provider that fails moves the try-on to
 * the next engine, charged once, with the engine that made it in the answer, on the row and in the
 * operator's statistics; a refusal of the photos never fails over; with every engine failing, one
 * refund. Health shows each provider, and an engine that is down is neither offered nor used.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdminStatsResponseSchema,
  AdminHealthResponseSchema,
  HealthResponseSchema,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  PublicConfigSchema,
  TryOnResponseSchema,
} from '@aidressup/contract';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { DATABASE_KINDS, tempDir } from '../test/databases.js';
import { postMultipart } from '../test/images.js';
import { memoryMailer, newEmail, signInByEmail, type MemoryMailer } from '../test/operator.js';
import { expectApiError } from '../test/api-error.js';
import { startCogStandIn, type CogStandIn } from '../test/stand-ins/cog-stand-in.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../test/stand-ins/replicate-stand-in.js';
import { startVertexStandIn, type VertexStandIn } from '../test/stand-ins/vertex-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { findTryOn } from '../repositories/tryons.js';

const TOKEN = 'r8_failover-token-0123456789';

let vertex: VertexStandIn;
let replicate: ReplicateStandIn;
let cog: CogStandIn;
let person: Buffer;
let garment: Buffer;
let keyFile: string;

beforeAll(async () => {
  [vertex, replicate, cog] = await Promise.all([
    startVertexStandIn(),
    startReplicateStandIn({ token: TOKEN }),
    startCogStandIn(),
  ]);
  [person, garment] = await Promise.all([
    syntheticPhoto(900, 1350, { seed: 71 }),
    syntheticPhoto(800, 800, { seed: 72 }),
  ]);
  // GOOGLE_APPLICATION_CREDENTIALS: the service account's key file, its token_uri the stand-in's.
  keyFile = path.join(tempDir('aidressup-vertex-'), 'key.json');
  fs.writeFileSync(keyFile, JSON.stringify(vertex.key));
});
afterAll(async () => {
  await Promise.all([vertex?.close(), replicate?.close(), cog?.close()]);
});
beforeEach(() => {
  vertex.reset();
  replicate.reset();
  cog.reset();
});

describe.each(DATABASE_KINDS)('failover between hosted engines on %s', (kind) => {
  const operatorEmail = newEmail('operator');
  const make = testApps(kind, () => ({
    engines: 'configured',
    env: {
      ENGINE_DEADLINE_MS: '20000',
      VERTEX_PROJECT: vertex.project,
      VERTEX_BASE_URL: vertex.url,
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      REPLICATE_API_TOKEN: TOKEN,
      REPLICATE_BASE_URL: replicate.url,
      // Replicate's delivery CDN stand-in is on another port of 127.0.0.1, trusted as a mirror would be.
      UPSTREAM_OUTPUT_ORIGINS: new URL(replicate.cdnUrl).origin,
      COG_URL: cog.url,
      DEFAULT_ENGINE: 'vertex-tryon',
      ENGINE_FALLBACK: 'vertex-tryon=replicate,cog',
      ADMIN_EMAILS: operatorEmail,
    },
  }));
  let t: TestApp;
  let mailer: MemoryMailer;
  beforeAll(async () => {
    mailer = memoryMailer();
    t = await make({ mailer });
  });

  const tryOn = (cookie: string, userId: string, api = 'vertex-tryon') =>
    postMultipart(
      t.app,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
        category: 'upper_body',
        userId,
        api,
      },
      cookie,
    );
  const spending = async (userId: string) =>
    (
      await t.app.db
        .selectFrom('credit_events')
        .select(['type', 'amount'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()
    ).map((e) => `${e.type} ${e.amount}`);

  it('serves try-ons through each of vertex-tryon, replicate and cog with only the stand-ins reachable', async () => {
    for (const api of ['vertex-tryon', 'replicate', 'cog']) {
      const shopper = await signIn(t.app);
      const res = await tryOn(shopper.cookie, shopper.user.id, api);
      expect(res.statusCode, res.body).toBe(200);
      expect(TryOnResponseSchema.parse(res.json()).engine).toBe(api);
    }
    expect(vertex.predictCalls()).toHaveLength(1);
    expect(replicate.createCalls()).toHaveLength(1);
    expect(cog.predictionCalls()).toHaveLength(1);
  });

  it('a provider that fails (503, then quota) moves the try-on to the next engine: charged once, the engine recorded and counted', async () => {
    vertex.fallback = { kind: 'http', status: 503 };
    const shopper = await signIn(t.app);
    const res = await tryOn(shopper.cookie, shopper.user.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect(body).toMatchObject({ engine: 'replicate', usedFreeTrial: true, tryOnsUsed: 1 });
    expect(vertex.predictCalls().length).toBeGreaterThanOrEqual(1);
    expect(replicate.createCalls()).toHaveLength(1);
    expect(cog.predictionCalls()).toHaveLength(0);
    expect(await spending(shopper.user.id)).toEqual(['trial_spend -1']);
    const row = await findTryOn(t.app.db, body.tryonId!);
    // Pruna's price for one garment, as the engine's price list gives it.
    expect(row).toMatchObject({
      status: 'succeeded',
      engine: 'replicate',
      requested_engine: 'vertex-tryon',
      cost_micros: 15_000,
    });

    // Replicate over its quota too: on to the Cog server.
    replicate.fallback = { kind: 'http', status: 429 };
    const second = await signIn(t.app);
    const again = TryOnResponseSchema.parse((await tryOn(second.cookie, second.user.id)).json());
    expect(again.engine).toBe('cog');
    expect(await spending(second.user.id)).toEqual(['trial_spend -1']);

    const op = await signInByEmail(t.app, mailer, operatorEmail);
    const stats = AdminStatsResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/admin/stats?days=1', headers: { cookie: op.cookie } })).json(),
    );
    const today = stats.days.at(-1)!;
    // Counted under the engine asked: both were asked of vertex-tryon and made elsewhere.
    expect(today.tryons.find((e) => e.engine === 'vertex-tryon')).toMatchObject({ failovers: 2 });
    expect(today.tryons.find((e) => e.engine === 'replicate')).toMatchObject({ failovers: 0 });
    expect(today.tryons.find((e) => e.engine === 'cog')).toMatchObject({ failovers: 0 });
    // Every Replicate try-on of the day (this suite's earlier ones too) at Pruna's $0.015, earning nothing (free trials).
    const economics = today.economics.find((e) => e.engine === 'replicate')!;
    expect(economics.tryons).toBeGreaterThanOrEqual(1);
    expect(economics).toEqual({
      engine: 'replicate',
      tryons: economics.tryons,
      revenue: '0.0000',
      cost: (economics.tryons * 0.015).toFixed(4),
      margin: (-economics.tryons * 0.015).toFixed(4),
    });
    expect(stats.engines.find((e) => e.engine === 'vertex-tryon' && e.window === 'hour')).toMatchObject({
      failovers: 2,
    });
  });

  it('a content refusal never fails over: 422 CONTENT_BLOCKED, nothing charged, the next engine never called', async () => {
    vertex.enqueue({ kind: 'filtered' });
    const shopper = await signIn(t.app);
    const res = await tryOn(shopper.cookie, shopper.user.id);
    expectApiError(res, 422, 'CONTENT_BLOCKED', MESSAGES.contentBlocked);
    expect(replicate.createCalls()).toHaveLength(0);
    expect(await spending(shopper.user.id)).toEqual(['trial_spend -1', 'trial_refund 1']);
  });

  it('with every engine failing (5xx, a timeout, a malformed answer), one refund and the last engine’s error', async () => {
    // vertex-tryon hangs: cut at its share of the deadline (the time left less what the next ones need).
    vertex.fallback = { kind: 'hang' };
    replicate.fallback = { kind: 'malformed' };
    cog.fallback = { kind: 'http', status: 500 };
    const shopper = await signIn(t.app);
    const res = await tryOn(shopper.cookie, shopper.user.id);
    expectApiError(res, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
    expect(vertex.predictCalls()[0]!.abortedByClient).toBe(true);
    expect(replicate.createCalls().length).toBeGreaterThanOrEqual(1);
    expect(cog.predictionCalls().length).toBeGreaterThanOrEqual(1);
    expect(await spending(shopper.user.id)).toEqual(['trial_spend -1', 'trial_refund 1']);
  });

  it('health shows each provider; a Cog server that failed its setup is down: not offered, and its try-ons refused uncharged', async () => {
    const freshMailer = memoryMailer();
    const fresh = await make({ mailer: freshMailer });
    cog.healthStatus = 'SETUP_FAILED';
    await fresh.app.engines.warmAll();
    const publicAnswer = await fresh.app.inject({ method: 'GET', url: '/api/health' });
    const health = HealthResponseSchema.parse(publicAnswer.json());
    expect(Object.keys(health.checks.engines).sort()).toEqual(['cog', 'local', 'replicate', 'vertex-tryon']);
    // The public answer says the state and nothing of why: no URL, address, email or error text.
    expect(health.checks.engines.cog).toEqual({ status: 'down', warmed: true });
    for (const secret of [
      cog.url,
      new URL(cog.url).host,
      'http',
      '127.0.0.1',
      '@',
      vertex.key.client_email,
      'SETUP_FAILED',
    ])
      expect(publicAnswer.body, secret).not.toContain(secret);
    // The operator's does.
    const op = await signInByEmail(fresh.app, freshMailer, operatorEmail);
    const detail = await fresh.app.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: op.cookie } });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(AdminHealthResponseSchema.parse(detail.json()).checks.engines.cog).toMatchObject({
      status: 'down',
      reasons: [expect.stringContaining('SETUP_FAILED')],
    });
    expect(detail.body).toContain(new URL(cog.url).host);
    // Without an operator session it answers nothing of it.
    expect((await fresh.app.inject({ method: 'GET', url: '/api/admin/health' })).statusCode).toBe(401);
    expect(health.checks.engines['vertex-tryon']!.status).toBe('ok');
    const config = PublicConfigSchema.parse((await fresh.app.inject({ method: 'GET', url: '/api/config' })).json());
    expect(config.engines.find((e) => e.id === 'cog')?.status).toBe('down');
    expect(config.engines.find((e) => e.id === 'replicate')).toMatchObject({ status: 'ok', kind: 'hosted' });
    expect(config.engines.find((e) => e.id === 'vertex-tryon')?.kind).toBe('hosted');
    const shopper = await signIn(fresh.app);
    const res = await postMultipart(
      fresh.app,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
        category: 'upper_body',
        userId: shopper.user.id,
        api: 'cog',
      },
      shopper.cookie,
    );
    expectApiError(res, 400, 'ENGINE_UNAVAILABLE', HOSTED_ENGINE_MESSAGES.unavailable);
    expect(cog.predictionCalls()).toHaveLength(0);
    await fresh.app.engines.closeAll();
  });
});
