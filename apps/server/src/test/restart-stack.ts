/**
 * The fault suite's stack (`chaos/restart.test.ts`): the BUILT API (`dist/server.js`), with its
 * queue worker in a process of its own (`dist/worker.js`) or inside the API (WORKER_IN_PROCESS),
 * on a Redis of its own and SQLite or PostgreSQL; shoppers who post try-ons over HTTP, a shop's
 * widget shopper, and the checks every restart must pass (the suite's comment).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { DatabaseKind } from '../db/database.js';
import { openDatabase } from '../db/database.js';
import { createMerchant } from '../services/merchants.js';
import { createPostgresDatabase, tempDir } from './databases.js';
import type { GeminiStandIn } from './stand-ins/gemini-stand-in.js';
import { freePort } from './ports.js';
import { ShopperClient, type ShopperPhotos } from './shopper-client.js';
import { startBuilt, waitAnswering, waitFor, type BuiltProcess } from './built-process.js';

/** Where try-ons run: a worker process beside the API, or the API itself (WORKER_IN_PROCESS). */
export type WorkerMode = 'worker process' | 'worker in the API';

export const SHOPPERS = 2;
/** Try-ons each shopper has held in the engine when the service goes away. */
export const HELD_EACH = 2;
/**
 * The worker's slots: the held try-ons and one for each shopper's next. (Also the built-in
 * engine's threads, which every process warms at start: few, so that starting stays quick.)
 */
export const WORKER_SLOTS = SHOPPERS * HELD_EACH + SHOPPERS;
/** Free trials and bought credits of each shopper. */
export const FREE_TRIALS = 2;
export const BOUGHT = 200;
/** A try-on's answer must come within this long (the engine deadline is far longer). */
export const ANSWER_WITHIN_MS = 45_000;
/** The shop the widget's shopper is on. */
const SHOP = 'https://shop.example';

export interface StackSetup {
  kind: DatabaseKind;
  mode: WorkerMode;
  /** The stack's Redis (through the suite's network path). */
  redisUrl: string;
  /** The PostgreSQL server for `kind` postgres. */
  postgresUrl?: string | undefined;
  gemini: GeminiStandIn;
  apiKey: string;
}

export interface Stack {
  base: string;
  dataDir: string;
  databaseUrl: string | undefined;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<BuiltProcess>();

async function stopProcess(p: BuiltProcess): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p.exited;
  running.delete(p);
}

/** Every process a stack started and that still runs (afterAll). */
export async function stopAll(): Promise<void> {
  for (const p of [...running]) await stopProcess(p);
}

export interface HealthBody {
  status: string;
  checks: {
    database: { status: string };
    queue: { status: string };
    engines: Record<string, { warmed: boolean }>;
  };
}

/** The API, and the worker unless it runs inside the API, on fresh data; ready once their engines are warm. */
export async function startStack(s: StackSetup): Promise<Stack> {
  const dataDir = tempDir();
  const databaseUrl = s.kind === 'postgres' ? await createPostgresDatabase(s.postgresUrl) : undefined;
  const port = await freePort();
  const inApi = s.mode === 'worker in the API';
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    REDIS_URL: s.redisUrl,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    GEMINI_API_KEY: s.apiKey,
    GEMINI_BASE_URL: s.gemini.url,
    DEFAULT_ENGINE: 'nano-banana',
    // With a worker beside it the API runs no try-on: this is its built-in engine's threads.
    ENGINE_CONCURRENCY: inApi ? String(WORKER_SLOTS) : '1',
    ...(inApi ? { WORKER_IN_PROCESS: '1' } : {}),
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
  const worker = inApi
    ? undefined
    : startBuilt('worker.js', { ...env, LOG_LEVEL: 'info', ENGINE_CONCURRENCY: String(WORKER_SLOTS) });
  if (worker) running.add(worker);
  // The last lines of each (a failing run logs a line per refused try-on).
  const tail = (text: string) => text.split('\n').slice(-40).join('\n');
  const output = () => `--- api\n${tail(api.output())}${worker ? `\n--- worker\n${tail(worker.output())}` : ''}`;
  await waitFor(
    'the engines warm',
    async () => {
      const health = (await (await fetch(`${base}/api/health`)).json()) as HealthBody;
      const apiWarm = Object.values(health.checks.engines).every((e) => e.warmed);
      const workerWarm = !worker || worker.output().includes('"msg":"engines warmed"');
      return apiWarm && workerWarm && health.checks.queue.status === 'ok' ? true : undefined;
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
      await Promise.all([stopProcess(api), ...(worker ? [stopProcess(worker)] : [])]);
    },
  };
}

export interface Answer {
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

export async function post(client: ShopperClient): Promise<Answer> {
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
export async function shoppers(stack: Stack, gemini: GeminiStandIn, photos: () => ShopperPhotos) {
  gemini.fallback = { kind: 'image' };
  const clients = Array.from({ length: SHOPPERS }, () => new ShopperClient(stack.base, photos, 'restart'));
  for (const c of clients) {
    await c.signIn();
    await c.buy('credits_200');
    expect((await post(c)).status).toBe(200);
  }
  return clients;
}

/** A shop (a merchant with credits, made in the stack's database) and one of its widget shoppers. */
export async function widgetShopper(stack: Stack, credits: number) {
  const database = await openDatabase({ dataDir: stack.dataDir, databaseUrl: stack.databaseUrl });
  let key: string;
  try {
    const merchant = await createMerchant(
      { db: database.db, clock: () => new Date() },
      { id: 'restart-suite', email: 'operator@example.test' },
      { name: 'Restart shop', allowedOrigins: [SHOP], credits },
    );
    key = merchant.publishableKey;
  } finally {
    await database.close();
  }
  const opened = await fetch(`${stack.base}/api/embed/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP },
    body: JSON.stringify({ key }),
  });
  expect(opened.status, await opened.clone().text()).toBe(200);
  const { token } = (await opened.json()) as { token: string };
  return {
    /** A widget try-on from our frame (its origin is the server's own). */
    async tryOn(photos: ShopperPhotos): Promise<{ status: number; code?: string }> {
      const form = new FormData();
      form.set('userImage', new Blob([new Uint8Array(photos.person)], { type: 'image/jpeg' }), 'me.jpg');
      form.set('clothingImage', new Blob([new Uint8Array(photos.garment)], { type: 'image/jpeg' }), 'shirt.jpg');
      form.set('category', 'upper_body');
      const res = await fetch(`${stack.base}/api/embed/tryon`, {
        method: 'POST',
        body: form,
        headers: { origin: stack.base, authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      const body = (await res.json()) as { code?: string };
      return { status: res.status, ...(body.code ? { code: body.code } : {}) };
    },
  };
}

/**
 * Every shopper posts try-on after try-on until stopped; `answers` grows as they come. (A short
 * pause between two posts paces the load: it stands for no event.)
 */
export function keepPosting(clients: ShopperClient[]): { answers: Answer[]; stop(): Promise<Answer[]> } {
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
export async function healthRecovery(
  stack: Stack,
  since: number,
  ok: (body: HealthBody) => boolean,
  withinMs = 60_000,
): Promise<number> {
  return waitFor(
    'health ok again',
    async () => {
      const res = await fetch(`${stack.base}/api/health`, { signal: AbortSignal.timeout(5_000) });
      const body = (await res.json()) as HealthBody;
      return res.status === 200 && ok(body) ? Date.now() - since : undefined;
    },
    withinMs,
    stack.output,
  );
}

/** Every answer came, no try-on is left processing, and every credit is accounted for in the ledger. */
export async function expectEveryCreditAccountedFor(
  stack: Stack,
  clients: ShopperClient[],
  answers: Answer[],
): Promise<void> {
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
