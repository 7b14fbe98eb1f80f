import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { scheduleRetention, type RetentionDeps } from '../services/retention.js';
import { closeRedis, connectRedis, type Redis } from './client.js';
import { LockUnavailableError, redisRunLock } from './lock.js';

const REDIS = redisServerAvailable();
/** A stand-in for the retention run: work that takes `ms`, so that runs could overlap. */
const work = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(REDIS)('a lock on Redis shared by several processes', () => {
  let redis: TestRedis;
  const clients: Redis[] = [];
  const client = async (url = redis.url) => {
    const c = await connectRedis(url);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => closeRedis(c)));
    await redis?.stop();
  });

  it('lets one holder run at a time and frees the lock afterwards', async () => {
    const a = redisRunLock(await client(), { prefix: 't1:' });
    const b = redisRunLock(await client(), { prefix: 't1:' });
    const order: string[] = [];
    let release!: () => void;
    const holding = a.runExclusive('job', async () => {
      order.push('a start');
      await new Promise<void>((r) => (release = r));
      order.push('a end');
    });
    // a holds the lock once its work has started
    await vi.waitFor(() => expect(order).toEqual(['a start']));
    expect(await b.runExclusive('job', async () => order.push('b ran'))).toBe(false);
    // Another name is another lock.
    expect(await b.runExclusive('other-job', async () => order.push('b other'))).toBe(true);
    release();
    expect(await holding).toBe(true);
    expect(await b.runExclusive('job', async () => order.push('b ran'))).toBe(true);
    expect(order).toEqual(['a start', 'b other', 'a end', 'b ran']);
  });

  it('keeps the lock past its time to live while the work runs, and lets it expire when the holder dies', async () => {
    const c = await client();
    const a = redisRunLock(c, { prefix: 't2:', ttlMs: 90 });
    const b = redisRunLock(await client(), { prefix: 't2:', ttlMs: 90 });
    // The holder renews its key every ttl/3 (30 ms): count the renewals it sends.
    const evals = vi.spyOn(c, 'eval');
    const renewals = () => evals.mock.calls.filter((args) => String(args[0]).includes('PEXPIRE')).length;
    let bRan = false;
    let heldFor = 0;
    await a.runExclusive('job', async () => {
      const started = performance.now();
      // Six renewals: the work has run at least twice the time to live.
      await vi.waitFor(() => expect(renewals()).toBeGreaterThanOrEqual(6), { timeout: 5_000 });
      heldFor = performance.now() - started;
      bRan = await b.runExclusive('job', async () => undefined);
    });
    expect(heldFor).toBeGreaterThan(90);
    expect(bRan).toBe(false);
    evals.mockRestore();
    // A holder that died: its key stays only until the time to live passes.
    await c.set('t2:job', 'dead-holder', 'PX', 90);
    expect(await b.runExclusive('job', async () => undefined)).toBe(false);
    await vi.waitFor(async () => expect(await c.exists('t2:job')).toBe(0), { timeout: 5_000 });
    expect(await b.runExclusive('job', async () => undefined)).toBe(true);
  });

  it('runs retention on one instance at a time; without Redis each runs its own', async () => {
    const deps = {} as RetentionDeps;
    const measure = async (locks: (ReturnType<typeof redisRunLock> | undefined)[]) => {
      let active = 0;
      let most = 0;
      let runs = 0;
      const run = async () => {
        active++;
        most = Math.max(most, active);
        await work(80);
        active--;
        runs++;
      };
      const stops = locks.map((lock) =>
        scheduleRetention(deps, 20, { firstRunAfterMs: 0, run, ...(lock ? { lock } : {}) }),
      );
      // Enough runs for two schedules to have overlapped, had nothing kept them apart.
      await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
      stops.forEach((stop) => stop());
      // the runs under way finish
      await vi.waitFor(() => expect(active).toBe(0), { timeout: 5_000 });
      return { most, runs };
    };
    const shared = await measure([
      redisRunLock(await client(), { prefix: 't3:' }),
      redisRunLock(await client(), { prefix: 't3:' }),
    ]);
    expect(shared.most).toBe(1);
    expect(shared.runs).toBeGreaterThanOrEqual(3);
    const apart = await measure([undefined, undefined]);
    expect(apart.most).toBe(2);
  });

  it('runs retention anyway when Redis cannot be reached (it is safe to run twice)', async () => {
    const gone = await startRedis();
    const c = await client(gone.url);
    await gone.stop();
    const lock = redisRunLock(c, { prefix: 't4:' });
    await expect(lock.runExclusive('job', async () => undefined)).rejects.toBeInstanceOf(LockUnavailableError);
    let runs = 0;
    const warnings: string[] = [];
    const log = {
      warn: (_o: object, msg: string) => warnings.push(msg),
      debug: () => undefined,
      error: () => undefined,
    } as unknown as RetentionDeps['log'];
    const stop = scheduleRetention({ log } as RetentionDeps, 10_000, {
      firstRunAfterMs: 0,
      lock,
      run: async () => void runs++,
    });
    await vi.waitFor(() => expect(runs).toBe(1));
    stop();
    expect(runs).toBe(1);
    expect(warnings).toEqual(['retention: lock unavailable, running without it']);
  });
});
