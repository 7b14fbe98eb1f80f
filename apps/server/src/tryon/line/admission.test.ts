/** The in-memory try-on line: first come first served, places and expected waits, bounded length and wait, tickets, leaving. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryLine,
  expectedWaitSeconds,
  retryAfterFor,
  type AdmissionLine,
  type JoinResult,
  type LineEntry,
  type LinePlace,
  type WaitOutcome,
} from './admission.js';

const lines: AdmissionLine[] = [];
afterEach(async () => {
  await Promise.all(lines.splice(0).map((l) => l.close()));
});

function line(
  opts: {
    capacity?: number;
    maxWaiting?: number;
    maxWaitMs?: number;
    graceMs?: number;
    perUser?: number;
    perAddress?: number;
  } = {},
) {
  const l = createMemoryLine({
    capacity: () => opts.capacity ?? 1,
    maxWaiting: opts.maxWaiting ?? 10,
    maxWaitMs: opts.maxWaitMs ?? 60_000,
    ticketGraceMs: opts.graceMs ?? 30_000,
    maxTicketsPerUser: opts.perUser ?? 100,
    maxTicketsPerAddress: opts.perAddress ?? 100,
  });
  lines.push(l);
  return l;
}

const join = (
  l: AdmissionLine,
  userId: string,
  extra: { ticket?: string; priority?: boolean; address?: string; pool?: string } = {},
) =>
  l.join({
    pool: extra.pool ?? 'local',
    userId,
    address: extra.address ?? `addr-${userId}`,
    priority: extra.priority ?? false,
    ticket: extra.ticket,
    typicalSeconds: 2,
  });

function entryOf(r: JoinResult): LineEntry {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.busy)}`);
  return r.entry;
}

/** Waits in line, recording each place heard and when the wait ended. */
function waiting(entry: LineEntry, log: string[], name: string, signal?: AbortSignal) {
  const places: LinePlace[] = [];
  const outcome = entry.wait({ signal, onPlace: (p) => places.push(p) }).then((o: WaitOutcome) => {
    log.push(`${name}:${o}`);
    return o;
  });
  return { places, outcome };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the in-memory try-on line', () => {
  it('admits first come, first served: a slot goes to the one who waited longest', async () => {
    const l = line({ capacity: 1 });
    const a = entryOf(await join(l, 'a'));
    expect(await a.wait({})).toBe('admitted');
    const log: string[] = [];
    const b = waiting(entryOf(await join(l, 'b')), log, 'b');
    const c = waiting(entryOf(await join(l, 'c')), log, 'c');
    const d = waiting(entryOf(await join(l, 'd')), log, 'd');
    await tick();
    expect(log).toEqual([]);
    expect(await l.waiting('local')).toBe(3);
    expect([b.places.at(-1)?.place, c.places.at(-1)?.place, d.places.at(-1)?.place]).toEqual([1, 2, 3]);

    await a.leave();
    await b.outcome;
    expect(log).toEqual(['b:admitted']);
    // Everyone behind moved up one.
    expect([c.places.at(-1)?.place, d.places.at(-1)?.place]).toEqual([1, 2]);
    await entryOf(await join(l, 'b')).leave(); // an unrelated newcomer who gives up at once changes nothing
    await tick();
    expect(log).toEqual(['b:admitted']);
  });

  it('tells the place and the expected wait: place × recent try-on time ÷ slots', async () => {
    expect(expectedWaitSeconds(12, 2_000, 2)).toBe(12);
    expect(expectedWaitSeconds(3, 900, 2)).toBe(2);
    expect(expectedWaitSeconds(1, 0, 1)).toBe(0);
    const l = line({ capacity: 2 });
    entryOf(await join(l, 'a'));
    entryOf(await join(l, 'b'));
    const log: string[] = [];
    const c = waiting(entryOf(await join(l, 'c')), log, 'c');
    const d = waiting(entryOf(await join(l, 'd')), log, 'd');
    // Typical 2 s a try-on, 2 slots: the first waiting starts in about 1 s, the second in about 2 s.
    expect(c.places).toEqual([{ place: 1, waitSeconds: 1 }]);
    expect(d.places).toEqual([{ place: 2, waitSeconds: 2 }]);
  });

  it('holds at most maxWaiting; the next is refused at once with its place, a ticket and Retry-After', async () => {
    const l = line({ capacity: 1, maxWaiting: 2 });
    entryOf(await join(l, 'a'));
    entryOf(await join(l, 'b'));
    entryOf(await join(l, 'c'));
    const refused = await join(l, 'd');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.busy).toMatchObject({ place: 3, waitSeconds: 6 });
    expect(refused.busy.ticket).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(refused.busy.retryAfterSeconds).toBe(retryAfterFor(3, 2, 2_000, 1));
    expect(refused.busy.retryAfterSeconds).toBe(2);
    expect(await l.waiting('local')).toBe(2);
  });

  it('a ticket keeps the place: back, its holder goes before a newcomer who was held meanwhile', async () => {
    const l = line({ capacity: 1, maxWaiting: 1 });
    const a = entryOf(await join(l, 'a'));
    const log: string[] = [];
    const bEntry = entryOf(await join(l, 'b'));
    const b = waiting(bEntry, log, 'b');
    const c = await join(l, 'c');
    const d = await join(l, 'd');
    if (c.ok || d.ok) throw new Error('c and d should have been refused');
    expect([c.busy.place, d.busy.place]).toEqual([2, 3]);

    await a.leave();
    expect(await b.outcome).toBe('admitted');
    // d comes back first and is held (c is away)...
    const dBack = entryOf(await join(l, 'd', { ticket: d.busy.ticket }));
    expect(dBack.ticket).toBe(d.busy.ticket);
    const dWait = waiting(dBack, log, 'd');
    // ...then c comes back to a full line: being ahead, c takes the held place and d steps out.
    const cBack = entryOf(await join(l, 'c', { ticket: c.busy.ticket }));
    const cWait = waiting(cBack, log, 'c');
    expect(await dWait.outcome).toBe('timeout');
    const dAgain = await dBack.stepOut();
    expect(dAgain.ticket).toBe(d.busy.ticket);
    expect(dAgain.place).toBe(2);
    expect(cWait.places.at(-1)?.place).toBe(1);

    // The slot b frees goes to c, not d.
    await bEntry.leave();
    expect(await cWait.outcome).toBe('admitted');
    expect(log).toEqual(['b:admitted', 'd:timeout', 'c:admitted']);
  });

  it('another shopper’s ticket is not honoured: it joins at the back', async () => {
    const l = line({ capacity: 1, maxWaiting: 0 });
    entryOf(await join(l, 'a'));
    const b = await join(l, 'b');
    if (b.ok) throw new Error('b should have been refused');
    const stolen = await join(l, 'mallory', { ticket: b.busy.ticket });
    if (stolen.ok) throw new Error('refused too');
    expect(stolen.busy.ticket).not.toBe(b.busy.ticket);
    expect(stolen.busy.place).toBe(2);
  });

  it('the longest wait passes: the ticket steps out keeping its place (Retry-After 1 s)', async () => {
    const l = line({ capacity: 1, maxWaitMs: 30 });
    entryOf(await join(l, 'a'));
    const b = entryOf(await join(l, 'b'));
    expect(await b.wait({})).toBe('timeout');
    const busy = await b.stepOut();
    expect(busy).toMatchObject({ ticket: b.ticket, place: 1, retryAfterSeconds: 1 });
    expect(await l.waiting('local')).toBe(0);
    // Back with the ticket: still first.
    const c = entryOf(await join(l, 'c'));
    const back = entryOf(await join(l, 'b', { ticket: b.ticket }));
    const log: string[] = [];
    const cw = waiting(c, log, 'c');
    const bw = waiting(back, log, 'b');
    expect(bw.places[0]?.place).toBe(1);
    expect(cw.places.at(-1)?.place).toBe(2);
  });

  it('keeps a freed slot for a ticket holder ahead who is due back, instead of giving it to someone behind', async () => {
    const l = line({ capacity: 1, maxWaitMs: 30 });
    const a = entryOf(await join(l, 'a'));
    const b = entryOf(await join(l, 'b'));
    expect(await b.wait({})).toBe('timeout');
    const busy = await b.stepOut();
    const log: string[] = [];
    const c = waiting(entryOf(await join(l, 'c')), log, 'c');
    await a.leave();
    await tick();
    expect(log).toEqual([]); // c, behind b, does not take the slot while b is due back
    const back = entryOf(await join(l, 'b', { ticket: busy.ticket }));
    expect(await back.wait({})).toBe('admitted');
    await back.leave();
    expect(await c.outcome).toBe('admitted');
  });

  it('leaving (the shopper cancels) gives up the place: nothing held, everyone behind moves up', async () => {
    const l = line({ capacity: 1 });
    entryOf(await join(l, 'a'));
    const log: string[] = [];
    const ctrl = new AbortController();
    const b = waiting(entryOf(await join(l, 'b')), log, 'b', ctrl.signal);
    const c = waiting(entryOf(await join(l, 'c')), log, 'c');
    expect(c.places.at(-1)?.place).toBe(2);
    ctrl.abort();
    expect(await b.outcome).toBe('aborted');
    await tick();
    expect(c.places.at(-1)?.place).toBe(1);
    expect(await l.waiting('local')).toBe(1);
  });

  it('the priority lane (a plan with priority processing) goes first; each lane in order', async () => {
    const l = line({ capacity: 1 });
    const a = entryOf(await join(l, 'a'));
    const log: string[] = [];
    const n1 = waiting(entryOf(await join(l, 'n1')), log, 'n1');
    const p1 = waiting(entryOf(await join(l, 'p1', { priority: true })), log, 'p1');
    const n2 = waiting(entryOf(await join(l, 'n2')), log, 'n2');
    expect([p1.places.at(-1)?.place, n1.places.at(-1)?.place, n2.places.at(-1)?.place]).toEqual([1, 2, 3]);
    await a.leave();
    await p1.outcome;
    expect(log).toEqual(['p1:admitted']);
  });

  it('a newcomer bumped by a returning ticket keeps its ticket and comes back to its place', async () => {
    const l = line({ capacity: 1, maxWaiting: 1 });
    entryOf(await join(l, 'a'));
    // c is refused (the one held place is taken by b), keeping its place with a ticket...
    const b0 = entryOf(await join(l, 'b0'));
    const c = await join(l, 'c');
    if (c.ok) throw new Error('c should have been refused');
    await b0.leave();
    // ...then a newcomer is held behind c, who is away.
    const log: string[] = [];
    const n = entryOf(await join(l, 'n'));
    const nWait = waiting(n, log, 'n');
    expect(nWait.places.at(-1)?.place).toBe(2);
    // c comes back: being ahead, c takes the held place; the newcomer steps out keeping its ticket.
    const cBack = entryOf(await join(l, 'c', { ticket: c.busy.ticket }));
    expect(await nWait.outcome).toBe('timeout');
    const away = await n.stepOut();
    expect(away).toMatchObject({ ticket: n.ticket, place: 2 });
    expect((await l.snapshot('local')).tickets.map((t) => t.ticket)).toEqual([c.busy.ticket, n.ticket]);
    // Back with its ticket, it is still second, before anyone who came after.
    const later = await join(l, 'later');
    if (later.ok) throw new Error('the newcomer after should wait away too');
    expect(later.busy.place).toBe(3);
    await cBack.leave();
    const nBack = entryOf(await join(l, 'n', { ticket: away.ticket }));
    expect(nBack.ticket).toBe(n.ticket);
    expect(waiting(nBack, log, 'n2').places[0]?.place).toBe(1);
  });

  it('holds at most a few tickets per shopper: past the bound a shopper gets back their own earliest place', async () => {
    const l = line({ capacity: 1, maxWaiting: 0, perUser: 3 });
    entryOf(await join(l, 'a'));
    const busy: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await join(l, 'greedy', { address: `10.0.0.${i}` });
      if (r.ok) throw new Error('nobody is held');
      busy.push(r.busy.ticket);
    }
    // Three tickets, then the shopper's own first one again: never more than three in line.
    expect(new Set(busy).size).toBe(3);
    expect(busy.slice(3)).toEqual([busy[0], busy[0], busy[0]]);
    const snap = await l.snapshot('local');
    expect(snap.tickets.filter((t) => t.userId === 'greedy')).toHaveLength(3);
    // Someone else still gets a place, right behind.
    const other = await join(l, 'other');
    if (other.ok) throw new Error('other should wait away');
    expect(other.busy.place).toBe(4);
  });

  it('counts a shopper’s tickets across the engines’ lines', async () => {
    const l = line({ capacity: 1, maxWaiting: 0, perUser: 2 });
    entryOf(await join(l, 'a', { pool: 'local' }));
    entryOf(await join(l, 'a', { pool: 'fashn' }));
    const one = await join(l, 'greedy', { pool: 'local' });
    const two = await join(l, 'greedy', { pool: 'fashn' });
    const three = await join(l, 'greedy', { pool: 'fashn' });
    if (one.ok || two.ok || three.ok) throw new Error('all should wait away');
    expect(three.busy.ticket).toBe(two.busy.ticket);
  });

  it('holds at most a few tickets per client address: past the bound, ENGINE_BUSY without a ticket', async () => {
    const l = line({ capacity: 1, maxWaiting: 0, perUser: 10, perAddress: 4 });
    entryOf(await join(l, 'a'));
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const r = await join(l, `u${i}`, { address: '198.51.100.9' });
      if (r.ok) throw new Error('nobody is held');
      answers.push(r.busy);
    }
    expect(answers.slice(0, 4).every((b) => b.ticket !== '')).toBe(true);
    expect(answers.slice(4).map((b) => b.ticket)).toEqual(['', '']);
    expect(answers[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await l.snapshot('local')).tickets).toHaveLength(4);
    // Another address is not held up by it.
    const elsewhere = await join(l, 'u9', { address: '203.0.113.5' });
    if (elsewhere.ok) throw new Error('should wait away');
    expect(elsewhere.busy.ticket).not.toBe('');
  });

  it('a ticket holder who leaves while away gives the place up at once: no slot is kept for them', async () => {
    const l = line({ capacity: 1, maxWaitMs: 30 });
    const a = entryOf(await join(l, 'a'));
    const b = entryOf(await join(l, 'b'));
    expect(await b.wait({})).toBe('timeout');
    const busy = await b.stepOut();
    const log: string[] = [];
    const cEntry = entryOf(await join(l, 'c'));
    const c = waiting(cEntry, log, 'c');
    // Only its holder, and not while a request holds it (that one leaves by closing its connection).
    expect(await l.leaveTicket({ pool: 'local', ticket: busy.ticket, userId: 'mallory' })).toBe(false);
    expect(await l.leaveTicket({ pool: 'local', ticket: cEntry.ticket, userId: 'c' })).toBe(false);
    expect(await l.leaveTicket({ pool: 'local', ticket: busy.ticket, userId: 'b' })).toBe(true);
    expect(c.places.at(-1)?.place).toBe(1);
    await a.leave();
    // b was due back, but left: c gets the slot at once.
    expect(await c.outcome).toBe('admitted');
    expect((await l.snapshot('local')).tickets).toEqual([]);
  });
});
