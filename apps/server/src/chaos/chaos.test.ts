/**
 * Chaos: the BUILT server (`node apps/server/dist/server.js`, and `dist/worker.js` in queue
 * mode) with several paid try-ons in flight is killed with SIGKILL (its whole process group)
 * and started again at once on the same data; within seconds every credit and free trial
 * without a stored result must be back, and a result stored before the crash must stay.
 *
 * The engine is the real `nano-banana` adapter pointed at the Gemini stand-in, which hangs on
 * purpose (a slow provider), so the try-ons are really in flight when the process dies.
 * The build runs first (`tsc -b`, incremental: seconds when nothing changed), so this test
 * needs nothing from `npm run build` and runs in `npm run test:unit` like every other test.
 *
 * What is timed is the recovery, not the machine: the try-ons' deadline is the longest the server
 * allows (ENGINE_DEADLINE_MS), so charges given back well before it were given back by the
 * restart's recovery, however slowly a busy machine starts the process (the time is printed);
 * each test has room for starting processes on a loaded machine.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, freshDatabaseEnv } from '../test/databases.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { expectApiError } from '../test/api-error.js';
import { freePort } from '../test/ports.js';
import { ShopperClient } from '../test/shopper-client.js';
import { buildServer, startBuilt, waitAnswering, waitFor, type BuiltProcess } from '../test/built-process.js';

const API_KEY = 'chaos-test-key';
/** The try-ons' deadline: the longest the server allows, so that only recovery settles them sooner. */
const DEADLINE_MS = 115_000;
/**
 * Every charge without a stored result must be back within this long after the restart began:
 * well before the deadline (then recovery gave them back), with room for a busy machine to start
 * the process (it takes seconds when idle; the time is printed).
 */
const RECOVERY_WITHIN_MS = 45_000;
/** A test's own time: two or three processes started on a loaded machine, and the recovery. */
const TEST_TIMEOUT_MS = 180_000;

let gemini: GeminiStandIn;
let PERSON: Buffer;
let GARMENT: Buffer;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  buildServer();
  gemini = await startGeminiStandIn({ apiKey: API_KEY, instant: true });
  PERSON = await syntheticPhoto(600, 800, { seed: 3 });
  GARMENT = await syntheticPhoto(400, 400, { seed: 9 });
}, 300_000);

afterAll(async () => {
  for (const c of children) killGroup(c);
  await gemini?.close();
});

function killGroup(child: ChildProcess): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Starts a built entry point in its own process group (so SIGKILL takes the group). */
function start(entry: 'server.js' | 'worker.js', env: Record<string, string>): BuiltProcess {
  const r = startBuilt(entry, env, { detached: true });
  children.add(r.child);
  return r;
}

async function kill9(r: BuiltProcess): Promise<void> {
  killGroup(r.child);
  await r.exited;
  children.delete(r.child);
}

function serverEnv(base: Record<string, string>, port: number): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    GEMINI_API_KEY: API_KEY,
    GEMINI_BASE_URL: gemini.url,
    DEFAULT_ENGINE: 'nano-banana',
    ENGINE_DEADLINE_MS: String(DEADLINE_MS),
    FREE_TRIALS_LIMIT: '2',
    NEW_USERS_PER_IP_PER_DAY: '100000',
    RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
    RATE_LIMIT_TRYON_PER_MINUTE: '100000',
    ENGINE_LINE_TICKETS_PER_ADDRESS: '1000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
    ...base,
  };
}

/** A shopper of these tests, posting the suite's photos. */
function newClient(base: string): ShopperClient {
  return new ShopperClient(base, () => ({ person: PERSON, garment: GARMENT }), 'chaos');
}

/**
 * One user with 2 free trials and 50 credits: one try-on succeeds (a stored result, charged),
 * then 10 hang in the engine (2 trials + 8 credits) when the crash comes.
 */
async function putTryOnsInFlight(
  client: ShopperClient,
  output: () => string,
): Promise<{ inFlight: Promise<Response | Error>[] }> {
  await client.signIn();
  await client.buy('monthly');
  gemini.reset();
  gemini.enqueue({ kind: 'image' });
  gemini.fallback = { kind: 'hang' };
  const done = await client.tryOn();
  expect(done.status).toBe(200);
  expect(await client.user()).toMatchObject({ free_trials_used: 1, credits: 50 });
  const inFlight = Array.from({ length: 10 }, () => client.tryOn().catch((e: unknown) => e as Error));
  await waitFor(
    '10 try-ons in the engine',
    async () => (gemini.calls().length >= 11 ? true : undefined),
    30_000,
    () => `${gemini.calls().length} calls\n${output()}`,
  );
  // 1 trial + 9 credits... the first trial went to the finished try-on: 1 trial and 9 credits are in flight.
  expect(await client.user()).toMatchObject({ free_trials_used: 2, credits: 41 });
  return { inFlight };
}

describe.each(DATABASE_KINDS)('chaos: kill -9 with paid try-ons in flight, on %s', (kind) => {
  it(
    'gives back every charge without a stored result within seconds of an immediate restart',
    async () => {
      const db = await freshDatabaseEnv(kind);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = serverEnv(
        { DATA_DIR: db.DATA_DIR, ...(db.DATABASE_URL ? { DATABASE_URL: db.DATABASE_URL } : {}) },
        port,
      );
      const first = start('server.js', env);
      await waitAnswering(base, first, '/api/config');
      const client = newClient(base);
      const { inFlight } = await putTryOnsInFlight(client, first.output);

      await kill9(first);
      for (const r of await Promise.all(inFlight)) expect(r).toBeInstanceOf(Error);

      const restartedAt = Date.now();
      const second = start('server.js', env);
      try {
        const user = await waitFor(
          'credits back',
          async () => {
            const u = await client.user();
            return u.credits === 50 && u.free_trials_used === 1 ? u : undefined;
          },
          RECOVERY_WITHIN_MS,
          second.output,
        );
        expect(user).toMatchObject({ credits: 50, free_trials_used: 1 });
        console.log(
          `chaos (${kind}): every charge back ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart began`,
        );
        expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_WITHIN_MS);
        // The result stored before the crash is still there, and still charged.
        const gallery = await fetch(`${base}/api/tryons`, { headers: { cookie: client.cookie } });
        expect(((await gallery.json()) as { items: unknown[] }).items).toHaveLength(1);
      } finally {
        await kill9(second);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

const REDIS = redisServerAvailable();

describe.skipIf(!REDIS).each(DATABASE_KINDS)(
  'chaos: queue mode, the worker killed with try-ons in flight, on %s',
  (kind) => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it(
      'settles the killed worker’s try-ons within seconds of its restart, and the waiting page gets its answer',
      async () => {
        const db = await freshDatabaseEnv(kind);
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const env = serverEnv(
          {
            DATA_DIR: db.DATA_DIR,
            REDIS_URL: redis.url,
            // The API runs no try-on (the worker does): this is only its built-in engine's threads.
            ENGINE_CONCURRENCY: '1',
            ...(db.DATABASE_URL ? { DATABASE_URL: db.DATABASE_URL } : {}),
          },
          port,
        );
        // The worker's slots: the ten held in the engine when it dies (its built-in engine's threads
        // too, which it warms at start: no more than needed, so starting stays quick).
        const workerEnv = { ...env, ENGINE_CONCURRENCY: '10' };
        const api = start('server.js', env);
        const worker = start('worker.js', workerEnv);
        try {
          await waitAnswering(base, api, '/api/config');
          const client = newClient(base);
          const { inFlight } = await putTryOnsInFlight(client, () => api.output() + worker.output());

          await kill9(worker);
          const restartedAt = Date.now();
          const again = start('worker.js', workerEnv);
          try {
            await waitFor(
              'credits back',
              async () => {
                const u = await client.user();
                return u.credits === 50 && u.free_trials_used === 1 ? u : undefined;
              },
              RECOVERY_WITHIN_MS,
              () => api.output() + again.output(),
            );
            const settledAt = Date.now();
            console.log(
              `chaos, queue mode (${kind}): every charge back ${((settledAt - restartedAt) / 1000).toFixed(1)} s after the worker's restart began`,
            );
            expect(settledAt - restartedAt).toBeLessThan(RECOVERY_WITHIN_MS);
            // The API, still waiting on the jobs, answers them once their rows are settled (it looks
            // every second), long before their deadline: not charged.
            const answers = await Promise.all(inFlight);
            for (const a of answers) {
              expect(a).toBeInstanceOf(Response);
              await expectApiError(a as Response, 502, 'ENGINE_FAILED');
            }
            console.log(
              `chaos, queue mode (${kind}): the waiting page answered ${((Date.now() - settledAt) / 1000).toFixed(1)} s after that`,
            );
            expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_WITHIN_MS + 15_000);
            expect(await client.user()).toMatchObject({ credits: 50, free_trials_used: 1 });
          } finally {
            await kill9(again);
          }
        } finally {
          await kill9(api);
          if (worker.child.exitCode === null) await kill9(worker);
        }
      },
      TEST_TIMEOUT_MS,
    );
  },
);
