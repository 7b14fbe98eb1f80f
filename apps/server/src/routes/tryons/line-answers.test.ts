/**
 * The line answers with the truth, on the memory line and the one shared through Redis:
 * - a try-on the shopper cannot pay for, counting what their try-ons already in line hold, is
 *   402 NO_CREDITS at once, with the user (the page opens the paywall);
 * - past the shopper's (or their address's) bound of places, 429 TOO_MANY_REQUESTS with
 *   Retry-After, never 503;
 * - 503 ENGINE_BUSY stays the engine's own capacity (`limits.test.ts`).
 * Each scenario prints what the shopper was answered.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { MESSAGES, NoCreditsResponseSchema, TooManyTryOnsResponseSchema } from '@aidressup/contract';
import { signIn, testApps, type TestApp } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, multipart, png } from '../../test/images.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../../test/redis.js';
import { adjustCredits } from '../../ledger/ledger.js';

let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(320, 480, '#c08060');
  GARMENT = await png(200, 200, '#2040ff');
});

function tryOn(app: FastifyInstance, cookie: string, userId: string, ip = '203.0.113.10') {
  const body = multipart({
    userImage: { data: PERSON },
    clothingImage: { data: GARMENT, contentType: 'image/png' },
    category: 'upper_body',
    userId,
  });
  return app.inject({
    method: 'POST',
    url: '/api/process-image',
    headers: { ...body.headers, cookie },
    payload: body.payload,
    remoteAddress: ip,
  });
}

/** Each answer's status and code, counted: `{ '200': 2, '402 NO_CREDITS': 6 }`. */
function tally(answers: LightMyRequestResponse[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = a.statusCode === 200 ? '200' : `${a.statusCode} ${a.json<{ code: string }>().code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * Posts `n` try-ons of one shopper at once while the engine holds every call; once each is
 * answered, in the engine or waiting in line, the engine lets go. Answers those answered before
 * (the refusals, at once), then all of them.
 */
async function atOnce(
  t: TestApp,
  engine: ReturnType<typeof createEngineDouble>,
  n: number,
  cookie: string,
  id: string,
) {
  const answered: LightMyRequestResponse[] = [];
  const posts = Array.from({ length: n }, () =>
    tryOn(t.app, cookie, id).then((res) => {
      answered.push(res);
      return res;
    }),
  );
  const pool = t.app.tryOnRunner.mode === 'redis' ? 'tryon' : engine.id;
  await expect
    .poll(async () => engine.calls.length + (await t.app.tryOnLine.waiting(pool)) + answered.length, {
      timeout: 20_000,
    })
    .toBe(n);
  const early = [...answered];
  engine.release();
  return { early, all: await Promise.all(posts) };
}

const REDIS = redisServerAvailable();
const LINES = REDIS ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(LINES)('the line answers with the truth (%s line)', (kind) => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    if (kind === 'redis') redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  beforeEach(async () => {
    // Each test's app alone on Redis: no worker, place or hold of an earlier one.
    if (redis) await redis.flush();
  });
  const make = testApps(
    'sqlite',
    () => ({
      env: {
        ENGINE_CONCURRENCY: '2',
        RATE_LIMIT_TRYON_PER_MINUTE: '1000',
        ...(redis ? { REDIS_URL: redis.url, WORKER_IN_PROCESS: 'true' } : {}),
      },
    }),
    { closeAfter: 'each' },
  );

  it('2 free trials, 8 try-ons at once: 2 succeed, 6 are 402 NO_CREDITS at once with the user, none 503', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { FREE_TRIALS_LIMIT: '2' } });
    const { cookie, user } = await signIn(t.app);
    const { early, all } = await atOnce(t, engine, 8, cookie, user.id);
    console.log(`${kind} line, 2 free trials, 8 at once: ${JSON.stringify(tally(all))}`);
    expect(tally(early)).toEqual({ '402 NO_CREDITS': 6 });
    expect(tally(all)).toEqual({ '200': 2, '402 NO_CREDITS': 6 });
    for (const res of early) {
      const body = NoCreditsResponseSchema.parse(res.json());
      expect(body.error).toBe(MESSAGES.noCredits);
      expect(body.user.id).toBe(user.id);
    }
  });

  it('22 credits, 26 try-ons at once: the shopper’s places run (6), the rest are 429 TOO_MANY_REQUESTS with Retry-After, none 503', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({ engine, env: { FREE_TRIALS_LIMIT: '0' } });
    const { cookie, user } = await signIn(t.app);
    await adjustCredits(t.app.db, { userId: user.id, amount: 22, reason: 'test credits', actorId: user.id });
    const { early, all } = await atOnce(t, engine, 26, cookie, user.id);
    console.log(`${kind} line, 22 credits, 26 at once: ${JSON.stringify(tally(all))}`);
    expect(tally(early)).toEqual({ '429 TOO_MANY_REQUESTS': 20 });
    expect(tally(all)).toEqual({ '200': 6, '429 TOO_MANY_REQUESTS': 20 });
    for (const res of early) {
      const body = TooManyTryOnsResponseSchema.parse(res.json());
      expect(body.error).toBe(MESSAGES.tooManyTryOns);
      expect(res.headers['retry-after']).toBe(String(body.retryAfterSeconds));
    }
    // Nothing was charged for a refusal: 6 units spent, 16 left.
    expect(await t.app.db.selectFrom('tryons').select('id').where('user_id', '=', user.id).execute()).toHaveLength(6);
  });

  it('past the address’s bound of places: 429 TOO_MANY_REQUESTS, not 503', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make({
      engine,
      env: { FREE_TRIALS_LIMIT: '5', ENGINE_CONCURRENCY: '1', ENGINE_LINE_TICKETS_PER_ADDRESS: '2' },
    });
    const shoppers = [await signIn(t.app), await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    // One runs; two wait in line from the same address (its bound).
    const held = shoppers.slice(0, 3).map((s) => tryOn(t.app, s.cookie, s.user.id));
    const pool = kind === 'redis' ? 'tryon' : engine.id;
    await expect.poll(() => t.app.tryOnLine.waiting(pool)).toBe(2);
    const refused = await tryOn(t.app, shoppers[3]!.cookie, shoppers[3]!.user.id);
    expect(refused.statusCode).toBe(429);
    expect(TooManyTryOnsResponseSchema.parse(refused.json()).code).toBe('TOO_MANY_REQUESTS');
    expect(refused.headers['retry-after']).toBeDefined();
    // Another address still gets its place.
    const elsewhere = tryOn(t.app, shoppers[3]!.cookie, shoppers[3]!.user.id, '198.51.100.20');
    await expect.poll(() => t.app.tryOnLine.waiting(pool)).toBe(3);
    engine.release();
    expect((await Promise.all([...held, elsewhere])).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
  });
});
