/**
 * The try-on line shared through Redis: two lines on one redis-server stand for two API processes.
 * First come first served across them, the workers' slots as capacity, bounded length with a
 * ticket that keeps the place in either process, leaving, and place updates relayed to the other
 * process's progress hub.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { redisServerAvailable, startRedis, type TestRedis } from '../../test/redis.js';
import type { AdmissionLine, JoinResult, LineEntry } from './admission.js';
import { announceWorkerSlots, createRedisLine } from './redis-line.js';
import { ProgressHub, createProgressReporter } from '../progress.js';

const REDIS = redisServerAvailable();
let redis: TestRedis | undefined;
beforeAll(async () => {
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

let n = 0;
let lastPrefix = '';
async function processes(
  count: number,
  opts: {
    slots: number;
    maxWaiting?: number;
    hubs?: ProgressHub[];
    perUser?: number;
    perAddress?: number;
    fallbackCapacity?: number;
  },
) {
  const prefix = `test-line-${process.pid}-${++n}:`;
  lastPrefix = prefix;
  const lines: AdmissionLine[] = [];
  for (let i = 0; i < count; i++) {
    const l = await createRedisLine({
      redisUrl: redis!.url,
      prefix,
      maxWaiting: opts.maxWaiting ?? 10,
      maxWaitMs: 60_000,
      ticketGraceMs: 30_000,
      maxTicketsPerUser: opts.perUser ?? 100,
      maxTicketsPerAddress: opts.perAddress ?? 100,
      fallbackCapacity: opts.fallbackCapacity ?? 1,
      progress: opts.hubs?.[i],
    });
    lines.push(l);
    closers.push(() => l.close());
  }
  if (opts.slots > 0) {
    const worker = await announceWorkerSlots({
      redisUrl: redis!.url,
      workerId: 'worker-1',
      slots: opts.slots,
      pool: 'tryon',
      prefix,
    });
    closers.push(() => worker.stop());
  }
  return lines;
}

const join = (l: AdmissionLine, userId: string, ticket?: string, address = `addr-${userId}`) =>
  l.join({ pool: 'tryon', userId, address, priority: false, ticket, typicalSeconds: 1 });

function entryOf(r: JoinResult): LineEntry {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.busy)}`);
  return r.entry;
}

describe.skipIf(!REDIS)('the try-on line shared through Redis', () => {
  it('admits first come, first served across API processes, no more than the workers’ slots', async () => {
    const [one, two] = await processes(2, { slots: 1 });
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const log: string[] = [];
    const places: Record<string, number[]> = { b: [], c: [], d: [] };
    const wait = (e: LineEntry, name: string) =>
      e.wait({ onPlace: (p) => places[name]!.push(p.place) }).then((o) => {
        log.push(`${name}:${o}`);
        return e;
      });
    const b = wait(entryOf(await join(two!, 'b')), 'b');
    const c = wait(entryOf(await join(one!, 'c')), 'c');
    const d = wait(entryOf(await join(two!, 'd')), 'd');
    // Each has heard its place; then a round of both processes (what a tick does) lets nobody in: one slot, taken.
    await expect.poll(() => [places.b!.at(-1), places.c!.at(-1), places.d!.at(-1)]).toEqual([1, 2, 3]);
    await one!.refresh!();
    await two!.refresh!();
    expect(log).toEqual([]);
    expect(await one!.waiting('tryon')).toBe(3);

    await a.leave();
    await (await b).leave();
    await (await c).leave();
    await d;
    expect(log).toEqual(['b:admitted', 'c:admitted', 'd:admitted']);
  });

  it('refuses past the held limit with a ticket that keeps the place in any process; another’s ticket is not honoured', async () => {
    const [one, two] = await processes(2, { slots: 1, maxWaiting: 1 });
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const b = entryOf(await join(one!, 'b'));
    const bWait = b.wait({});
    const c = await join(two!, 'c');
    const d = await join(one!, 'd');
    if (c.ok || d.ok) throw new Error('c and d should have been refused');
    expect([c.busy.place, d.busy.place]).toEqual([2, 3]);
    expect(c.busy.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(c.busy.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    const stolen = await join(two!, 'mallory', c.busy.ticket);
    if (stolen.ok) throw new Error('mallory should have been refused');
    expect(stolen.busy.place).toBe(4);

    await a.leave();
    expect(await bWait).toBe('admitted');
    // d back first (held), then c with its ticket in the other process: c takes the held place.
    const dBack = entryOf(await join(one!, 'd', d.busy.ticket));
    const dWait = dBack.wait({});
    const cBack = entryOf(await join(two!, 'c', c.busy.ticket));
    const cWait = cBack.wait({});
    expect(await dWait).toBe('timeout');
    const dAgain = await dBack.stepOut();
    expect(dAgain).toMatchObject({ ticket: d.busy.ticket, place: 2 });
    await b.leave();
    expect(await cWait).toBe('admitted');
    await cBack.leave();
  });

  it('a shopper who leaves gives up the place; the one behind moves up', async () => {
    const [one, two] = await processes(2, { slots: 1 });
    const a = entryOf(await join(one!, 'a'));
    await a.wait({});
    const ctrl = new AbortController();
    const b = entryOf(await join(one!, 'b'));
    const bWait = b.wait({ signal: ctrl.signal });
    const places: number[] = [];
    const c = entryOf(await join(two!, 'c'));
    const cWait = c.wait({ onPlace: (p) => places.push(p.place) });
    await expect.poll(() => places.at(-1)).toBe(2);
    ctrl.abort();
    expect(await bWait).toBe('aborted');
    await expect.poll(() => places.at(-1), { timeout: 3_000 }).toBe(1);
    await a.leave();
    expect(await cWait).toBe('admitted');
    await c.leave();
  });

  it('before any worker announced its slots, everyone is admitted (the queue holds them as before)', async () => {
    const [one] = await processes(1, { slots: 0 });
    const entries = await Promise.all(['a', 'b', 'c'].map(async (u) => entryOf(await join(one!, u))));
    expect(await Promise.all(entries.map((e) => e.wait({})))).toEqual(['admitted', 'admitted', 'admitted']);
  });

  it('a place in line reaches the progress stream held by the other API process', async () => {
    const hubs = [new ProgressHub(), new ProgressHub()];
    const [one] = await processes(2, { slots: 1, hubs });
    const progressId = '3b241101-e2bb-4255-8caf-4136c566a962';
    const seen: (number | undefined)[] = [];
    const sub = hubs[1]!.subscribe(progressId, 'u1', (e) => seen.push(e.place));
    expect(sub.ok).toBe(true);
    const reporter = createProgressReporter(hubs[0]!, {
      progressId,
      userId: 'u1',
      engineId: 'local',
      relay: one!.relayProgress,
    });
    reporter.reportPlace({ place: 4, waitSeconds: 3 });
    reporter.reportPlace({ place: 3, waitSeconds: 2 });
    await expect.poll(() => seen, { timeout: 3_000 }).toEqual([4, 3]);
  });

  it('leaving while a tick admitting the ticket is already on its way frees the slot at once', async () => {
    const [one] = await processes(1, { slots: 1 });
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const b = entryOf(await join(one!, 'b'));
    // A tick (of any process) let b in just now: its ticket holds the slot in Redis, but this
    // process has not heard the answer yet when the shopper leaves.
    const client = new Redis(redis!.url);
    closers.push(async () => void (await client.quit()));
    const key = (k: string) => `${lastPrefix}tryon:${k}`;
    // (As the tick does: out of the line, into the running set.)
    await client.zrem(key('order'), b.ticket);
    await client.zrem(key('present'), b.ticket);
    await client.zadd(key('running'), Date.now() + 15_000, b.ticket);
    await b.leave();
    expect(await client.zrange(key('running'), 0, -1)).toEqual([a.ticket]);
    // a's slot, once freed, goes to the next one.
    await a.leave();
    const c = entryOf(await join(one!, 'c'));
    expect(await c.wait({})).toBe('admitted');
    await c.leave();
  });

  it('holds at most a few tickets per shopper across API processes, and per client address', async () => {
    const [one, two] = await processes(2, { slots: 1, maxWaiting: 0, perUser: 2, perAddress: 3 });
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const tickets: string[] = [];
    for (const l of [one!, two!, one!, two!]) {
      const r = await join(l, 'greedy', undefined, `10.0.0.${tickets.length}`);
      if (r.ok) throw new Error('nobody is held');
      tickets.push(r.busy.ticket);
    }
    // Two tickets, then the shopper's own earliest place again.
    expect(new Set(tickets).size).toBe(2);
    expect(tickets.slice(2)).toEqual([tickets[0], tickets[0]]);
    const snap = await one!.snapshot('tryon');
    expect(snap.tickets.filter((t) => t.userId === 'greedy')).toHaveLength(2);

    const fromOneAddress = [];
    for (let i = 0; i < 5; i++) {
      const r = await join(i % 2 ? one! : two!, `u${i}`, undefined, '198.51.100.9');
      if (r.ok) throw new Error('nobody is held');
      fromOneAddress.push(r.busy.ticket);
    }
    expect(fromOneAddress.slice(0, 3).every((t) => t !== '')).toBe(true);
    expect(fromOneAddress.slice(3)).toEqual(['', '']);
    await a.leave();
  });

  it('when Redis fails in JOIN, falls back to this process’s own bound instead of admitting everyone', async () => {
    const [one] = await processes(1, { slots: 1, maxWaiting: 1, fallbackCapacity: 1 });
    // The line's keys hold something else: every script on them fails.
    const client = new Redis(redis!.url);
    closers.push(async () => void (await client.quit()));
    await client.set(`${lastPrefix}tryon:order`, 'not a sorted set');
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const b = entryOf(await join(one!, 'b'));
    const log: string[] = [];
    const bWait = b.wait({}).then((o) => log.push(`b:${o}`));
    const c = await join(one!, 'c');
    expect(c.ok).toBe(false);
    // This process's own line lets in as it changes (the join above): nothing more is on its way.
    await one!.refresh!();
    expect(log).toEqual([]);
    await a.leave();
    await bWait;
    expect(log).toEqual(['b:admitted']);
    await b.leave();
  });

  it('a ticket holder who leaves while away gives the place up in every process', async () => {
    const [one, two] = await processes(2, { slots: 1, maxWaiting: 0 });
    const a = entryOf(await join(one!, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const b = await join(one!, 'b');
    const c = await join(two!, 'c');
    if (b.ok || c.ok) throw new Error('b and c should wait away');
    expect(await two!.leaveTicket({ pool: 'tryon', ticket: b.busy.ticket, userId: 'mallory' })).toBe(false);
    expect(await two!.leaveTicket({ pool: 'tryon', ticket: b.busy.ticket, userId: 'b' })).toBe(true);
    expect((await one!.snapshot('tryon')).tickets.map((t) => t.ticket)).toEqual([c.busy.ticket]);
    await a.leave();
    // c, now first, is let in at once when back (no slot kept for b).
    const cBack = entryOf(await join(two!, 'c', c.busy.ticket));
    expect(await cBack.wait({})).toBe('admitted');
    await cBack.leave();
  });
});
