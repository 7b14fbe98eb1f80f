import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisServerAvailable, startRedis, type TestRedis } from '../../test/redis.js';
import { closeRedis, connectRedis, type Redis } from '../../redis/client.js';
import { createMemoryHolds, createRedisHolds, type ShopperHolds } from './holds.js';

const REDIS = redisServerAvailable();

/** The holds under test: `second` is another API process's view of the same shopper. */
interface Kind {
  name: string;
  make(): Promise<{ first: ShopperHolds; second: ShopperHolds; end(): Promise<void> }>;
}

let redis: TestRedis | undefined;
const clients: Redis[] = [];
beforeAll(async () => {
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  for (const c of clients) await closeRedis(c);
  await redis?.stop();
});

const KINDS: Kind[] = [
  {
    name: 'memory',
    make: async () => {
      const one = createMemoryHolds();
      return { first: one, second: one, end: () => one.close() };
    },
  },
  ...(REDIS
    ? [
        {
          name: 'redis (two processes)',
          make: async () => {
            const [a, b] = [await connectRedis(redis!.url), await connectRedis(redis!.url)];
            clients.push(a, b);
            const first = createRedisHolds({ client: a, ttlMs: 60_000 });
            const second = createRedisHolds({ client: b, ttlMs: 60_000 });
            return { first, second, end: async () => undefined };
          },
        },
      ]
    : []),
];

let seq = 0;
const shopper = () => `shopper-${process.pid}-${++seq}`;

describe.each(KINDS)('shopper holds ($name)', (kind) => {
  it('takes holds while they fit in what the shopper can spend, and refuses the one that does not', async () => {
    const { first, second, end } = await kind.make();
    const user = shopper();
    const spendable = async () => 3;
    const a = await first.take(user, 2, spendable);
    expect(a).toBeDefined();
    // 2 held + 2 > 3: refused, in either process.
    expect(await second.take(user, 2, spendable)).toBeUndefined();
    expect(await second.take(user, 1, spendable)).toBeDefined();
    expect(await first.take(user, 1, spendable)).toBeUndefined();
    // Another shopper holds nothing.
    expect(await first.take(shopper(), 3, spendable)).toBeDefined();
    // Given back: it fits again (release is idempotent).
    await a!.release();
    await a!.release();
    expect(await first.take(user, 2, spendable)).toBeDefined();
    await end();
  });

  it('a charge gives its hold back first: the balance then counts it, once', async () => {
    const { first, second, end } = await kind.make();
    const user = shopper();
    let balance = 2;
    const spendable = async () => balance;
    const a = (await first.take(user, 1, spendable))!;
    const b = (await second.take(user, 1, spendable))!;
    expect(await first.take(user, 1, spendable)).toBeUndefined();
    // Charged: the balance drops by the unit its hold gave back.
    expect(await first.charge(user, a, async () => (balance -= 1))).toBe(1);
    expect(await first.take(user, 1, spendable)).toBeUndefined();
    // Failed and refunded, or never charged: the unit is the shopper's again.
    await b.release();
    expect(await second.take(user, 1, spendable)).toBeDefined();
    await end();
  });
});

describe('shopper holds in one process take turns', () => {
  it('a check waits for a charge under way, so it reads the balance after it', async () => {
    const holds = createMemoryHolds();
    const user = shopper();
    let balance = 1;
    const first = (await holds.take(user, 1, async () => balance))!;
    let release: (() => void) | undefined;
    const charging = holds.charge(
      user,
      first,
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            balance = 0;
            resolve();
          };
        }),
    );
    // The check comes while the charge is being made: it waits for it, then sees the balance at 0.
    await expect.poll(() => release).toBeDefined();
    const check = holds.take(user, 1, async () => balance);
    release!();
    await charging;
    expect(await check).toBeUndefined();
  });
});

describe.skipIf(!REDIS)('shopper holds in Redis', () => {
  it('a hold a gone process left expires with its ttl', async () => {
    const client = await connectRedis(redis!.url);
    clients.push(client);
    const holds = createRedisHolds({ client, ttlMs: 300 });
    const user = shopper();
    expect(await holds.take(user, 1, async () => 1)).toBeDefined();
    expect(await holds.take(user, 1, async () => 1)).toBeUndefined();
    await expect.poll(async () => (await holds.take(user, 1, async () => 1)) !== undefined).toBe(true);
  });
});
