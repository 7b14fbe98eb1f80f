/**
 * A try-on posted while PostgreSQL or Redis is away (a real server stopped, then started again):
 * 503 SERVICE_UNAVAILABLE with Retry-After and words that say to try again in a moment, nothing
 * charged; once the service is back, the same app takes try-ons again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@aidressup/contract';
import { DATABASE_KINDS, createPostgresDatabase, tempDir } from '../../test/databases.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../../test/postgres-cluster.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../../test/redis.js';
import { getUser, postJson, signIn, testApps } from '../../test/app.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_S } from '../../plugins/error-handler.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(320, 480, '#c08060');
  GARMENT = await png(200, 200, '#2040ff');
});

function tryOn(app: FastifyInstance, cookie: string, userId: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

/** A shopper with bought credits. */
async function shopper(app: FastifyInstance) {
  const s = await signIn(app);
  expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'credits_200' }, s.cookie)).statusCode).toBe(200);
  return { ...s, user: await getUser(app, s.cookie, s.user.id) };
}

/** What the ledger holds for the user: try-on rows and credit events. */
async function ledgerOf(app: FastifyInstance, userId: string) {
  const tryons = await app.db.selectFrom('tryons').select('id').where('user_id', '=', userId).execute();
  const events = await app.db
    .selectFrom('credit_events')
    .select('type')
    .where('user_id', '=', userId)
    .where('tryon_id', 'is not', null)
    .execute();
  return { tryons: tryons.length, events: events.map((e) => e.type) };
}

function expectOutage(res: Awaited<ReturnType<typeof tryOn>>, message: string) {
  expectApiError(res, 503, 'SERVICE_UNAVAILABLE', message);
  expect(res.headers['retry-after']).toBe(String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
}

const PG_BIN = postgresBinDir();

describe.skipIf(!PG_BIN)('PostgreSQL stopped', () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  beforeAll(async () => {
    cluster = await startPostgresCluster(PG_BIN!);
    databaseUrl = await createPostgresDatabase(cluster.url);
  }, 120_000);
  afterAll(() => cluster?.stop());
  const make = testApps('postgres', () => ({ dataDir: tempDir(), databaseUrl }));

  it('a try-on is 503 SERVICE_UNAVAILABLE with Retry-After, "try again in a moment", and charges nothing', async () => {
    const t = await make();
    const s = await shopper(t.app);
    let during: Promise<[Awaited<ReturnType<typeof tryOn>>, Awaited<ReturnType<typeof t.app.inject>>]> | undefined;
    // Posted while the server is down (its port refuses connections), answered before it is back.
    await cluster.restart(3_000, () => {
      during = Promise.all([
        tryOn(t.app, s.cookie, s.user.id),
        t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie: s.cookie } }),
      ]);
    });
    const [posted, gallery] = await during!;
    expectOutage(posted, MESSAGES.tryOnOutage);
    // Any other route says the same without speaking of a charge.
    expectApiError(gallery, 503, 'SERVICE_UNAVAILABLE', MESSAGES.outage);
    expect(await ledgerOf(t.app, s.user.id)).toEqual({ tryons: 0, events: [] });
    expect((await getUser(t.app, s.cookie, s.user.id)).credits).toBe(s.user.credits);
    // Back: the same app takes the try-on.
    expect((await tryOn(t.app, s.cookie, s.user.id)).statusCode).toBe(200);
  }, 60_000);
});

const REDIS = redisServerAvailable();

describe.skipIf(!REDIS).each(DATABASE_KINDS)('Redis stopped (%s)', (kind) => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const make = testApps(kind, () => ({ env: { REDIS_URL: redis.url, WORKER_IN_PROCESS: 'true' } }));

  it('a try-on is 503 SERVICE_UNAVAILABLE with Retry-After, "try again in a moment", and charges nothing', async () => {
    const t = await make();
    const s = await shopper(t.app);
    expect((await tryOn(t.app, s.cookie, s.user.id)).statusCode).toBe(200);
    const before = await ledgerOf(t.app, s.user.id);
    const credits = (await getUser(t.app, s.cookie, s.user.id)).credits;
    let during: ReturnType<typeof tryOn> | undefined;
    await redis.restart(3_000, {
      onDown: () => {
        during = (async () => {
          // Posted once the app has seen Redis go (its connection closed), before it is back.
          await expect.poll(() => t.app.tryOnRunner.available?.()).toBe(false);
          return tryOn(t.app, s.cookie, s.user.id);
        })();
      },
    });
    expectOutage(await during!, MESSAGES.tryOnOutage);
    // Nothing was charged: no new row, no spend (not even one given back).
    expect(await ledgerOf(t.app, s.user.id)).toEqual(before);
    expect((await getUser(t.app, s.cookie, s.user.id)).credits).toBe(credits);
    // Back: the same app takes try-ons again, once its connections are up.
    await expect
      .poll(async () => (await tryOn(t.app, s.cookie, s.user.id)).statusCode, { timeout: 15_000, interval: 250 })
      .toBe(200);
  }, 60_000);
});
