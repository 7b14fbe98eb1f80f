import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import type { Database } from '../db/schema.js';
import type { DatabaseHandle } from '../db/database.js';
import { iso } from '../db/ids.js';
import { DATABASE_KINDS, openTestDatabase, tempDir } from '../test/databases.js';
import { createUser, findUserById } from '../repositories/users.js';
import { findTryOn, stageResult } from '../repositories/tryons.js';
import { grantCredits, reserveTryOn, balance } from '../ledger/ledger.js';
import { LocalDiskStorage } from '../storage/local-disk.js';
import { databaseOutage } from '../test/database-outage.js';
import { HEARTBEAT_MS, STALE_AFTER_MS, isGone, startProcess, type ProcessHandle } from './recovery.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
let seq = 0;

async function newUser(db: Kysely<Database>, credits = 0): Promise<string> {
  const user = await createUser(db, {
    deviceId: `device-recovery-${++seq}-${Math.random().toString(36).slice(2)}`,
    deviceInfo: { browser: 'Chrome', os: 'Linux' },
    signupIpHash: null,
    freeTrialsUsed: 2,
    freeTrialsWithheld: null,
    now: T0,
  });
  if (credits > 0)
    await grantCredits(db, {
      userId: user.id,
      source: 'demo',
      planId: null,
      amount: credits,
      expiresAt: null,
      externalRef: null,
      now: T0,
    });
  return user.id;
}

/** A pid that certainly belongs to no process any more. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

describe.each(DATABASE_KINDS)('crash recovery on %s', (kind) => {
  const handles: DatabaseHandle[] = [];
  const processes: ProcessHandle[] = [];
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await Promise.all(handles.map((h) => h.close()));
  });

  async function setup() {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    const storage = new LocalDiskStorage(path.join(tempDir(), 'files'));
    const clock = { now: T0 };
    const deps = { db: handle.db, storage, clock: () => clock.now, deadlineMs: 100_000 };
    const start = async (sweep = false) => {
      const p = await startProcess(deps, 'api', { sweep });
      processes.push(p);
      return p;
    };
    return { db: handle.db, storage, clock, deps, start };
  }

  const reserve = (db: Kysely<Database>, userId: string, ownerId: string | null, now = T0) =>
    reserveTryOn(db, { userId, freeTrialsLimit: 2, category: 'upper_body', engine: 'test', now, ownerId });

  it('at start-up settles at once the try-ons of a process that is gone: refunded, or completed when the result was stored', async () => {
    const { db, storage, start } = await setup();
    const userId = await newUser(db, 8);
    const crashed = await start();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await reserve(db, userId, crashed.id);
      if (!r.ok) throw new Error('reservation failed');
      ids.push(r.tryon.id);
    }
    // One had its result stored just before the crash; one had only named it.
    await stageResult(db, ids[0]!, `${'A'.repeat(43)}.png`);
    await storage.put(`results/${'A'.repeat(43)}.png`, Buffer.from('png'), 'image/png');
    await stageResult(db, ids[1]!, `${'B'.repeat(43)}.png`);
    expect(await balance(db, userId, T0)).toBe(5);

    // The crashed process's pid is gone (kill -9): its row stays, with a fresh heartbeat.
    await db.updateTable('processes').set({ pid: deadPid() }).where('id', '=', crashed.id).execute();
    const restarted = await start();
    expect(restarted.id).not.toBe(crashed.id);

    expect(await findTryOn(db, ids[0]!)).toMatchObject({
      status: 'succeeded',
      result_name: `${'A'.repeat(43)}.png`,
      staged_result: null,
    });
    expect(await findTryOn(db, ids[1]!)).toMatchObject({ status: 'failed', error_code: 'ENGINE_FAILED' });
    expect(await findTryOn(db, ids[2]!)).toMatchObject({ status: 'failed', error_code: 'ENGINE_FAILED' });
    expect(await balance(db, userId, T0)).toBe(7);
    expect(
      await db.selectFrom('processes').select('id').where('id', '=', crashed.id).executeTakeFirst(),
    ).toBeUndefined();
    const refunds = await db.selectFrom('credit_events').select('tryon_id').where('type', '=', 'refund').execute();
    expect(refunds.map((r) => r.tryon_id).sort()).toEqual([ids[1], ids[2]].sort());
  });

  it('leaves a live process alone, settles a stopped one, and takes a silent one for dead after its heartbeat goes stale', async () => {
    const { db, start } = await setup();
    const userId = await newUser(db, 6);
    const live = await start();
    const stopping = await start();
    const silent = await start();
    const mine = await reserve(db, userId, live.id);
    const stopped = await reserve(db, userId, stopping.id);
    const quiet = await reserve(db, userId, silent.id);
    if (!mine.ok || !stopped.ok || !quiet.ok) throw new Error('reservation failed');

    await stopping.stop();
    await live.sweep();
    expect((await findTryOn(db, stopped.tryon.id))?.status).toBe('failed');
    expect((await findTryOn(db, mine.tryon.id))?.status).toBe('processing');
    expect((await findTryOn(db, quiet.tryon.id))?.status).toBe('processing');

    await db
      .updateTable('processes')
      .set({ heartbeat_at: iso(new Date(Date.now() - STALE_AFTER_MS - 1000)) })
      .where('id', '=', silent.id)
      .execute();
    await live.sweep();
    expect((await findTryOn(db, quiet.tryon.id))?.status).toBe('failed');
    expect((await findTryOn(db, mine.tryon.id))?.status).toBe('processing');
    expect(await balance(db, userId, T0)).toBe(5);
  });

  it('the periodic sweep refunds a try-on past its deadline whoever owns it, once', async () => {
    const { db, clock, start } = await setup();
    const userId = await newUser(db, 2);
    const self = await start();
    const old = await reserve(db, userId, self.id, T0);
    const legacy = await reserve(db, userId, null, T0);
    if (!old.ok || !legacy.ok) throw new Error('reservation failed');
    clock.now = new Date(T0.getTime() + 60_000);
    expect(await self.sweep()).toMatchObject({ pastDeadline: 0 });
    clock.now = new Date(T0.getTime() + 110_000);
    expect(await self.sweep()).toMatchObject({ pastDeadline: 2 });
    expect(await self.sweep()).toMatchObject({ pastDeadline: 0 });
    expect(await balance(db, userId, T0)).toBe(2);
    expect((await findUserById(db, userId))?.free_trials_used).toBe(2);
  });

  it('sweeps on its own schedule with sweep on, and keeps its heartbeat fresh either way', async () => {
    // The schedule is an interval: the test moves it on instead of waiting for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { db, start } = await setup();
      const userId = await newUser(db, 1);
      const a = await start(true);
      const b = await start(false);
      const heartbeat = async () =>
        (await db.selectFrom('processes').select('heartbeat_at').where('id', '=', b.id).executeTakeFirstOrThrow())
          .heartbeat_at;
      const before = await heartbeat();
      const crashed = await reserve(db, userId, 'no-such-process');
      if (!crashed.ok) throw new Error('reservation failed');
      // Nothing settles it before the schedule comes round.
      expect((await findTryOn(db, crashed.tryon.id))?.status).toBe('processing');
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      // The sweep and the heartbeat it started write to the database: wait for them.
      await expect.poll(async () => (await findTryOn(db, crashed.tryon.id))?.status).toBe('failed');
      await expect.poll(heartbeat).not.toBe(before);
      expect((await heartbeat()) > before).toBe(true);
      expect(a.id).not.toBe(b.id);
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.each(DATABASE_KINDS)('crash recovery while the database is away, on %s', (kind) => {
  const handles: DatabaseHandle[] = [];
  const processes: ProcessHandle[] = [];
  afterAll(async () => {
    for (const p of processes) await p.stop();
    await Promise.all(handles.map((h) => h.close()));
  });

  async function setup() {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    const storage = new LocalDiskStorage(path.join(tempDir(), 'files'));
    const deps = { db: handle.db, storage, clock: () => T0, deadlineMs: 100_000 };
    const away = databaseOutage();
    return { db: handle.db, deps, away, flaky: handle.db.withPlugin(away) };
  }

  it('takes nobody for dead by an old heartbeat until every process had time to beat again after the database came back', async () => {
    const { db, deps, away, flaky } = await setup();
    const userId = await newUser(db, 1);
    const watcher = await startProcess({ ...deps, db: flaky }, 'api', { sweep: false });
    const other = await startProcess(deps, 'worker', { sweep: false });
    processes.push(watcher, other);
    const running = await reserveTryOn(db, {
      userId,
      freeTrialsLimit: 2,
      category: 'upper_body',
      engine: 'test',
      now: T0,
      ownerId: other.id,
    });
    if (!running.ok) throw new Error('reservation failed');

    // The database restarts: nobody can beat meanwhile, so when it is back every heartbeat is old.
    away.down = true;
    await expect(watcher.sweep()).rejects.toThrow('ECONNREFUSED');
    away.down = false;
    const old = iso(new Date(Date.now() - STALE_AFTER_MS - 1_000));
    await db.updateTable('processes').set({ heartbeat_at: old }).where('id', '=', other.id).execute();
    await watcher.sweep();
    expect((await findTryOn(db, running.tryon.id))?.status).toBe('processing');

    // Once every process had STALE_AFTER_MS to beat again, a heartbeat still that old means gone.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + STALE_AFTER_MS + 1 });
    try {
      await db.updateTable('processes').set({ heartbeat_at: old }).where('id', '=', other.id).execute();
      await watcher.sweep();
    } finally {
      vi.useRealTimers();
    }
    expect((await findTryOn(db, running.tryon.id))?.status).toBe('failed');
    expect(await balance(db, userId, T0)).toBe(1);
  });

  it('logs a heartbeat that fails and keeps beating: the process lives on', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { deps, away, flaky } = await setup();
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      // A real pino logger: its methods need their logger as `this`.
      const log = pino({ level: 'warn' }, sink);
      const p = await startProcess({ ...deps, db: flaky, log }, 'api', { sweep: true });
      processes.push(p);
      away.down = true;
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      await expect.poll(() => lines.join('')).toContain('recovery heartbeat or sweep failed');
      away.down = false;
      const beatAt = async () =>
        (await deps.db.selectFrom('processes').select('heartbeat_at').where('id', '=', p.id).executeTakeFirstOrThrow())
          .heartbeat_at;
      const before = await beatAt();
      // The next heartbeat's time can differ from this one's only once the clock has moved on.
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(before)));
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      await expect.poll(beatAt).not.toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isGone', () => {
  const now = Date.now();
  const row = (over: Partial<{ id: string; host: string; pid: number; started_at: string; heartbeat_at: string }>) => ({
    id: 'other',
    host: 'elsewhere',
    pid: 1,
    started_at: iso(new Date(now - 60_000)),
    heartbeat_at: iso(new Date(now - 1_000)),
    ...over,
  });
  it('trusts a fresh heartbeat from another machine and not a stale one', () => {
    expect(isGone(row({}), 'me', now)).toBe(false);
    expect(isGone(row({ heartbeat_at: iso(new Date(now - STALE_AFTER_MS - 1)) }), 'me', now)).toBe(true);
  });
  it('never takes itself for dead', () => {
    expect(isGone(row({ id: 'me', heartbeat_at: iso(new Date(0)) }), 'me', now)).toBe(false);
  });
  it('judges no heartbeat while heartbeats tell nothing (the database was away), only a missing pid', () => {
    expect(isGone(row({ heartbeat_at: iso(new Date(now - STALE_AFTER_MS - 1)) }), 'me', now, false)).toBe(false);
  });
});
