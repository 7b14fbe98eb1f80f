/**
 * Two API instances on one Redis (and one database) share one set of rate limits: each limit holds
 * for the pair, not for each. Without Redis each instance counts alone (the control).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DATABASE_KINDS, freshDatabaseEnv } from '../test/databases.js';
import { signIn, testApps } from '../test/app.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { expectApiError } from '../test/api-error.js';

const REDIS = redisServerAvailable();
const SESSION_SECRET = 's'.repeat(48);

let redis: TestRedis | undefined;
beforeAll(async () => {
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe.runIf(REDIS).each(DATABASE_KINDS)('rate limits shared through Redis on %s', (kind) => {
  const make = testApps(kind);

  /** Two instances on the same database and session secret; on Redis unless `withRedis` is false. */
  async function pair(env: Record<string, string>, withRedis = true): Promise<[FastifyInstance, FastifyInstance]> {
    const db = await freshDatabaseEnv(kind);
    const shared = {
      dataDir: db.DATA_DIR,
      ...(db.DATABASE_URL ? { databaseUrl: db.DATABASE_URL } : {}),
      env: { SESSION_SECRET, ...(withRedis ? { REDIS_URL: redis!.url } : {}), ...env },
    };
    const a = await make(shared);
    const b = await make(shared);
    return [a.app, b.app];
  }

  it('holds the global limit per address once across both instances', async () => {
    const ip = `192.0.2.${kind === 'sqlite' ? 11 : 12}`;
    const [a, b] = await pair({ RATE_LIMIT_GLOBAL_PER_MINUTE: '4' });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await (i % 2 ? b : a).inject({ method: 'GET', url: '/api/config', remoteAddress: ip })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await a.inject({ method: 'GET', url: '/api/config', remoteAddress: ip });
    expectApiError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
    // Another address has its own count.
    expect((await b.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.200' })).statusCode).toBe(200);

    // Control: the same two instances without Redis count apart, allowing twice as much.
    const [c, d] = await pair({ RATE_LIMIT_GLOBAL_PER_MINUTE: '4' }, false);
    const apart: number[] = [];
    for (let i = 0; i < 10; i++)
      apart.push((await (i % 2 ? d : c).inject({ method: 'GET', url: '/api/config', remoteAddress: ip })).statusCode);
    expect(apart).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('holds the per-route sign-in limit per address once across both instances', async () => {
    const ip = `198.51.100.${kind === 'sqlite' ? 21 : 22}`;
    const [a, b] = await pair({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? b : a;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/anonymous',
        remoteAddress: ip,
        payload: {
          deviceId: `device_shared_limit_${kind}_${i}_abcdef`,
          deviceInfo: { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' },
        },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
  });

  it('holds the per-user try-on limit once, whichever instance and address the shopper uses', async () => {
    const [a, b] = await pair({ RATE_LIMIT_TRYON_PER_MINUTE: '2' });
    const { cookie } = await signIn(a, undefined, '203.0.113.77');
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const app = i % 2 ? b : a;
      // An empty body gets as far as validation (400) when the limit lets it through.
      codes.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/process-image',
            remoteAddress: `203.0.113.${100 + i + (kind === 'sqlite' ? 0 : 50)}`,
            headers: { cookie },
            payload: {},
          })
        ).statusCode,
      );
    }
    expect(codes).toEqual([400, 400, 429, 429]);
  });

  it('lets requests through when Redis goes away rather than refusing every shopper', async () => {
    const own = await startRedis();
    const db = await freshDatabaseEnv(kind);
    const t = await make({
      dataDir: db.DATA_DIR,
      ...(db.DATABASE_URL ? { databaseUrl: db.DATABASE_URL } : {}),
      env: { SESSION_SECRET, REDIS_URL: own.url, RATE_LIMIT_GLOBAL_PER_MINUTE: '2' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.99' })).statusCode).toBe(
      200,
    );
    await own.stop();
    for (let i = 0; i < 4; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: '192.0.2.99' })).statusCode).toBe(
        200,
      );
  });
});
