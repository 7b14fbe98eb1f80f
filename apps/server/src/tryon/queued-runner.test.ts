import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ENGINE_ESTIMATE_SECONDS, MESSAGES, TryOnResponseSchema } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { createEngineDouble, type EngineDouble } from '../test/engine-double.js';
import { jpeg, png, type FilePart, postMultipart } from '../test/images.js';
import { Redis } from 'ioredis';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { refundTryOn, reserveTryOn } from '../ledger/ledger.js';
import { findTryOn } from '../repositories/tryons.js';
import { findUserById } from '../repositories/users.js';
import { runWorker, type WorkerProcess } from './worker.js';
import { JOB_PRIORITY, TRYON_QUEUE_NAME, newUploadKey, processTryOnJob } from './job.js';
import { createEngineRegistry } from '../engines/registry.js';
import { createLogger } from '../logging.js';
import { openStream } from '../test/sse.js';
import { expectApiError } from '../test/api-error.js';

const REDIS = redisServerAvailable();

let PERSON: Buffer;
let GARMENT: Buffer;
let redis: TestRedis | undefined;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function tryOnRequest(app: FastifyInstance, cookie: string, userId: string, lower?: FilePart, person: Buffer = PERSON) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: person },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      lowerClothingImage: lower,
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

/** Stored uploads left under DATA_DIR/files/uploads. */
function uploadsLeft(t: TestApp): string[] {
  const dir = path.join(t.config.dataDir, 'files', 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function refundEvents(app: FastifyInstance, tryonId: string): Promise<number> {
  const rows = await app.db
    .selectFrom('credit_events')
    .select('id')
    .where('tryon_id', '=', tryonId)
    .where('type', 'in', ['trial_refund', 'refund'])
    .execute();
  return rows.length;
}

/** Jobs waiting in the queue, as the health check reports them. */
async function queueWaiting(t: TestApp): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/health' })).json().checks.queue.waiting;
}

async function latestTryOnId(app: FastifyInstance, userId: string): Promise<string> {
  const row = await app.db
    .selectFrom('tryons')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

// Each app gets its own Redis database (0–15), and each test's workers and apps stop when it
// ends: with more tests than databases, a later test reuses a number, never a live queue.
let redisDb = 0;

/** The next Redis database, emptied of any earlier test's queue. */
async function freshRedisUrl(): Promise<string> {
  const url = `${redis!.url}/${++redisDb % 16}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  await client.quit();
  return url;
}

describe.skipIf(!REDIS).each(DATABASE_KINDS)('queued try-ons (Redis) on %s', (kind) => {
  // After-hooks run last-registered first: the workers stop before the apps close.
  const build = testApps(kind, {}, { closeAfter: 'each' });
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
  });

  async function make(engine: EngineDouble, env: Record<string, string> = {}): Promise<TestApp> {
    return build({ engine, env: { REDIS_URL: await freshRedisUrl(), ...env } });
  }
  /** A worker like `npm run worker`: its own database, storage and Redis connections. */
  async function startWorker(t: TestApp, engine: EngineDouble): Promise<WorkerProcess> {
    const worker = await runWorker(t.config, { engines: { [engine.id]: engine } });
    workers.push(worker);
    return worker;
  }

  it('runs a try-on in a worker process and answers as before; the uploads are gone afterwards', async () => {
    const engine = createEngineDouble();
    const t = await make(engine);
    await startWorker(t, engine);
    const { cookie, user } = await signIn(t.app);

    const res = await tryOnRequest(t.app, cookie, user.id);
    expect(res.statusCode).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect([body.usedFreeTrial, body.creditsRemaining]).toEqual([true, 0]);
    expect(body.imageUrl).toMatch(/^\/api\/results\/[A-Za-z0-9_-]{43}\.png$/);
    expect(engine.calls).toHaveLength(1);
    // The worker got the normalised photos from storage, not the raw uploads.
    expect((await sharp(engine.calls[0]!.person).metadata()).format).toBe('jpeg');

    const image = await t.app.inject({ method: 'GET', url: body.imageUrl });
    expect(image.statusCode).toBe(200);
    expect((await sharp(image.rawPayload).metadata()).width).toBe(64);
    expect((await findTryOn(t.app.db, body.tryonId!))?.status).toBe('succeeded');
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(1);
    expect(uploadsLeft(t)).toEqual([]);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().checks.queue).toMatchObject({ status: 'ok', mode: 'redis', waiting: 0, active: 0 });
  });

  it('with WORKER_IN_PROCESS=true the API process runs the queued jobs itself', async () => {
    const engine = createEngineDouble();
    const t = await make(engine, { WORKER_IN_PROCESS: 'true' });
    const { cookie, user } = await signIn(t.app);
    const res = await tryOnRequest(t.app, cookie, user.id);
    expect(res.statusCode).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect((await findTryOn(t.app.db, body.tryonId!))?.status).toBe('succeeded');
    expect(engine.calls).toHaveLength(1);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('refunds when the engine in the worker refuses or fails, and answers its code and message', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('PERSON_NOT_FOUND') });
    const t = await make(engine);
    await startWorker(t, engine);
    const { cookie, user } = await signIn(t.app);

    const refused = await tryOnRequest(t.app, cookie, user.id);
    expectApiError(refused, 422, 'PERSON_NOT_FOUND', MESSAGES.personNotFound);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    const first = await latestTryOnId(t.app, user.id);
    expect(await findTryOn(t.app.db, first)).toMatchObject({ status: 'failed', error_code: 'PERSON_NOT_FOUND' });
    expect(await refundEvents(t.app, first)).toBe(1);

    engine.failWith = new Error('connection reset by /internal/secret-host:5432');
    const failed = await tryOnRequest(t.app, cookie, user.id);
    expectApiError(failed, 502, 'ENGINE_FAILED', MESSAGES.engineFailed);
    expect(failed.body).not.toMatch(/secret-host/);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('queues again a job Redis lost before any worker took it (restarted empty): the try-on completes, charged once', async () => {
    const engine = createEngineDouble();
    const t = await make(engine);
    const { cookie, user } = await signIn(t.app);
    const pending = tryOnRequest(t.app, cookie, user.id);
    // No worker yet: the job waits on the queue.
    await expect.poll(() => queueWaiting(t), { timeout: 5_000 }).toBe(1);

    // Redis comes back from a restart without its data.
    const wipe = new Redis(t.config.redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await wipe.connect();
    await wipe.flushdb();
    await wipe.quit();
    expect(await queueWaiting(t)).toBe(0);

    // The waiting API side notices within seconds and queues it again; a worker then runs it.
    await expect.poll(() => queueWaiting(t), { timeout: 10_000 }).toBe(1);
    // On the app's clock: the try-on was reserved at its time, and is not past its deadline.
    workers.push(await runWorker(t.config, { engines: { [engine.id]: engine }, clock: () => t.clock.now }));
    const res = await pending;
    expect(res.statusCode, res.body).toBe(200);
    const tryonId = TryOnResponseSchema.parse(res.json()).tryonId!;
    expect((await findTryOn(t.app.db, tryonId))?.status).toBe('succeeded');
    expect(engine.calls).toHaveLength(1);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(1);
    expect(await refundEvents(t.app, tryonId)).toBe(0);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('times out when no worker takes the job, refunds once, and a worker coming late changes nothing', async () => {
    const engine = createEngineDouble();
    const t = await make(engine, { ENGINE_DEADLINE_MS: '2000' });
    const { cookie, user } = await signIn(t.app);

    const pending = tryOnRequest(t.app, cookie, user.id);
    // While the API waits, the health check sees the job waiting.
    await expect.poll(() => queueWaiting(t), { timeout: 1_500 }).toBe(1);

    const res = await pending;
    expectApiError(res, 504, 'ENGINE_TIMEOUT', MESSAGES.engineTimeout);
    const tryonId = await latestTryOnId(t.app, user.id);
    expect(await findTryOn(t.app.db, tryonId)).toMatchObject({ status: 'failed', error_code: 'ENGINE_TIMEOUT' });
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    expect(await refundEvents(t.app, tryonId)).toBe(1);
    expect(uploadsLeft(t)).toEqual([]);

    // A worker starting now finds nothing to run (or a settled row): no engine call, no second refund.
    // A try-on queued after it started shows it at work: it has taken whatever was there before.
    await startWorker(t, engine);
    const later = await signIn(t.app);
    expect((await tryOnRequest(t.app, later.cookie, later.user.id, undefined, await jpeg(320, 480))).statusCode).toBe(
      200,
    );
    expect(await Promise.all(engine.calls.map(async (c) => (await sharp(c.person).metadata()).width))).toEqual([320]);
    expect(await findTryOn(t.app.db, tryonId)).toMatchObject({ status: 'failed' });
    expect(await refundEvents(t.app, tryonId)).toBe(1);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.checks.queue).toMatchObject({ status: 'ok', waiting: 0, active: 0 });
  });

  it('runs a whole outfit in a worker: the bottom is stored with the photos, two try-ons charged, two engine calls in order', async () => {
    const engine = createEngineDouble();
    const t = await make(engine);
    await startWorker(t, engine);
    const { cookie, user } = await signIn(t.app);
    const bottom = await png(280, 360, '#20a040');
    const res = await tryOnRequest(t.app, cookie, user.id, {
      data: bottom,
      filename: 'trousers.png',
      contentType: 'image/png',
    });
    expect(res.statusCode).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect(body).toMatchObject({ usedFreeTrial: true, creditsRemaining: 0, tryOnsUsed: 2, freeTrialsUsed: 2 });
    expect(engine.calls.map((c) => c.category)).toEqual(['lower_body', 'upper_body']);
    expect((await sharp(engine.calls[0]!.garment).metadata()).width).toBe(280);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(2);
    const rows = await t.app.db
      .selectFrom('tryons')
      .select(['status', 'bundle_of'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('an outfit failing in the worker gives both try-ons back and deletes all three uploads', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('ENGINE_FAILED') });
    const t = await make(engine);
    await startWorker(t, engine);
    const { cookie, user } = await signIn(t.app);
    const res = await tryOnRequest(t.app, cookie, user.id, {
      data: await png(280, 360, '#20a040'),
      contentType: 'image/png',
    });
    expect(res.statusCode).toBe(502);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    const rows = await t.app.db.selectFrom('tryons').select('status').where('user_id', '=', user.id).execute();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('gives priority-plan buyers a higher BullMQ priority: their waiting job runs first', async () => {
    const engine = createEngineDouble();
    // The app's clock is now: the worker, starting after the try-ons were reserved, sweeps try-ons
    // past their deadline by its own clock.
    const t = await build({
      engine,
      start: new Date(),
      env: { REDIS_URL: await freshRedisUrl(), ENGINE_CONCURRENCY: '1' },
    });
    const normal = await signIn(t.app);
    const paying = await signIn(t.app);
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/billing/demo/checkout',
      headers: { cookie: paying.cookie },
      payload: { planId: 'yearly' },
    });
    expect(bought.statusCode).toBe(200);

    // No worker yet: both jobs wait, the normal one first.
    const first = tryOnRequest(t.app, normal.cookie, normal.user.id, undefined, await jpeg(400, 600));
    await expect.poll(() => queueWaiting(t)).toBe(1);
    const second = tryOnRequest(t.app, paying.cookie, paying.user.id, undefined, await jpeg(320, 480));
    await expect.poll(() => queueWaiting(t)).toBe(2);

    const { Queue } = await import('bullmq');
    const queue = new Queue(TRYON_QUEUE_NAME, { connection: { url: t.config.redisUrl! } });
    try {
      const jobs = await queue.getJobs(['prioritized', 'waiting']);
      const byUser = Object.fromEntries(jobs.map((j) => [j.data.userId, j.opts.priority]));
      expect(byUser).toEqual({ [normal.user.id]: JOB_PRIORITY.normal, [paying.user.id]: JOB_PRIORITY.priority });
    } finally {
      await queue.close();
    }

    await startWorker(t, engine);
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const widths = await Promise.all(engine.calls.map(async (c) => (await sharp(c.person).metadata()).width));
    expect(widths).toEqual([320, 400]);
  });

  it('a job finishing after the API has refunded neither completes nor refunds again, and deletes its files', async () => {
    const engine = createEngineDouble({ held: true });
    const t = await make(engine);
    const { user } = await signIn(t.app);
    const reservation = await reserveTryOn(t.app.db, {
      userId: user.id,
      freeTrialsLimit: 2,
      category: 'upper_body',
      engine: engine.id,
      now: new Date(),
    });
    if (!reservation.ok) throw new Error('reservation failed');
    const tryonId = reservation.tryon.id;
    const person = { data: PERSON, mimeType: 'image/jpeg' as const, width: 480, height: 640 };
    const garment = { data: GARMENT, mimeType: 'image/png' as const, width: 300, height: 300 };
    const data = {
      tryonId,
      userId: user.id,
      personKey: newUploadKey(person),
      garmentKey: newUploadKey(garment),
      category: 'upper_body' as const,
      engine: engine.id,
      deadlineAt: Date.now() + 60_000,
    };
    await t.app.storage.put(data.personKey, PERSON, 'image/jpeg');
    await t.app.storage.put(data.garmentKey, GARMENT, 'image/png');
    expect(uploadsLeft(t)).toHaveLength(2);

    const job = processTryOnJob(
      { db: t.app.db, storage: t.app.storage, engines: createEngineRegistry(t.config, { [engine.id]: engine }) },
      data,
    );
    // The API gives up while the engine is still running; then the engine answers.
    await vi.waitFor(() => expect(engine.calls).toHaveLength(1));
    expect(await refundTryOn(t.app.db, { tryonId, errorCode: 'ENGINE_TIMEOUT' })).toBe(true);
    engine.release();

    expect(await job).toMatchObject({ ok: false, code: 'ENGINE_TIMEOUT' });
    expect(await findTryOn(t.app.db, tryonId)).toMatchObject({
      status: 'failed',
      error_code: 'ENGINE_TIMEOUT',
      result_name: null,
    });
    expect(await refundEvents(t.app, tryonId)).toBe(1);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    expect(uploadsLeft(t)).toEqual([]);
    const results = path.join(t.config.dataDir, 'files', 'results');
    expect(fs.existsSync(results) ? fs.readdirSync(results) : []).toEqual([]);
  });
});

describe.skipIf(!REDIS)('queue health and the worker command', () => {
  const make = testApps('sqlite');
  it('reports the queue down (503) when Redis cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (server.address() as net.AddressInfo).port;
        server.close(() => resolve(p));
      });
    });
    const t = await make({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe('down');
    expect(res.json().checks.queue).toEqual({ status: 'down', mode: 'redis' });

    // A try-on cannot be queued: refused at once (try again in a moment), before anything is
    // charged or stored.
    const { cookie, user } = await signIn(t.app);
    const started = Date.now();
    const tryOn = await tryOnRequest(t.app, cookie, user.id);
    expectApiError(tryOn, 503, 'SERVICE_UNAVAILABLE', MESSAGES.tryOnOutage);
    expect(tryOn.headers['retry-after']).toBeDefined();
    expect(Date.now() - started).toBeLessThan(t.config.engines.deadlineMs);
    expect((await findUserById(t.app.db, user.id))?.free_trials_used).toBe(0);
    expect(await t.app.db.selectFrom('tryons').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(uploadsLeft(t)).toEqual([]);
  });

  it('the worker refuses to start without REDIS_URL', () => {
    const worker = fileURLToPath(new URL('../worker.ts', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: '/nonexistent/never-created' };
    delete env.REDIS_URL;
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', worker], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/REDIS_URL is not set: the worker needs a queue/);
  });
});

describe.skipIf(!REDIS)('queued try-ons: progress across API processes, and the request id in the worker', () => {
  // After-hooks run last-registered first: the worker stops before the apps close.
  const make = testApps('sqlite');
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
  });

  it("relays the worker's stages to a stream held by another API process, and the worker's lines carry the post's request id", async () => {
    const engine = createEngineDouble({ delayMs: 300 });
    const apiLines: string[] = [];
    const env = { REDIS_URL: await freshRedisUrl(), LOG_LEVEL: 'info' };
    // API A takes the post; API B, on the same database and Redis, holds the stream.
    const a = await make({ engine, env, logStream: { write: (l) => void apiLines.push(l) } });
    const b = await make({
      engine,
      env: { ...env, LOG_LEVEL: 'silent' },
      dataDir: a.config.dataDir,
      progress: { heartbeatMs: 500 },
    });
    const workerLines: string[] = [];
    const log = createLogger({ logLevel: 'info' }, { stream: { write: (l) => void workerLines.push(l) } });
    workers.push(await runWorker(a.config, { engines: { [engine.id]: engine }, log }));
    const bBase = await b.app.listen({ port: 0, host: '127.0.0.1' });

    const { cookie, user } = await signIn(a.app);
    const progressId = randomUUID();
    const stream = await openStream(`${bBase}/api/tryon-progress/${progressId}`, cookie);
    expect(stream.status).toBe(200);

    const res = await postMultipart(
      a.app,
      '/api/process-image',
      {
        userImage: { data: PERSON },
        clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
        category: 'upper_body',
        userId: user.id,
        progressId,
      },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stream on API B did not end')), 10_000)),
    ]);
    expect(stream.events.map((e) => e.stage)).toEqual(['queued', 'reading', 'fitting', 'finishing', 'done']);
    for (const e of stream.events) expect(e.estimateSeconds).toEqual(ENGINE_ESTIMATE_SECONDS.local);
    // Another user on API B sees nothing of it.
    const other = await signIn(b.app);
    expect((await openStream(`${bBase}/api/tryon-progress/${progressId}`, other.cookie)).status).toBe(404);

    // One try-on's lines, followed from the API into the worker by the request id.
    const parsed = (lines: string[]) =>
      lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string; tryonId?: string; req?: { url: string } });
    const incoming = parsed(apiLines).find((l) => l.msg === 'incoming request' && l.req?.url === '/api/process-image');
    expect(incoming?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    const tryonId = TryOnResponseSchema.parse(res.json()).tryonId;
    const jobLines = parsed(workerLines).filter((l) => l.reqId === incoming!.reqId);
    expect(jobLines.map((l) => l.msg)).toEqual(expect.arrayContaining(['try-on job started', 'try-on job finished']));
    expect(jobLines.every((l) => l.tryonId === tryonId)).toBe(true);
  });
});
