/**
 * The product on S3-compatible storage (the s3rver stand-in): results in the bucket and served by
 * the API after its own checks, nothing under DATA_DIR/files, the health check, a store that goes
 * away in the middle of a try-on (refund, clear error, no internals), retention in the bucket,
 * and queued try-ons whose uploads travel through the bucket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { HealthResponseSchema, MESSAGES, TryOnResponseSchema } from '@aidressup/contract';
import type { TryOnEngine } from '@aidressup/engine';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { createEngineDouble } from '../test/engine-double.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { startS3StandIn, type S3StandIn } from '../test/stand-ins/s3-stand-in.js';
import { expectApiError } from '../test/api-error.js';
import { findUserById } from '../repositories/users.js';
import { balance } from '../ledger/ledger.js';
import { runRetention } from '../services/retention.js';

const REDIS = redisServerAvailable();
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

let PERSON: Buffer;
let GARMENT: Buffer;
let s3: S3StandIn;
let redis: TestRedis | undefined;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  s3 = await startS3StandIn();
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await s3.close();
  await redis?.stop();
});

function tryOnRequest(app: FastifyInstance, cookie: string, userId: string) {
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

/** Nothing the storage holds may land under DATA_DIR/files when S3 is configured. */
function localFilesOf(t: TestApp): boolean {
  return fs.existsSync(path.join(t.config.dataDir, 'files'));
}

/** An engine that answers, then the store goes away before the result is stored. */
function engineThatLosesTheStore(): TryOnEngine {
  const inner = createEngineDouble();
  return {
    ...inner,
    async tryOn(input) {
      const out = await inner.tryOn(input);
      await s3.stop();
      return out;
    },
  };
}

/** Evidence of the stand-in's address or the SDK in a response body. */
const INTERNALS = /127\.0\.0\.1|ECONNREFUSED|S3rver|s3|bucket|aws|stack|at .*\.(ts|js):\d+/i;

describe.each(DATABASE_KINDS)('S3 storage in the product on %s', (kind) => {
  const make = testApps(kind, () => ({ env: s3.env }));
  // After-hooks run last-registered first: the bucket is back before the apps close.
  afterAll(async () => {
    if (!s3.running()) await s3.start();
  });

  it('stores results in the bucket and serves them under the same URL after its own checks; health checks the bucket', async () => {
    const t = await make();
    const { app } = t;
    const { cookie, user } = await signIn(app);
    const res = await tryOnRequest(app, cookie, user.id);
    expect(res.statusCode).toBe(200);
    const { imageUrl } = TryOnResponseSchema.parse(res.json());
    expect(imageUrl).toMatch(/^\/api\/results\/[A-Za-z0-9_-]{43}\.png$/);
    const name = imageUrl.split('/').pop()!;
    expect(s3.keys()).toContain(`results/${name}`);
    expect(localFilesOf(t)).toBe(false);

    const image = await app.inject({ method: 'GET', url: imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // The API's own checks still apply: an unknown name is 404 even if someone put it in the bucket.
    const planted = `${'A'.repeat(43)}.png`;
    await app.storage.put(`results/${planted}`, image.rawPayload, 'image/png');
    expect((await app.inject({ method: 'GET', url: `/api/results/${planted}` })).statusCode).toBe(404);
    await app.storage.delete(`results/${planted}`);

    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(HealthResponseSchema.parse(health.json()).checks.storage).toMatchObject({ status: 'ok', kind: 's3' });

    await s3.stop();
    try {
      const down = await app.inject({ method: 'GET', url: '/api/health' });
      expect(down.statusCode).toBe(503);
      expect(HealthResponseSchema.parse(down.json())).toMatchObject({
        status: 'down',
        checks: { storage: { status: 'down', kind: 's3' } },
      });
      const unreadable = await app.inject({ method: 'GET', url: imageUrl });
      expectApiError(unreadable, 503, 'SERVICE_UNAVAILABLE', MESSAGES.outage);
    } finally {
      await s3.start();
    }
    expect((await app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(200);
  });

  it('gives the free trial back, with a clear error and no internals, when the store goes away mid try-on', async () => {
    const t = await make({ engines: { 'test-double': engineThatLosesTheStore() } });
    const { app } = t;
    const { cookie, user } = await signIn(app);
    const before = s3.keys();
    try {
      const res = await tryOnRequest(app, cookie, user.id);
      expectApiError(res, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
      expect(res.body).not.toMatch(INTERNALS);
    } finally {
      await s3.start();
    }
    expect((await findUserById(app.db, user.id))!.free_trials_used).toBe(0);
    const rows = await app.db
      .selectFrom('tryons')
      .select(['status', 'result_name'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toEqual([{ status: 'failed', result_name: null }]);
    expect(s3.keys()).toEqual(before);
  });

  it('gives the credit back when the store goes away mid try-on of a paying shopper', async () => {
    const t = await make({ env: { FREE_TRIALS_LIMIT: '0' }, engines: { 'test-double': engineThatLosesTheStore() } });
    const { app } = t;
    const { cookie, user } = await signIn(app);
    const bought = await app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie },
      payload: { planId: 'credits_200' },
    });
    expect(bought.statusCode).toBe(200);
    try {
      const res = await tryOnRequest(app, cookie, user.id);
      expectApiError(res, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
      expect(res.body).not.toMatch(INTERNALS);
    } finally {
      await s3.start();
    }
    expect(await balance(app.db, user.id, app.clock())).toBe(200);
    const events = await app.db
      .selectFrom('credit_events')
      .select('type')
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['grant', 'refund', 'spend']);
  });

  it('deletes in the bucket on retention: stray uploads after 30 minutes, results after 30 days', async () => {
    // Object times come from the store's clock: start the app's clock at the real time.
    const t = await make({ start: new Date() });
    const { app, clock } = t;
    const t0 = clock.now;
    const deps = { db: app.db, storage: app.storage, clock: app.clock };
    const { cookie, user } = await signIn(app);
    const { imageUrl } = TryOnResponseSchema.parse((await tryOnRequest(app, cookie, user.id)).json());
    const resultKey = `results/${imageUrl.split('/').pop()!}`;
    // The bucket is shared by this file's runs on both databases: uploads another run's worker
    // left behind are strays too.
    const earlierStrays = s3.keys().filter((k) => k.startsWith('uploads/')).length;
    await app.storage.put('uploads/stray-from-a-crashed-worker.jpg', PERSON, 'image/jpeg');
    expect(s3.keys()).toEqual(expect.arrayContaining([resultKey, 'uploads/stray-from-a-crashed-worker.jpg']));

    clock.now = new Date(t0.getTime() + 10 * MIN);
    expect(await runRetention(deps, { batchSize: 1 })).toMatchObject({ strayUploadsDeleted: 0, resultsDeleted: 0 });
    clock.now = new Date(t0.getTime() + 31 * MIN);
    expect(await runRetention(deps, { batchSize: 1 })).toMatchObject({
      strayUploadsDeleted: earlierStrays + 1,
      resultsDeleted: 0,
    });
    expect(s3.keys()).not.toContain('uploads/stray-from-a-crashed-worker.jpg');
    expect(s3.keys()).toContain(resultKey);

    clock.now = new Date(t0.getTime() + 31 * DAY);
    expect(await runRetention(deps, { batchSize: 1 })).toMatchObject({ resultsDeleted: 1 });
    expect(s3.keys()).not.toContain(resultKey);
    expect((await app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(404);
    expect(localFilesOf(t)).toBe(false);
  });

  it.runIf(REDIS)("carries queued try-ons' uploads through the bucket and deletes them after the job", async () => {
    const t = await make({ env: { REDIS_URL: redis?.url ?? '', WORKER_IN_PROCESS: 'true' } });
    const { app } = t;
    const { cookie, user } = await signIn(app);
    const res = await tryOnRequest(app, cookie, user.id);
    expect(res.statusCode).toBe(200);
    const { imageUrl } = TryOnResponseSchema.parse(res.json());
    expect(s3.keys()).toContain(`results/${imageUrl.split('/').pop()!}`);
    expect(s3.keys().filter((k) => k.startsWith('uploads/'))).toEqual([]);
    expect(localFilesOf(t)).toBe(false);
    expect((await app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(200);

    // The store gone before the uploads could be put: an outage, said so, and nothing charged.
    await s3.stop();
    try {
      const failed = await tryOnRequest(app, cookie, user.id);
      expectApiError(failed, 503, 'SERVICE_UNAVAILABLE', MESSAGES.tryOnOutage);
      expect(failed.body).not.toMatch(INTERNALS);
    } finally {
      await s3.start();
    }
    expect((await findUserById(app.db, user.id))!.free_trials_used).toBe(1);
  });
});
