/**
 * The line's promises under random scenarios (`line-model.ts`): random joins (with and
 * without tickets, priority or not, from shoppers sharing addresses), leaves (while held, while
 * away, also while a tick is on its way), charges, engine starts, finishes, time passing (timeouts, bumps, expiries, leases)
 * and crashes, against both lines: the in-memory one, and the one shared through a real
 * redis-server (started here) by one to three API processes.
 *
 * Runs: LINE_PROPERTY_RUNS (default 500) for the in-memory line, LINE_PROPERTY_REDIS_RUNS
 * (default 200) for the Redis one; `npm run test:deep` plays 10,000 and 1,000, by hand or on a
 * schedule. A failure prints fast-check's seed (LINE_PROPERTY_SEED replays it) and the shrunk scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createMemoryLine, type AdmissionLine } from './admission.js';
import { createRedisLine } from './redis-line.js';
import { LEASE_MS, RUNNING_LEASE_MS, lineKey, lineKeys } from './redis-line-scripts.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../../test/redis.js';
import { playScenario } from './line-model.js';
import {
  emptyStats,
  type LineSettings,
  type LineStats,
  type LineWorld,
  type Op,
  type Scenario,
} from './line-scenario.js';

const MEMORY_RUNS = Number(process.env.LINE_PROPERTY_RUNS ?? 500);
const REDIS_RUNS = Number(process.env.LINE_PROPERTY_REDIS_RUNS ?? 200);
const SEED = process.env.LINE_PROPERTY_SEED ? Number(process.env.LINE_PROPERTY_SEED) : undefined;

const settings: fc.Arbitrary<LineSettings> = fc.record({
  capacity: fc.integer({ min: 1, max: 3 }),
  maxWaiting: fc.integer({ min: 0, max: 3 }),
  maxWaitMs: fc.constantFrom(1_000, 4_000, 60_000),
  ticketGraceMs: fc.constantFrom(1_000, 5_000),
  maxTicketsPerUser: fc.integer({ min: 1, max: 4 }),
  maxTicketsPerAddress: fc.integer({ min: 1, max: 6 }),
  maxTickets: fc.integer({ min: 2, max: 10 }),
});

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('join' as const),
      shopper: fc.nat(5),
      proc: fc.nat(2),
      // Mostly with a ticket the shopper was given, when there is one.
      ticket: fc.option(fc.nat(3), { freq: 3 }),
      // A shopper with a plan with priority processing, now and then.
      priority: fc.nat(3).map((n) => n === 0),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('leave' as const), req: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leaveDuringTick' as const), req: fc.nat(7) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('leaveAway' as const),
      shopper: fc.nat(5),
      ticket: fc.nat(9),
      proc: fc.nat(2),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('charge' as const), req: fc.nat(7) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('start' as const), req: fc.nat(7) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('finish' as const), req: fc.nat(7) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(200, 1_100, 2_500, 6_000, 16_000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), proc: fc.nat(2) }) },
);

function scenarios(processes: fc.Arbitrary<number>): fc.Arbitrary<Scenario> {
  return fc.record({ settings, processes, ops: fc.array(op, { minLength: 4, maxLength: 40, size: 'max' }) });
}

/**
 * Each kind of event happened in the runs: the scenarios reach every path they claim to test
 * (checked from a few hundred runs on; fewer may by chance miss a rare one).
 */
function expectCoverage(stats: LineStats, runs: number, shared: boolean) {
  expect(stats.runs).toBe(runs);
  if (runs < 200) return;
  const kinds: (keyof LineStats)[] = [
    'admitted',
    'busy',
    'refusedWithoutTicket',
    'ticketsHonoured',
    'bumped',
    'timedOut',
    'leftWhileHeld',
    'leftWhileAway',
    'leftAfterCharge',
    'refundedBeforeStart',
    'results',
    'expired',
    'crashes',
  ];
  if (shared) kinds.push('leftDuringTick', 'leaseExpired');
  for (const kind of kinds) expect(stats[kind], kind).toBeGreaterThan(0);
}

function report(name: string, stats: LineStats, ms: number) {
  console.log(`${name}: ${stats.runs} runs in ${(ms / 1000).toFixed(1)} s`, JSON.stringify(stats));
}

describe('the try-on line keeps its promises under random scenarios', () => {
  it(
    `in memory (${MEMORY_RUNS} runs)`,
    async () => {
      const stats = emptyStats();
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(scenarios(fc.constant(1)), async (scenario) => {
          const world: LineWorld = {
            pool: 'local',
            shared: false,
            leaseMs: 0,
            runningLeaseMs: 0,
            start: async (_i, timers) =>
              createMemoryLine({ ...scenario.settings, timers, capacity: () => scenario.settings.capacity }),
            crash: (_i, line) => line.close(),
            end: async (lines) => void (await Promise.all(lines.map((l) => l.close()))),
          };
          await playScenario(world, scenario, stats);
        }),
        { numRuns: MEMORY_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
      report('in-memory line', stats, Date.now() - started);
      expectCoverage(stats, MEMORY_RUNS, false);
    },
    30 * 60_000,
  );

  describe.skipIf(!redisServerAvailable())('shared through Redis', () => {
    let redis: TestRedis;
    let admin: Redis;
    /** Each API process's connections, reused from scenario to scenario (opening them is the slow part). */
    const connections: { client: Redis; subscriber: Redis }[] = [];
    beforeAll(async () => {
      redis = await startRedis();
      admin = new Redis(redis.url);
      for (let i = 0; i < 3; i++) connections.push({ client: new Redis(redis.url), subscriber: new Redis(redis.url) });
    });
    afterAll(async () => {
      for (const c of connections.splice(0)) await Promise.all([c.client.quit(), c.subscriber.quit()]);
      await admin?.quit();
      await redis?.stop();
    });

    it(
      `by one to three API processes (${REDIS_RUNS} runs)`,
      async () => {
        const stats = emptyStats();
        const started = Date.now();
        let n = 0;
        await fc.assert(
          fc.asyncProperty(scenarios(fc.integer({ min: 1, max: 3 })), async (scenario) => {
            const prefix = `prop-${process.pid}-${++n}:`;
            const pool = 'tryon';
            // The workers' slots, announced for good.
            await admin.zadd(lineKey(prefix, pool, 'workers'), Number.MAX_SAFE_INTEGER, 'worker');
            await admin.hset(lineKey(prefix, pool, 'slots'), 'worker', String(scenario.settings.capacity));
            const world: LineWorld = {
              pool,
              shared: true,
              leaseMs: LEASE_MS,
              runningLeaseMs: RUNNING_LEASE_MS,
              start: (i, timers): Promise<AdmissionLine> =>
                createRedisLine({
                  ...scenario.settings,
                  timers,
                  redisUrl: redis.url,
                  prefix,
                  fallbackCapacity: scenario.settings.capacity,
                  connections: connections[i],
                }),
              crash: (_i, line) => line.close(),
              end: async (lines) => {
                await Promise.all(lines.map((l) => l.close()));
                await admin.del(...lineKeys(prefix, pool));
              },
            };
            await playScenario(world, scenario, stats);
          }),
          { numRuns: REDIS_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
        );
        report('Redis line', stats, Date.now() - started);
        expectCoverage(stats, REDIS_RUNS, true);
      },
      60 * 60_000,
    );
  });
});
