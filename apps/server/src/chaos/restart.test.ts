/**
 * Fault suite: Redis and PostgreSQL restarted under load, without restarting the API or the worker.
 *
 * The BUILT API (`dist/server.js`) and queue worker (`dist/worker.js`) run against a redis-server
 * and a PostgreSQL cluster this suite starts itself (so it may restart them). Shoppers have
 * try-ons in flight, held in the engine (the real `nano-banana` adapter pointed at the Gemini
 * stand-in), and keep posting new ones, when the service goes away: its port refuses connections
 * for a while, then it comes back (Redis empty, as after a crash without persistence). Half the
 * held engine calls answer during the outage, the rest after it. Then:
 *  - `GET /api/health` is 200 again, and a new try-on succeeds, within 15 s of the service's
 *    return (both times are printed), with the same API and worker processes;
 *  - every try-on got an answer; those held in the engine through the outage were completed;
 *  - nothing is left `processing`, and every credit is accounted for, read from the ledger: each
 *    try-on spent exactly one unit, a succeeded one kept it and its result is stored, a failed one
 *    got it back; for each shopper the units spent equal the results stored, and the balance the
 *    API shows says the same.
 * Redis is away 5 s for the SQLite stack and 20 s for the PostgreSQL one (by then BullMQ's own
 * reconnection backoff waits 20 s between attempts); PostgreSQL is away 6 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../db/database.js';
import { openDatabase } from '../db/database.js';
import { createPostgresDatabase, tempDir } from '../test/databases.js';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../test/postgres-cluster.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { freePort } from '../test/ports.js';
import { ShopperClient } from '../test/shopper-client.js';
import { buildServer, startBuilt, waitAnswering, waitFor, type BuiltProcess } from '../test/built-process.js';

const API_KEY = 'restart-test-key';
/** Health must be ok, and a new try-on succeed, within this long after the service is back. */
const RECOVERY_WITHIN_MS = 15_000;
/** How long the service's port refuses connections. */
const REDIS_DOWN_MS: Record<DatabaseKind, number> = { sqlite: 5_000, postgres: 20_000 };
const POSTGRES_DOWN_MS = 6_000;
const SHOPPERS = 2;
/** Try-ons each shopper has held in the engine when the service goes away. */
const HELD_EACH = 2;
/**
 * The worker's slots: the held try-ons and one for each shopper's next. (Also the built-in
 * engine's threads, which every process warms at start: few, so that starting stays quick.)
 */
const WORKER_SLOTS = SHOPPERS * HELD_EACH + SHOPPERS;
/** Free trials and bought credits of each shopper. */
const FREE_TRIALS = 2;
const BOUGHT = 200;
/** A try-on's answer must come within this long (the engine deadline is far longer). */
const ANSWER_WITHIN_MS = 45_000;

const REDIS = redisServerAvailable();
const PG_BIN = postgresBinDir();

let gemini: GeminiStandIn;
let PERSON: Buffer;
let GARMENT: Buffer;
let cluster: PostgresCluster | undefined;
let redis: TestRedis | undefined;
const running = new Set<BuiltProcess>();

beforeAll(async () => {
  buildServer();
  gemini = await startGeminiStandIn({ apiKey: API_KEY, instant: true });
  PERSON = await syntheticPhoto(600, 800, { seed: 21 });
  GARMENT = await syntheticPhoto(400, 400, { seed: 22 });
  if (!REDIS) return;
  redis = await startRedis();
  if (PG_BIN) cluster = await startPostgresCluster(PG_BIN, { maxConnections: 100 });
}, 300_000);

afterAll(async () => {
  for (const p of running) await stop(p);
  gemini?.release();
  await gemini?.close();
  await redis?.stop();
  cluster?.stop();
});

async function stop(p: BuiltProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p.exited;
  running.delete(p);
}

interface Stack {
  base: string;
  dataDir: string;
  databaseUrl: string | undefined;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The API and one worker (nothing runs try-ons inside the API) on fresh data, each kind on a
 * Redis database of its own; ready once both have warmed their engines.
 */
async function startStack(kind: DatabaseKind): Promise<Stack> {
  const dataDir = tempDir();
  const databaseUrl = kind === 'postgres' ? await createPostgresDatabase(cluster!.url) : undefined;
  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    REDIS_URL: `${redis!.url}/${kind === 'sqlite' ? 1 : 2}`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    GEMINI_API_KEY: API_KEY,
    GEMINI_BASE_URL: gemini.url,
    DEFAULT_ENGINE: 'nano-banana',
    // The API runs no try-on (the worker does); this is its built-in engine's threads.
    ENGINE_CONCURRENCY: '1',
    FREE_TRIALS_LIMIT: String(FREE_TRIALS),
    NEW_USERS_PER_IP_PER_DAY: '100000',
    RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
    RATE_LIMIT_TRYON_PER_MINUTE: '100000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
  };
  // One after the other: starting both at once on a busy machine takes longer than either.
  const api = startBuilt('server.js', env);
  running.add(api);
  const base = `http://127.0.0.1:${port}`;
  await waitAnswering(base, api, '/api/config', 90_000);
  // At `info` the worker says when its engines are warm.
  const worker = startBuilt('worker.js', { ...env, LOG_LEVEL: 'info', ENGINE_CONCURRENCY: String(WORKER_SLOTS) });
  running.add(worker);
  // The last lines of each (a failing run logs a line per refused try-on).
  const tail = (text: string) => text.split('\n').slice(-40).join('\n');
  const output = () => `--- api\n${tail(api.output())}\n--- worker\n${tail(worker.output())}`;
  await waitFor(
    'the engines warm',
    async () => {
      const health = (await (await fetch(`${base}/api/health`)).json()) as HealthBody;
      const apiWarm = Object.values(health.checks.engines).every((e) => e.warmed);
      return apiWarm && worker.output().includes('"msg":"engines warmed"') ? true : undefined;
    },
    90_000,
    output,
  );
  return {
    base,
    dataDir,
    databaseUrl,
    output,
    async stop() {
      await Promise.all([stop(api), stop(worker)]);
    },
  };
}

interface Answer {
  client: ShopperClient;
  /** When the try-on was posted and answered (epoch ms). */
  postedAt: number;
  answeredAt: number;
  status: number;
  code?: string;
  tryonId?: string;
  /** The request itself failed (no answer within ANSWER_WITHIN_MS, or the connection broke). */
  error?: string;
}

async function post(client: ShopperClient): Promise<Answer> {
  const postedAt = Date.now();
  try {
    const res = await client.tryOn(AbortSignal.timeout(ANSWER_WITHIN_MS));
    const body = (await res.json()) as { tryonId?: string; code?: string };
    return {
      client,
      postedAt,
      answeredAt: Date.now(),
      status: res.status,
      ...(body.code ? { code: body.code } : {}),
      ...(body.tryonId ? { tryonId: body.tryonId } : {}),
    };
  } catch (err) {
    return { client, postedAt, answeredAt: Date.now(), status: 0, error: (err as Error).message };
  }
}

/** Shoppers with free trials and bought credits, each with one try-on done. */
async function shoppers(stack: Stack): Promise<ShopperClient[]> {
  gemini.fallback = { kind: 'image' };
  const clients = Array.from(
    { length: SHOPPERS },
    () => new ShopperClient(stack.base, () => ({ person: PERSON, garment: GARMENT }), 'restart'),
  );
  for (const c of clients) {
    await c.signIn();
    await c.buy('credits_200');
    expect((await post(c)).status).toBe(200);
  }
  return clients;
}

/** Every shopper posts try-on after try-on until stopped; `answers` grows as they come. */
function keepPosting(clients: ShopperClient[]): { answers: Answer[]; stop(): Promise<Answer[]> } {
  let stopped = false;
  const answers: Answer[] = [];
  const loops = clients.map(async (c) => {
    while (!stopped) {
      answers.push(await post(c));
      await sleep(150);
    }
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

/** Polls health until `ok(body)` with a 200; answers how long after `since` that was. */
async function healthRecovery(stack: Stack, since: number, ok: (body: HealthBody) => boolean): Promise<number> {
  return waitFor(
    'health ok again',
    async () => {
      const res = await fetch(`${stack.base}/api/health`, { signal: AbortSignal.timeout(5_000) });
      const body = (await res.json()) as HealthBody;
      return res.status === 200 && ok(body) ? Date.now() - since : undefined;
    },
    60_000,
    stack.output,
  );
}

interface HealthBody {
  status: string;
  checks: {
    database: { status: string };
    queue: { status: string };
    engines: Record<string, { warmed: boolean }>;
  };
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
 * Puts HELD_EACH try-ons of every shopper in the engine, keeps the shoppers posting, and runs
 * `outage` (which takes the service away and resolves when it is back, with that time); half the
 * held calls are answered during the outage, the rest once health is ok again. Measures how long
 * after the return health was ok and a new try-on succeeded; answers those and every try-on's answer.
 */
async function underLoad(
  stack: Stack,
  clients: ShopperClient[],
  outage: { downMs: number; run: () => Promise<number> },
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
  const back = outage.run();
  await sleep(outage.downMs / 2);
  const half = (SHOPPERS * HELD_EACH) / 2;
  expect(gemini.release(half)).toBe(half);
  const backAt = await back;
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

/** The same processes take try-ons again: one of every shopper succeeds. */
async function expectTryOnsWorkAgain(stack: Stack, clients: ShopperClient[]): Promise<Answer[]> {
  const again = await Promise.all(clients.map((c) => post(c)));
  for (const a of again) expect(a, stack.output()).toMatchObject({ status: 200 });
  return again;
}

/** Every answer came, no try-on is left processing, and every credit is accounted for in the ledger. */
async function expectEveryCreditAccountedFor(stack: Stack, clients: ShopperClient[], answers: Answer[]): Promise<void> {
  const unanswered = answers.filter((a) => a.error !== undefined);
  expect(
    unanswered.map((a) => `posted at ${new Date(a.postedAt).toISOString()}: ${a.error}`),
    `try-ons without an answer\n${stack.output()}`,
  ).toEqual([]);
  const database = await openDatabase({ dataDir: stack.dataDir, databaseUrl: stack.databaseUrl });
  const { db } = database;
  try {
    await waitFor(
      'no try-on left processing',
      async () => {
        const left = await db.selectFrom('tryons').select('id').where('status', '=', 'processing').execute();
        return left.length === 0 ? true : undefined;
      },
      20_000,
      stack.output,
    );
    for (const c of clients) {
      const tryons = await db
        .selectFrom('tryons')
        .select(['id', 'status', 'result_name'])
        .where('user_id', '=', c.userId)
        .execute();
      const events = await db
        .selectFrom('credit_events')
        .select(['tryon_id', 'type', 'amount'])
        .where('user_id', '=', c.userId)
        .where('tryon_id', 'is not', null)
        .execute();
      const stored = new Set<string>();
      for (const t of tryons) {
        const mine = events.filter((e) => e.tryon_id === t.id);
        const spent = mine.filter((e) => e.type === 'spend' || e.type === 'trial_spend');
        const refunded = mine.filter((e) => e.type === 'refund' || e.type === 'trial_refund');
        expect(
          spent.map((e) => e.amount),
          `try-on ${t.id}`,
        ).toEqual([-1]);
        if (t.status === 'succeeded') {
          expect(refunded, `succeeded try-on ${t.id} refunded`).toEqual([]);
          expect(fs.existsSync(path.join(stack.dataDir, 'files', 'results', t.result_name ?? '-'))).toBe(true);
          stored.add(t.id);
        } else {
          expect(t.status).toBe('failed');
          expect(
            refunded.map((e) => e.amount),
            `failed try-on ${t.id} not refunded`,
          ).toEqual([1]);
        }
      }
      const unitsSpent = -events.reduce((sum, e) => sum + e.amount, 0);
      expect(unitsSpent).toBe(stored.size);
      // The shopper's own view says the same.
      const user = await c.user();
      expect(BOUGHT - user.credits + user.free_trials_used).toBe(stored.size);
      // Every success a shopper was shown is one of their stored results.
      for (const a of answers.filter((x) => x.client === c && x.status === 200)) expect(stored).toContain(a.tryonId);
    }
  } finally {
    await database.close();
  }
}

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

/**
 * A restart under load, then the checks every restart must pass (the module's comment); the
 * recovery times are printed before they are checked.
 */
async function expectRecovery(
  what: string,
  stack: Stack,
  outage: { downMs: number; run: () => Promise<number> },
  healthy: (body: HealthBody) => boolean,
): Promise<void> {
  const clients = await shoppers(stack);
  const recovery = await underLoad(stack, clients, outage, healthy);
  report(what, recovery);
  const again = await expectTryOnsWorkAgain(stack, clients);
  await expectEveryCreditAccountedFor(stack, clients, [...recovery.held, ...recovery.posted, ...again]);
  // In the engine through the outage, answered by it: completed, not refunded.
  for (const a of recovery.held) expect(a, stack.output()).toMatchObject({ status: 200 });
  expect(recovery.healthMs).toBeLessThanOrEqual(RECOVERY_WITHIN_MS);
  expect(recovery.tryOnsMs).toBeLessThanOrEqual(RECOVERY_WITHIN_MS);
}

const KINDS: DatabaseKind[] = PG_BIN ? ['sqlite', 'postgres'] : ['sqlite'];

describe.skipIf(!REDIS).each(KINDS)('restarts under load, on %s', (kind) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(kind);
  }, 150_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it(`Redis away ${REDIS_DOWN_MS[kind] / 1000} s: the API and the worker reconnect on their own, and no credit is lost`, async () => {
    const downMs = REDIS_DOWN_MS[kind];
    await expectRecovery(
      `Redis away ${downMs / 1000} s (${kind})`,
      stack,
      { downMs, run: () => redis!.restart(downMs) },
      (body) => body.checks.queue.status === 'ok',
    );
  }, 120_000);

  if (kind === 'postgres') {
    it('PostgreSQL restarted: the API and the worker reconnect on their own, and no credit is lost', async () => {
      await expectRecovery(
        `PostgreSQL away ${POSTGRES_DOWN_MS / 1000} s`,
        stack,
        { downMs: POSTGRES_DOWN_MS, run: () => cluster!.restart(POSTGRES_DOWN_MS) },
        (body) => body.checks.database.status === 'ok',
      );
    }, 120_000);
  }
});
