import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { expectApiError } from '../test/api-error.js';
import { envelope, signedHeaders, transactionData } from '@aidressup/paddle-stand-in';
import { PADDLE_WEBHOOK_PATH } from '../http/paths.js';

const REDIS = redisServerAvailable();
const TOKEN = 'metrics-token-for-tests-0123456789';
const SECRET = 'pdl_ntfset_01metricstest_secret_000000';
const PADDLE_ENV = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_5f1b2c3d4e5f6a7b8c9d0e1f2a3',
  PADDLE_WEBHOOK_SECRET: SECRET,
  PADDLE_PRICE_WEEKLY: 'pri_01metricsweekly00000000000',
  PADDLE_PRICE_MONTHLY: 'pri_01metricsmonthly0000000000',
  PADDLE_PRICE_YEARLY: 'pri_01metricsyearly00000000000',
  PADDLE_PRICE_CREDITS_200: 'pri_01metricscredits200000000',
};

let PERSON: Buffer;
let GARMENT: Buffer;
let redis: TestRedis | undefined;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function tryOn(app: FastifyInstance, cookie: string, userId: string, api?: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT },
      category: 'upper_body',
      userId,
      api,
    },
    cookie,
  );
}

async function scrape(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample, e.g. `sample(text, 'aidressup_tryons_total', {engine: 'x', outcome: 'y'})`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^[^{\s]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const got = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (
      Object.entries(labels).every(([k, v]) => got[k] === v) &&
      Object.keys(got).length === Object.keys(labels).length
    )
      return Number(m[2]);
  }
  return undefined;
}

describe.each(DATABASE_KINDS)('GET /metrics on %s', (kind) => {
  const make = testApps(kind);

  it('is not there without METRICS_TOKEN', async () => {
    const { app } = await make();
    expect(app.metrics.enabled).toBe(false);
    const res = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    expectApiError(res, 404, 'NOT_FOUND');
  });

  it('answers only the bearer token: 401 without it or with another', async () => {
    const { app } = await make({ env: { METRICS_TOKEN: TOKEN } });
    for (const authorization of [undefined, 'Bearer wrong-token-wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('aidressup_');
    }
    const text = await scrape(app);
    expect(text).toContain('# TYPE aidressup_tryons_total counter');
    expect(text).toContain('aidressup_process_cpu_seconds_total');
  });

  it('counts try-ons by engine and outcome with latencies, credits granted and spent, and webhook outcomes', async () => {
    const t = await make({ env: { METRICS_TOKEN: TOKEN, ...PADDLE_ENV } });
    const { app, engine } = t;
    const { cookie, user } = await signIn(app);
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(200);
    engine.failWith = new EngineError('PERSON_NOT_FOUND');
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(422);
    engine.failWith = undefined;
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(200);
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(402);
    expect((await tryOn(app, cookie, user.id, 'no-such-engine')).statusCode).toBe(400);

    // A purchase through Paddle's webhook, then a paid try-on; a forged notification is refused.
    const txn = envelope(
      'transaction.completed',
      transactionData({
        price: { id: PADDLE_ENV.PADDLE_PRICE_CREDITS_200, amount: '1999', description: '200 credits', interval: null },
        customData: { userId: user.id, planId: 'credits_200', credits: 200 },
        at: t.clock.now,
      }),
      t.clock.now,
    );
    const raw = JSON.stringify(txn);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: PADDLE_WEBHOOK_PATH,
          payload: raw,
          headers: signedHeaders(SECRET, raw, t.clock.now.getTime()),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: PADDLE_WEBHOOK_PATH,
          payload: raw,
          headers: signedHeaders('pdl_ntfset_not_the_secret_000000', raw, t.clock.now.getTime()),
        })
      ).statusCode,
    ).toBe(400);
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(200);

    const text = await scrape(app);
    expect(sample(text, 'aidressup_tryons_total', { engine: 'test-double', outcome: 'succeeded' })).toBe(3);
    expect(sample(text, 'aidressup_tryons_total', { engine: 'test-double', outcome: 'person_not_found' })).toBe(1);
    expect(sample(text, 'aidressup_tryons_total', { engine: 'test-double', outcome: 'no_credits' })).toBe(1);
    expect(sample(text, 'aidressup_tryons_total', { engine: 'none', outcome: 'engine_unavailable' })).toBe(1);
    expect(text).not.toContain('no-such-engine');
    expect(
      sample(text, 'aidressup_tryon_duration_seconds_count', { engine: 'test-double', outcome: 'succeeded' }),
    ).toBe(3);
    expect(
      sample(text, 'aidressup_tryon_duration_seconds_bucket', {
        engine: 'test-double',
        outcome: 'succeeded',
        le: '+Inf',
      }),
    ).toBe(3);
    expect(
      sample(text, 'aidressup_tryon_duration_seconds_sum', { engine: 'test-double', outcome: 'succeeded' }),
    ).toBeGreaterThan(0);
    expect(sample(text, 'aidressup_credits_granted_total')).toBe(200);
    expect(sample(text, 'aidressup_credits_spent_total')).toBe(1);
    expect(sample(text, 'aidressup_credits_total', { type: 'trial_spend' })).toBe(3);
    expect(sample(text, 'aidressup_credits_total', { type: 'trial_refund' })).toBe(1);
    expect(sample(text, 'aidressup_webhooks_total', { provider: 'paddle', outcome: 'processed' })).toBe(1);
    expect(sample(text, 'aidressup_webhooks_total', { provider: 'paddle', outcome: 'refused' })).toBe(1);
    // Not on this process: no queue.
    expect(text).not.toContain('aidressup_queue_jobs');
  });

  it.runIf(REDIS)('shows the queue depth in queue mode', async () => {
    const { app } = await make({
      env: { METRICS_TOKEN: TOKEN, REDIS_URL: redis?.url ?? '', WORKER_IN_PROCESS: 'true' },
    });
    const { cookie, user } = await signIn(app);
    expect((await tryOn(app, cookie, user.id)).statusCode).toBe(200);
    const text = await scrape(app);
    expect(sample(text, 'aidressup_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'aidressup_queue_jobs', { state: 'active' })).toBe(0);
    expect(sample(text, 'aidressup_tryons_total', { engine: 'test-double', outcome: 'succeeded' })).toBe(1);
  });
});
