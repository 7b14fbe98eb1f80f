/**
 * Fault suite: Redis and PostgreSQL restarted under load, without restarting the API or the worker.
 *
 * The BUILT API (`dist/server.js`) runs with its queue worker in a process of its own
 * (`dist/worker.js`) or inside the API (WORKER_IN_PROCESS, the one-machine setup), each stack on a
 * redis-server of its own and SQLite or a PostgreSQL cluster this suite starts itself (so it may
 * restart them; `test/restart-stack.ts`). Shoppers have try-ons in flight, held in the engine (the
 * real `nano-banana` adapter pointed at the Gemini stand-in), and keep posting new ones, when the
 * service goes away: closed (SIGTERM) or killed (SIGKILL), its port refusing connections for a
 * while, then back, Redis empty (as after a crash without persistence) or with its data. Half the
 * held engine calls answer during the outage, the rest after it. Then:
 *  - `GET /api/health` is 200 again, and a new try-on succeeds, within 15 s of the service's
 *    return (both times are printed), with the same API and worker processes; so does a try-on
 *    from a shop's widget;
 *  - every try-on got an answer; those held in the engine through the outage were completed;
 *  - nothing is left `processing`, and every credit is accounted for, read from the ledger: each
 *    try-on spent exactly one unit, a succeeded one kept it and its result is stored, a failed one
 *    got it back; for each shopper the units spent equal the results stored, and the balance the
 *    API shows says the same.
 * Redis is away 5 s for the SQLite stacks and 20 s for the PostgreSQL ones (longer than the
 * reconnection backoff BullMQ would otherwise reach); PostgreSQL is away 6 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../db/database.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../test/postgres-cluster.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { startNetworkPath, type NetworkPath } from '../test/stand-ins/network-path.js';
import { redisServerAvailable, startRedis, type RestartOptions, type TestRedis } from '../test/redis.js';
import type { ShopperClient } from '../test/shopper-client.js';
import { buildServer, waitFor } from '../test/built-process.js';
import {
  ANSWER_WITHIN_MS,
  HELD_EACH,
  SHOPPERS,
  expectEveryCreditAccountedFor,
  healthRecovery,
  keepPosting,
  post,
  shoppers,
  startStack,
  stopAll,
  widgetShopper,
  type Answer,
  type HealthBody,
  type Stack,
  type WorkerMode,
} from '../test/restart-stack.js';

const API_KEY = 'restart-test-key';
/** Health must be ok, and a new try-on succeed, within this long after the service is back. */
const RECOVERY_WITHIN_MS = 15_000;
/** How long the service's port refuses connections. */
const REDIS_DOWN_MS: Record<DatabaseKind, number> = { sqlite: 5_000, postgres: 20_000 };
const POSTGRES_DOWN_MS = 6_000;

const REDIS = redisServerAvailable();
const PG_BIN = postgresBinDir();

let gemini: GeminiStandIn;
let PERSON: Buffer;
let GARMENT: Buffer;
let cluster: PostgresCluster | undefined;
const photos = () => ({ person: PERSON, garment: GARMENT });

beforeAll(async () => {
  buildServer();
  gemini = await startGeminiStandIn({ apiKey: API_KEY, instant: true });
  PERSON = await syntheticPhoto(600, 800, { seed: 21 });
  GARMENT = await syntheticPhoto(400, 400, { seed: 22 });
  if (REDIS && PG_BIN) cluster = await startPostgresCluster(PG_BIN, { maxConnections: 100 });
}, 300_000);

afterAll(async () => {
  await stopAll();
  gemini?.release();
  await gemini?.close();
  cluster?.stop();
});

/** A service going away and coming back: `run(onDown)` resolves when it is back, with that time. */
interface Outage {
  run: (onDown: () => void) => Promise<number>;
}

interface Recovery {
  /** From the service's return until health was ok. */
  healthMs: number;
  /** From the service's return until a try-on posted after it succeeded. */
  tryOnsMs: number;
  /** The answers to the try-ons held in the engine through the outage. */
  held: Answer[];
  /** The answers to the try-ons posted meanwhile. */
  posted: Answer[];
}

/**
 * Puts HELD_EACH try-ons of every shopper in the engine, keeps the shoppers posting, and runs the
 * outage; half the held calls are answered once the service is down, the rest once health is ok
 * again. Measures how long after the return health was ok and a new try-on succeeded; answers
 * those and every try-on's answer.
 */
async function underLoad(
  stack: Stack,
  clients: ShopperClient[],
  outage: Outage,
  healthy: (body: HealthBody) => boolean,
): Promise<Recovery> {
  gemini.fallback = { kind: 'held' };
  const inFlight = clients.flatMap((c) => Array.from({ length: HELD_EACH }, () => post(c)));
  await waitFor(
    'try-ons held in the engine',
    async () => (gemini.held() >= SHOPPERS * HELD_EACH ? true : undefined),
    30_000,
    stack.output,
  );
  gemini.fallback = { kind: 'image' };
  const load = keepPosting(clients);
  const half = (SHOPPERS * HELD_EACH) / 2;
  let releasedDuringOutage = 0;
  // Half the held engine calls answer while the service is away.
  const backAt = await outage.run(() => (releasedDuringOutage = gemini.release(half)));
  expect(releasedDuringOutage).toBe(half);
  const healthMs = await healthRecovery(stack, backAt, healthy);
  gemini.release();
  const firstSuccess = await waitFor(
    'a try-on posted after the return succeeds',
    async () => load.answers.find((a) => a.status === 200 && a.postedAt >= backAt),
    ANSWER_WITHIN_MS,
    stack.output,
  );
  return {
    healthMs,
    tryOnsMs: firstSuccess.answeredAt - backAt,
    posted: await load.stop(),
    held: await Promise.all(inFlight),
  };
}

/** What the suite found, printed for the record before it is checked. */
function report(what: string, { healthMs, tryOnsMs, posted }: Recovery): void {
  const by = new Map<string, number>();
  for (const a of posted) {
    const key = a.status === 200 ? '200' : `${a.status} ${a.code ?? a.error ?? ''}`.trim();
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  console.log(
    `${what}: health ok ${(healthMs / 1000).toFixed(1)} s and a new try-on done ${(tryOnsMs / 1000).toFixed(1)} s after the service's return; try-ons posted meanwhile: ${[
      ...by,
    ]
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ')}`,
  );
}

/** A restart under load, then the checks every restart must pass (the module's comment). */
async function expectRecovery(
  what: string,
  stack: Stack,
  outage: Outage,
  healthy: (body: HealthBody) => boolean,
): Promise<void> {
  const clients = await shoppers(stack, gemini, photos);
  const widget = await widgetShopper(stack, 10);
  const recovery = await underLoad(stack, clients, outage, healthy);
  report(what, recovery);
  // The same processes take try-ons again: one of every shopper, and one from the shop's widget.
  const again = await Promise.all(clients.map((c) => post(c)));
  for (const a of again) expect(a, stack.output()).toMatchObject({ status: 200 });
  expect(await widget.tryOn(photos()), stack.output()).toEqual({ status: 200 });
  await expectEveryCreditAccountedFor(stack, clients, [...recovery.held, ...recovery.posted, ...again]);
  // In the engine through the outage, answered by it: completed, not refunded.
  for (const a of recovery.held) expect(a, stack.output()).toMatchObject({ status: 200 });
  // Posted meanwhile: done, or refused as an outage (try again in a moment), or a try-on the outage
  // caught on its way; never an internal error.
  const refused = recovery.posted.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code ?? a.error}`);
  for (const r of refused) expect(['503 SERVICE_UNAVAILABLE', '502 ENGINE_FAILED', '504 ENGINE_TIMEOUT']).toContain(r);
  expect(recovery.healthMs).toBeLessThanOrEqual(RECOVERY_WITHIN_MS);
  expect(recovery.tryOnsMs).toBeLessThanOrEqual(RECOVERY_WITHIN_MS);
}

/**
 * How Redis goes away: closed (SIGTERM) or killed (SIGKILL) on its port, which then refuses
 * connections; or its host vanishes (`vanished`: killed, and the open connections neither answer
 * nor close, the network path's stand-in) and it comes back as a new one. Back empty, or with
 * its data.
 */
type RedisRestart = RestartOptions & { vanished?: boolean };

/** Each stack's Redis restarts. */
const REDIS_RESTARTS: Record<WorkerMode, Record<DatabaseKind, RedisRestart[]>> = {
  'worker process': {
    sqlite: [{ signal: 'SIGTERM' }, { signal: 'SIGKILL', keepData: true }, { signal: 'SIGKILL', vanished: true }],
    postgres: [{ signal: 'SIGTERM' }],
  },
  'worker in the API': {
    sqlite: [
      { signal: 'SIGTERM' },
      { signal: 'SIGKILL' },
      { signal: 'SIGKILL', keepData: true },
      { signal: 'SIGKILL', vanished: true },
    ],
    postgres: [{ signal: 'SIGKILL' }],
  },
};

function describeRestart(r: RedisRestart): string {
  const gone = r.vanished ? 'host vanished' : r.signal === 'SIGKILL' ? 'killed' : 'closed';
  return `${gone}, back ${r.keepData ? 'with its data' : 'empty'}`;
}

const STACKS: [DatabaseKind, WorkerMode][] = (['worker process', 'worker in the API'] as const).flatMap((mode) =>
  (PG_BIN ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)).map((kind): [DatabaseKind, WorkerMode] => [
    kind,
    mode,
  ]),
);

describe.skipIf(!REDIS).each(STACKS)('restarts under load, on %s with the %s', (kind, mode) => {
  let stack: Stack;
  let redis: TestRedis;
  let path: NetworkPath;
  beforeAll(async () => {
    redis = await startRedis({ persistent: true });
    path = await startNetworkPath(redis.port);
    const redisUrl = `redis://127.0.0.1:${path.port}`;
    stack = await startStack({ kind, mode, redisUrl, postgresUrl: cluster?.url, gemini, apiKey: API_KEY });
  }, 150_000);
  afterAll(async () => {
    await stack?.stop();
    await path?.close();
    await redis?.stop();
  });

  const downMs = REDIS_DOWN_MS[kind];
  for (const restart of REDIS_RESTARTS[mode][kind]) {
    const how = describeRestart(restart);
    it(`Redis ${how} after ${downMs / 1000} s: the API and the worker reconnect on their own, and no credit is lost`, async () => {
      const { vanished, ...options } = restart;
      await expectRecovery(
        `Redis ${how}, away ${downMs / 1000} s (${kind}, ${mode})`,
        stack,
        {
          run: async (onDown) => {
            if (vanished) await path.vanish();
            const back = await redis.restart(downMs, { ...options, onDown });
            if (vanished) await path.restore();
            return vanished ? Date.now() : back;
          },
        },
        (body) => body.checks.queue.status === 'ok',
      );
    }, 150_000);
  }

  if (kind === 'postgres' && mode === 'worker process') {
    it('PostgreSQL restarted: the API and the worker reconnect on their own, and no credit is lost', async () => {
      await expectRecovery(
        `PostgreSQL away ${POSTGRES_DOWN_MS / 1000} s (${mode})`,
        stack,
        { run: (onDown) => cluster!.restart(POSTGRES_DOWN_MS, onDown) },
        (body) => body.checks.database.status === 'ok',
      );
    }, 150_000);
  }
});
