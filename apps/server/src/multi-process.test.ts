/**
 * Past one machine, on one machine: two API processes and two queue workers, each with its own
 * port and data folder, sharing PostgreSQL, Redis and the S3 stand-in. 40 concurrent try-ons spread
 * over both APIs all complete, each result is readable from either API and each is charged exactly
 * once; a worker killed with SIGKILL in the middle of jobs leaves nothing lost.
 *
 * The processes are the real server and worker entry points with the deterministic engine double
 * (test/processes/), so the cost and timing of a try-on are known.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { DATABASE_KINDS, createPostgresDatabase, tempDir } from './test/databases.js';
import { jpeg, png } from './test/images.js';
import { redisServerAvailable, startRedis, type TestRedis } from './test/redis.js';
import { startS3StandIn, type S3StandIn } from './test/stand-ins/s3-stand-in.js';
import { freePort } from './test/ports.js';
import { childEnv } from './test/built-process.js';

const RUN = DATABASE_KINDS.includes('postgres') && redisServerAvailable();
const ENGINE_DELAY_MS = 1500;
/** A try-on's deadline once charged: long enough for a loaded machine, short enough for the kill test. */
const DEADLINE_MS = 30_000;
/** Busy answers a shopper follows, as the page does, before giving up. */
const MAX_BUSY_RETRIES = 20;

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function spawnProc(name: string, file: string, env: Record<string, string>): Proc {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))],
    {
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stdout.on('data', (d: Buffer) => output.push(...d.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (d: Buffer) => output.push(...d.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output, exited };
}

async function stopProc(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await p.exited;
  clearTimeout(timer);
}

async function waitFor(
  what: string,
  ok: () => Promise<boolean> | boolean,
  procs: Proc[],
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await ok()) return;
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead)
      throw new Error(
        `${dead.name} exited (${dead.child.exitCode}) while waiting for ${what}:\n${dead.output.join('\n')}`,
      );
    if (Date.now() > until)
      throw new Error(
        `timed out waiting for ${what}:\n${procs.map((p) => `${p.name}: ${p.output.slice(-20).join('\n')}`).join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(RUN)('two API processes and two workers on one PostgreSQL, Redis and S3 stand-in', () => {
  let redis: TestRedis;
  let s3: S3StandIn;
  let db: pg.Client;
  let PERSON: Buffer;
  let GARMENT: Buffer;
  const apis: { proc: Proc; url: string }[] = [];
  const workers: Proc[] = [];
  const all = () => [...apis.map((a) => a.proc), ...workers];

  beforeAll(async () => {
    PERSON = await jpeg(480, 640, '#c08060');
    GARMENT = await png(300, 300, '#2040ff');
    const databaseUrl = await createPostgresDatabase();
    redis = await startRedis();
    s3 = await startS3StandIn();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      ...s3.env,
      SESSION_SECRET: 'multi-process-test-session-secret-0123456789',
      ENGINE_CONCURRENCY: '4',
      ENGINE_DEADLINE_MS: String(DEADLINE_MS),
      TEST_ENGINE_DELAY_MS: String(ENGINE_DELAY_MS),
      // Every request comes from 127.0.0.1 here.
      RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
      RATE_LIMIT_TRYON_PER_MINUTE: '100000',
      ENGINE_LINE_TICKETS_PER_ADDRESS: '1000',
      NEW_USERS_PER_IP_PER_DAY: '100000',
    };
    for (let i = 1; i <= 2; i++) {
      const port = await freePort();
      apis.push({
        proc: spawnProc(`api-${i}`, './test/processes/api-process.ts', {
          ...common,
          PORT: String(port),
          DATA_DIR: tempDir(`aidressup-api${i}-`),
        }),
        url: `http://127.0.0.1:${port}`,
      });
    }
    for (let i = 1; i <= 2; i++)
      workers.push(
        spawnProc(`worker-${i}`, './test/processes/worker-process.ts', {
          ...common,
          DATA_DIR: tempDir(`aidressup-worker${i}-`),
        }),
      );
    for (const api of apis) {
      await waitFor(
        `${api.proc.name} healthy`,
        async () => (await fetch(`${api.url}/api/health`).catch(() => undefined))?.status === 200,
        all(),
      );
    }
    for (const w of workers)
      await waitFor(`${w.name} ready`, () => w.output.some((l) => l.includes('worker ready')), all());
  }, 120_000);

  afterAll(async () => {
    await Promise.all(all().map(stopProc));
    await db?.end();
    await s3?.close();
    await redis?.stop();
  });

  async function signIn(api: string, i: number): Promise<{ cookie: string; userId: string }> {
    const res = await fetch(`${api}/api/auth/anonymous`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        deviceId: `device_multiprocess_${i}_${Math.random().toString(36).slice(2, 10)}`,
        deviceInfo: { browser: 'Chrome', os: 'Linux', device_type: 'desktop', screen_resolution: '1920x1080' },
      }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('aidu_session='))!
      .split(';')[0]!;
    return { cookie, userId: ((await res.json()) as { user: { id: string } }).user.id };
  }

  /** Busy answers (503 ENGINE_BUSY) the shoppers were given, and followed. */
  let busyAnswers = 0;

  /**
   * A try-on as the page makes it: a busy answer is a wait, not an answer (the line holds a try-on
   * at most ENGINE_LINE_WAIT_MS): after its Retry-After the shopper posts again with its ticket.
   */
  async function tryOn(api: string, s: { cookie: string; userId: string }) {
    let ticket: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const form = new FormData();
      form.append('userImage', new Blob([new Uint8Array(PERSON)], { type: 'image/jpeg' }), 'person.jpg');
      form.append('clothingImage', new Blob([new Uint8Array(GARMENT)], { type: 'image/png' }), 'garment.png');
      form.append('category', 'upper_body');
      form.append('userId', s.userId);
      if (ticket) form.append('lineTicket', ticket);
      const res = await fetch(`${api}/api/process-image`, {
        method: 'POST',
        headers: { cookie: s.cookie },
        body: form,
      });
      const body = (await res.json()) as {
        success: boolean;
        imageUrl?: string;
        code?: string;
        error?: string;
        ticket?: string;
      };
      if (body.code !== 'ENGINE_BUSY' || attempt >= MAX_BUSY_RETRIES) return { status: res.status, body };
      busyAnswers++;
      ticket = body.ticket ?? ticket;
      // The page waits the answer's Retry-After, then posts again.
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
    }
  }

  async function counts(sql: string, params: unknown[] = []): Promise<Record<string, number>> {
    const { rows } = await db.query<{ k: string; n: string }>(sql, params);
    return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
  }

  it('runs 40 concurrent try-ons over both APIs: all complete, readable from either API, each charged once', async () => {
    const [a, b] = apis.map((x) => x.url) as [string, string];
    const shoppers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? b : a, i)));
    const results = await Promise.all(shoppers.flatMap((s) => [tryOn(a, s), tryOn(b, s)]));
    console.log(`multi-process: 40 try-ons, ${busyAnswers} busy answers followed (waits in line)`);
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    // Both workers took their share.
    for (const w of workers) expect(w.output.filter((l) => l.includes('engine call')).length).toBeGreaterThan(0);

    const urls = results.map((r) => r.body.imageUrl!);
    expect(new Set(urls).size).toBe(40);
    for (const url of urls) {
      const [fromA, fromB] = await Promise.all([fetch(a + url), fetch(b + url)]);
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      expect(Buffer.from(await fromA.arrayBuffer()).equals(Buffer.from(await fromB.arrayBuffer()))).toBe(true);
    }

    expect(await counts(`SELECT type AS k, count(*) AS n FROM credit_events GROUP BY type`)).toEqual({
      trial_spend: 40,
    });
    expect(await counts(`SELECT status AS k, count(*) AS n FROM tryons GROUP BY status`)).toEqual({ succeeded: 40 });
    expect(
      await counts(`SELECT free_trials_used::text AS k, count(*) AS n FROM users GROUP BY free_trials_used`),
    ).toEqual({ '2': 20 });
    expect(s3.keys().filter((k) => k.startsWith('results/'))).toHaveLength(40);
    expect(s3.keys().filter((k) => k.startsWith('uploads/'))).toEqual([]);
  }, 120_000);

  it('loses nothing when a worker is killed with SIGKILL in the middle of jobs', async () => {
    const [a, b] = apis.map((x) => x.url) as [string, string];
    const victim = workers[0]!;
    const callsBefore = victim.output.filter((l) => l.includes('engine call')).length;
    const shoppers = await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(i % 2 ? b : a, 100 + i)));
    const pending = Promise.all(shoppers.map((s, i) => tryOn(i % 2 ? b : a, s)));
    await waitFor(
      'the victim to start a job',
      () => victim.output.filter((l) => l.includes('engine call')).length > callsBefore,
      all(),
      20_000,
    );
    victim.child.kill('SIGKILL');
    await victim.exited;
    const results = await pending;

    // Every request was answered: a result, or a clear error with the trial given back.
    for (const r of results) {
      if (r.status === 200) continue;
      expect([502, 503, 504]).toContain(r.status);
      expect(r.body).toMatchObject({ success: false });
      expect(['ENGINE_FAILED', 'ENGINE_TIMEOUT']).toContain(r.body.code);
      expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|redis|bullmq|stalled|stack/i);
    }
    const ids = shoppers.map((s) => s.userId);
    const rows = await db.query<{ user_id: string; status: string; free_trials_used: number }>(
      `SELECT t.user_id, t.status, u.free_trials_used FROM tryons t JOIN users u ON u.id = t.user_id WHERE t.user_id = ANY($1)`,
      [ids],
    );
    expect(rows.rows).toHaveLength(8);
    for (const [i, s] of shoppers.entries()) {
      const row = rows.rows.find((r) => r.user_id === s.userId)!;
      // No row left processing; a succeeded try-on used the trial, a failed one gave it back.
      expect(row.status).toBe(results[i]!.status === 200 ? 'succeeded' : 'failed');
      expect(row.free_trials_used).toBe(row.status === 'succeeded' ? 1 : 0);
    }
    const events = await counts(
      `SELECT type AS k, count(*) AS n FROM credit_events WHERE user_id = ANY($1) GROUP BY type`,
      [ids],
    );
    const failed = results.filter((r) => r.status !== 200).length;
    expect(events).toEqual({ trial_spend: 8, ...(failed > 0 ? { trial_refund: failed } : {}) });
    for (const r of results.filter((x) => x.status === 200)) {
      expect((await fetch(b + r.body.imageUrl!)).status).toBe(200);
    }
    // The killed worker's uploads did not stay behind.
    expect(s3.keys().filter((k) => k.startsWith('uploads/'))).toEqual([]);

    // The surviving worker still serves: a new try-on completes.
    const after = await signIn(a, 200);
    expect((await tryOn(a, after)).status).toBe(200);
  }, 120_000);
});
