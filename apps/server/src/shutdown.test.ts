/**
 * Graceful shutdown: the BUILT server (`node apps/server/dist/server.js`) and worker
 * (`dist/worker.js`) get SIGTERM with paid try-ons in flight. A try-on that finishes within
 * SHUTDOWN_GRACE_MS is answered with its result and charged; one that cannot (the engine hangs)
 * is refunded when the grace is over and answered ENGINE_FAILED; the process exits 0 soon after,
 * and no credit is lost: a restart on the same data shows exactly the finished try-on charged.
 *
 * The engine is the real `nano-banana` adapter pointed at the Gemini stand-in, behind a small
 * proxy that holds every generateContent call for ENGINE_DELAY_MS first (a slow provider); the
 * stand-in answers the first call with an image and hangs on the others.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './test/databases.js';
import { startGeminiStandIn, type GeminiStandIn } from './test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from './test/stand-ins/test-photos.js';
import { redisServerAvailable, startRedis, type TestRedis } from './test/redis.js';
import { expectApiError } from './test/api-error.js';
import { freePort } from './test/ports.js';
import { ShopperClient } from './test/shopper-client.js';
import { buildServer, startBuilt, waitAnswering, waitFor, type BuiltProcess } from './test/built-process.js';

const API_KEY = 'shutdown-test-key';
/** How long the slow provider holds each call before the stand-in answers (or hangs). */
const ENGINE_DELAY_MS = 1_500;
const GRACE_MS = 4_000;
/**
 * Past the grace, closing the queue, the engines (worker threads) and the database may take this
 * long on a loaded 2-core machine; a kept-alive connection would hold the server for 72 s.
 */
const CLOSE_WITHIN_MS = 5_000;

let gemini: GeminiStandIn;
let slow: { url: string; calls: number; close(): Promise<void> };
let PERSON: Buffer;
let GARMENT: Buffer;
const children = new Set<ChildProcess>();

/** A proxy in front of the Gemini stand-in that holds each generateContent call for ENGINE_DELAY_MS. */
async function startSlowProxy(target: string): Promise<typeof slow> {
  const state = { calls: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const generate = req.method === 'POST';
      if (generate) state.calls++;
      setTimeout(
        () => {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'x-goog-api-key'])
            if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
          fetch(`${target}${req.url}`, {
            method: req.method ?? 'GET',
            headers,
            ...(generate ? { body: Buffer.concat(chunks) } : {}),
          }).then(
            async (r) => {
              const body = Buffer.from(await r.arrayBuffer());
              res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
              res.end(body);
            },
            () => res.destroy(),
          );
        },
        generate ? ENGINE_DELAY_MS : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  buildServer();
  gemini = await startGeminiStandIn({ apiKey: API_KEY, instant: true });
  slow = await startSlowProxy(gemini.url);
  PERSON = await syntheticPhoto(600, 800, { seed: 5 });
  GARMENT = await syntheticPhoto(400, 400, { seed: 11 });
}, 300_000);

/** Starts a built entry point, killed after the suite if still running. */
function start(entry: 'server.js' | 'worker.js', env: Record<string, string>): BuiltProcess {
  const r = startBuilt(entry, env);
  children.add(r.child);
  return r;
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await slow?.close();
  await gemini?.close();
});

function serverEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    DATA_DIR: tempDir('aidressup-shutdown-'),
    GEMINI_API_KEY: API_KEY,
    GEMINI_BASE_URL: slow.url,
    DEFAULT_ENGINE: 'nano-banana',
    FREE_TRIALS_LIMIT: '0',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    // Two try-ons at once are all these tests need (the local engine warms one thread per slot).
    ENGINE_CONCURRENCY: '2',
    NEW_USERS_PER_IP_PER_DAY: '100000',
    RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
    RATE_LIMIT_TRYON_PER_MINUTE: '100000',
    ENGINE_LINE_TICKETS_PER_ADDRESS: '1000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
    ...extra,
  };
}

/** A shopper of these tests, posting the suite's photos. */
function newClient(base: string): ShopperClient {
  return new ShopperClient(base, () => ({ person: PERSON, garment: GARMENT }), 'shutdown');
}

/** A failed check carries the processes' output, so that a failure in CI says what the server did. */
async function withOutput(check: Promise<void>, output: () => string): Promise<void> {
  try {
    await check;
  } catch (err) {
    if (err instanceof Error) err.message += `\n--- server and worker output ---\n${output()}`;
    throw err;
  }
}

/** Two paid try-ons in the slow engine: the first will finish within the grace, the second never. */
async function twoTryOnsInFlight(client: ShopperClient, output: () => string) {
  gemini.reset();
  gemini.enqueue({ kind: 'image' });
  gemini.fallback = { kind: 'hang' };
  const callsBefore = slow.calls;
  const finishing = client.tryOn();
  await waitFor(
    'the first try-on in the engine',
    async () => (slow.calls > callsBefore ? true : undefined),
    20_000,
    output,
  );
  const hanging = client.tryOn();
  await waitFor('both in the engine', async () => (slow.calls > callsBefore + 1 ? true : undefined), 20_000, output);
  return { finishing, hanging };
}

describe('graceful shutdown of the API (engines in the process)', () => {
  it('on SIGTERM finishes the try-on it can, refunds the one it cannot, exits 0 and loses no credit', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = serverEnv(port);
    const api = start('server.js', env);
    await waitAnswering(base, api);
    const client = newClient(base);
    await client.signIn();
    await client.buy('monthly');
    const before = await client.credits();
    const { finishing, hanging } = await twoTryOnsInFlight(client, api.output);
    expect(await client.credits()).toBe(before - 2);

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    // Closing: no new request is taken.
    await waitFor(
      'new requests refused',
      async () => {
        const res = await fetch(`${base}/api/health`).catch((err: unknown) => err as Error);
        return res instanceof Error || res.status === 503 ? true : undefined;
      },
      2_000,
      api.output,
    );

    const done = await finishing;
    expect(done.status).toBe(200);
    const { imageUrl } = (await done.json()) as { imageUrl: string };
    await withOutput(expectApiError(await hanging, 502, 'ENGINE_FAILED'), api.output);
    const answeredAt = Date.now();
    expect(answeredAt - signalled).toBeGreaterThanOrEqual(GRACE_MS - 200);

    const { code, at } = await api.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(GRACE_MS + CLOSE_WITHIN_MS);
    expect(api.output()).toContain('shutdown grace is over');

    // The same data after a restart: exactly the finished try-on is charged, and its result is there.
    const again = start('server.js', env);
    try {
      await waitAnswering(base, again);
      expect(await client.credits()).toBe(before - 1);
      const items = await client.gallery();
      expect(items).toHaveLength(1);
      expect(items[0]!.imageUrl).toBe(imageUrl);
      const image = await fetch(`${base}${imageUrl}`, { headers: { cookie: client.cookie } });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\//);

      // Idle (kept-alive connections from the requests above included): it exits at once.
      const idleSignalled = Date.now();
      again.child.kill('SIGTERM');
      const idle = await again.exited;
      expect(idle.code).toBe(0);
      expect(idle.at - idleSignalled).toBeLessThan(CLOSE_WITHIN_MS);
    } finally {
      if (again.child.exitCode === null) again.child.kill('SIGKILL');
    }
  }, 120_000);
});

const REDIS = redisServerAvailable();

describe.skipIf(!REDIS)('graceful shutdown of a queue worker', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('on SIGTERM takes no new job, finishes the one it can, refunds the one it cannot and exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // API and worker share the SQLite file (one machine): DATA_DIR is the same.
    const env = serverEnv(port, { REDIS_URL: redis.url, SHUTDOWN_GRACE_MS: '20000' });
    const api = start('server.js', env);
    const worker = start('worker.js', { ...env, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const output = () => api.output() + worker.output();
    try {
      await waitAnswering(base, api);
      await waitFor(
        'worker ready',
        async () => (worker.output().includes('try-on worker started') ? true : undefined),
        30_000,
        output,
      );
      const client = newClient(base);
      await client.signIn();
      await client.buy('monthly');
      const before = await client.credits();
      const { finishing, hanging } = await twoTryOnsInFlight(client, output);

      const signalled = Date.now();
      worker.child.kill('SIGTERM');
      // A try-on posted now waits on the queue: the stopping worker does not take it.
      const callsAtSignal = slow.calls;
      const waiting = client.tryOn();

      const done = await finishing;
      expect(done.status).toBe(200);
      await withOutput(expectApiError(await hanging, 502, 'ENGINE_FAILED'), output);
      const { code, at } = await worker.exited;
      expect(code).toBe(0);
      expect(at - signalled).toBeLessThan(GRACE_MS + CLOSE_WITHIN_MS);
      expect(at - signalled).toBeGreaterThanOrEqual(GRACE_MS - 200);
      expect(slow.calls).toBe(callsAtSignal);

      // The waiting try-on is still on the queue; a new worker runs it.
      gemini.enqueue({ kind: 'image' });
      const next = start('worker.js', env);
      try {
        const third = await waiting;
        expect(third.status).toBe(200);
        expect(await client.credits()).toBe(before - 2);
        expect(await client.gallery()).toHaveLength(2);
      } finally {
        next.child.kill('SIGTERM');
        expect((await next.exited).code).toBe(0);
      }
    } finally {
      api.child.kill('SIGTERM');
      expect((await api.exited).code).toBe(0);
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    }
  }, 120_000);
});
