/**
 * A model checker for the try-on line (`tryon/admission.ts` in memory, `tryon/redis-line.ts` over
 * a real Redis): plays a scenario of joins (with or without an earlier ticket), leaves (while
 * held, while away, also while a tick is on its way), charges, engine starts, finishes, time passing (timeouts, bumps, expiries,
 * leases) and process crashes against the line, drives its clock by hand, and after every step,
 * once the line has settled, checks what the line promises:
 * - no ticket lost (every ticket leaves the line only by admission, leaving, expiry or its dead
 *   process's lease) and none duplicated or appearing from nowhere; a ticket sent back while it is
 *   in line is honoured; a ticket that steps out (a timeout, a bump) keeps its place;
 * - first come, first served: the line is in order of arrival (priority lane first); nobody is let
 *   in while a live request ahead is held or a ticket holder ahead is due back; a free slot never
 *   stays idle while a live request could take it;
 * - the bounds: tickets in line, held requests, tickets per shopper and per address, running slots;
 *   a refusal without a ticket only at a bound;
 * - the charge (`chargeIfStillThere`, modelled ledger): nobody is charged who left before being let
 *   in; a shopper who left before the engine started is refunded; at the end every charge has a
 *   result or a refund, never both.
 */
import type { AdmissionLine, LineEntry, LineSnapshot, LineTimer, LineTimers, WaitOutcome } from '../tryon/admission.js';
import { chargeIfStillThere } from '../tryon/pipeline.js';

/** A clock and timers the harness moves by hand. */
export class ManualTimers implements LineTimers {
  private t: number;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; seq: number; fn: () => void }>();
  constructor(start: number) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): LineTimer {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + Math.max(0, ms), seq: id, fn });
    return { clear: () => void this.pending.delete(id) };
  }
  /** The next timer due at or before `to`, removed; none: the clock moves to `to`. */
  next(to: number): (() => void) | undefined {
    let first: { id: number; at: number; seq: number; fn: () => void } | undefined;
    for (const [id, t] of this.pending)
      if (t.at <= to && (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq))) first = { id, ...t };
    if (!first) {
      this.t = Math.max(this.t, to);
      return undefined;
    }
    this.pending.delete(first.id);
    this.t = Math.max(this.t, first.at);
    return first.fn;
  }
}

export interface LineSettings {
  capacity: number;
  maxWaiting: number;
  maxWaitMs: number;
  ticketGraceMs: number;
  maxTicketsPerUser: number;
  maxTicketsPerAddress: number;
  maxTickets: number;
}

export type Op =
  | { kind: 'join'; shopper: number; proc: number; ticket: number | null; priority: boolean }
  | { kind: 'leave'; req: number }
  /** A shopper leaves while away: one of their tickets gives its place up (also tried with someone else's). */
  | { kind: 'leaveAway'; shopper: number; ticket: number; proc: number }
  | { kind: 'leaveDuringTick'; req: number }
  | { kind: 'charge'; req: number }
  | { kind: 'start'; req: number }
  | { kind: 'finish'; req: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'crash'; proc: number };

export interface Scenario {
  settings: LineSettings;
  processes: number;
  ops: Op[];
}

/** The line under test: its processes, started and crashed by the harness. */
export interface LineWorld {
  readonly pool: string;
  /** Tickets outlive their process (Redis) until their leases run out; otherwise a crash empties the line. */
  readonly shared: boolean;
  readonly leaseMs: number;
  readonly runningLeaseMs: number;
  /** Starts process `i` (again, after a crash) on the harness's clock. */
  start(i: number, timers: LineTimers): Promise<AdmissionLine>;
  /** Process `i` dies: it leaves nothing, says nothing. */
  crash(i: number, line: AdmissionLine): Promise<void>;
  /** Whatever the scenario left (connections, keys). */
  end(lines: AdmissionLine[]): Promise<void>;
}

/** What happened over the runs: each kind of event must have happened for the test to mean something. */
export interface LineStats {
  runs: number;
  joins: number;
  admitted: number;
  busy: number;
  refusedWithoutTicket: number;
  ticketsHonoured: number;
  bumped: number;
  timedOut: number;
  leftWhileHeld: number;
  leftWhileAway: number;
  leftDuringTick: number;
  leftAfterCharge: number;
  refundedBeforeStart: number;
  results: number;
  expired: number;
  leaseExpired: number;
  crashes: number;
}

export function emptyStats(): LineStats {
  return {
    runs: 0,
    joins: 0,
    admitted: 0,
    busy: 0,
    refusedWithoutTicket: 0,
    ticketsHonoured: 0,
    bumped: 0,
    timedOut: 0,
    leftWhileHeld: 0,
    leftWhileAway: 0,
    leftDuringTick: 0,
    leftAfterCharge: 0,
    refundedBeforeStart: 0,
    results: 0,
    expired: 0,
    leaseExpired: 0,
    crashes: 0,
  };
}

type ReqState = 'held' | 'charging' | 'charged' | 'running' | 'away' | 'ended' | 'crashed';

interface Req {
  id: number;
  proc: number;
  shopper: Shopper;
  entry: LineEntry;
  ticket: string;
  joinedAt: number;
  ctrl: AbortController;
  state: ReqState;
  /** Where the shopper was when they left. */
  leftWhile?: ReqState | undefined;
  admitted: boolean;
  charged: boolean;
  refunded: boolean;
  result: boolean;
  finishCharge?: (() => void) | undefined;
  /** The charge and what follows it, once the request was let in. */
  flow?: Promise<void> | undefined;
  /** The wait in line and the reaction to its outcome. */
  waited?: Promise<void> | undefined;
  waitFollowed?: boolean;
}

interface Shopper {
  userId: string;
  address: string;
  /** Tickets the shopper was given (the page keeps the last one; a shopper may have several tabs). */
  tickets: string[];
}

interface TicketInfo {
  seq: number;
  priority: boolean;
}

const SHOPPERS = 6;
const ADDRESSES = 3;
/** Time moves in steps no longer than this, each settled: live processes renew their leases (5 s). */
const STEP_MS = 4_000;
/** Real time a reaction may take at most (the machine may be busy). */
const STUCK_MS = 20_000;
const LIVE: readonly ReqState[] = ['held', 'charging', 'charged', 'running'];
const ADMITTED: readonly ReqState[] = ['charging', 'charged', 'running'];

class Violation extends Error {}

function fail(message: string, details?: unknown): never {
  throw new Violation(details === undefined ? message : `${message}: ${JSON.stringify(details)}`);
}

/** Plays one scenario against a line; throws on the first broken promise. */
export async function playScenario(world: LineWorld, scenario: Scenario, stats: LineStats): Promise<void> {
  const { settings } = scenario;
  const timers = new ManualTimers(1_800_000_000_000);
  const lines: AdmissionLine[] = [];
  for (let i = 0; i < scenario.processes; i++) lines.push(await world.start(i, timers));
  const shoppers: Shopper[] = Array.from({ length: SHOPPERS }, (_, i) => ({
    userId: `u${i}`,
    address: `198.51.100.${i % ADDRESSES}`,
    tickets: [],
  }));
  const reqs: Req[] = [];
  const tickets = new Map<string, TicketInfo>();
  let ticketSeq = 0;
  const pending = new Set<Promise<unknown>>();
  /** Tickets of dead processes: held ones and running ones, with when their leases end. */
  const orphans = new Map<string, { held: boolean; until: number }>();
  // What happened during the current step, to explain the line's changes.
  const newStep = () => ({
    admitted: new Set<string>(),
    aborted: new Set<string>(),
    issued: new Set<string>(),
    /** Tickets that stepped out, with when they expire. */
    away: new Map<string, number>(),
    /** Someone joined (and may have bumped the last one held). */
    joined: false,
    reset: false,
  });
  let step = newStep();
  /** The first broken promise found in a reaction: thrown by the next flush. */
  let broken: unknown;
  /** Reactions and line calls so far: settled once a round adds none. */
  let activity = 0;
  const track = (p: Promise<unknown>) => {
    activity++;
    const followed = p.then(
      () => undefined,
      (err: unknown) => {
        broken ??= err;
      },
    );
    pending.add(followed);
    void followed.finally(() => pending.delete(followed));
  };

  const flush = async () => {
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setImmediate(r));
      if (pending.size === 0) break;
      // A reaction that never ends is a broken promise too (real time: the line's clock is ours).
      let stuck: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        Promise.all([...pending]).then(() => true),
        new Promise<false>((r) => (stuck = setTimeout(() => r(false), STUCK_MS))),
      ]);
      clearTimeout(stuck);
      if (!waited)
        fail(
          'a reaction never ended',
          reqs.map((r) => ({ id: r.id, state: r.state, ticket: r.ticket })),
        );
    }
    if (broken !== undefined) throw broken;
    if (pending.size > 0) fail('the reactions did not settle');
  };
  const snapshot = () => lines[0]!.snapshot(world.pool);
  /**
   * Until nothing moves: every live process looks again and every reaction is done, until a
   * round in which nobody reacted (an admission, a bump, a lost place always makes a reaction).
   */
  const settle = async (): Promise<LineSnapshot> => {
    for (let i = 0; i < 30; i++) {
      const before = activity;
      await flush();
      for (const l of lines) await l.refresh?.();
      await flush();
      if (activity === before) return snapshot();
    }
    return fail('the line did not settle');
  };

  const react = async (req: Req, outcome: WaitOutcome) => {
    if (req.state === 'crashed') return;
    if (outcome === 'admitted') {
      req.admitted = true;
      stats.admitted++;
      step.admitted.add(req.ticket);
      req.state = 'charging';
      // The charge completes at a 'charge' step (or at the end); the flow after it is followed then.
      req.flow = chargeIfStillThere(
        req.ctrl.signal,
        () =>
          new Promise<void>((resolve) => {
            req.finishCharge = () => {
              req.finishCharge = undefined;
              req.charged = true;
              resolve();
              track(req.flow!);
            };
          }),
        async () => {
          req.refunded = true;
          stats.leftAfterCharge++;
        },
      ).then(
        () => {
          if (req.state === 'charging') req.state = 'charged';
        },
        async () => {
          if (req.state === 'crashed') return;
          req.state = 'ended';
          await req.entry.leave();
        },
      );
      // Gone already: nothing is charged, the flow ends at once.
      if (req.ctrl.signal.aborted) track(req.flow);
      return;
    }
    if (outcome === 'aborted') {
      step.aborted.add(req.ticket);
      req.state = 'ended';
      await req.entry.leave();
      return;
    }
    // Timed out, or bumped by someone ahead who came back: steps out, keeping ticket and place.
    if (timers.now() < req.joinedAt + settings.maxWaitMs) stats.bumped++;
    else stats.timedOut++;
    const at = timers.now();
    const busy = await req.entry.stepOut();
    await req.entry.leave();
    // (It may have crashed meanwhile.)
    if ((req.state as ReqState) === 'crashed') return;
    if (busy.ticket !== req.ticket) fail('a ticket that stepped out was not kept', { req: req.ticket, busy });
    if (busy.place < 1) fail('a ticket that stepped out has no place', busy);
    // Kept at least until its Retry-After has passed; it may expire before the step ends.
    const kept = (await lines[0]!.snapshot(world.pool)).tickets.find((t) => t.ticket === req.ticket);
    if (!kept || kept.held) fail('a ticket that stepped out is not in line, away', { busy, kept });
    if (kept.expiresAt < at + busy.retryAfterSeconds * 1000) fail('a ticket expires before its Retry-After', kept);
    step.away.set(req.ticket, kept.expiresAt);
    req.state = 'away';
    req.shopper.tickets.push(busy.ticket);
  };

  const live = (which: readonly ReqState[], n: number) => {
    const found = reqs.filter((r) => which.includes(r.state));
    return found.length ? found[n % found.length] : undefined;
  };

  const before = (a: TicketInfo, b: TicketInfo) =>
    (a.priority ? 0 : 1) < (b.priority ? 0 : 1) || ((a.priority ? 0 : 1) === (b.priority ? 0 : 1) && a.seq < b.seq);

  const join = async (op: Extract<Op, { kind: 'join' }>, prev: LineSnapshot) => {
    const shopper = shoppers[op.shopper % SHOPPERS]!;
    const proc = op.proc % lines.length;
    const ticket =
      op.ticket === null || shopper.tickets.length === 0
        ? undefined
        : shopper.tickets[op.ticket % shopper.tickets.length];
    stats.joins++;
    step.joined = true;
    const result = await lines[proc]!.join({
      pool: world.pool,
      userId: shopper.userId,
      address: shopper.address,
      priority: op.priority,
      ticket,
      typicalSeconds: 1,
    });
    const got = result.ok ? result.entry.ticket : result.busy.ticket;
    const sent = ticket ? prev.tickets.find((t) => t.ticket === ticket) : undefined;
    if (sent && sent.userId === shopper.userId && !sent.held) {
      if (got !== ticket) fail('a ticket sent back while in line was not honoured', { ticket, got });
      stats.ticketsHonoured++;
    }
    if (got && !prev.tickets.some((t) => t.ticket === got) && !tickets.has(got)) {
      tickets.set(got, { seq: ++ticketSeq, priority: op.priority });
      step.issued.add(got);
    }
    if (!result.ok) {
      if (result.busy.ticket) {
        stats.busy++;
        shopper.tickets.push(result.busy.ticket);
        return;
      }
      stats.refusedWithoutTicket++;
      const mine = prev.tickets.filter((t) => t.userId === shopper.userId);
      const here = prev.tickets.filter((t) => t.address === shopper.address);
      const atBound =
        prev.tickets.length >= settings.maxTickets ||
        (mine.length >= settings.maxTicketsPerUser && mine.every((t) => t.held)) ||
        (mine.length < settings.maxTicketsPerUser && here.length >= settings.maxTicketsPerAddress);
      if (!atBound) fail('refused without a ticket, at no bound', { shopper, prev });
      return;
    }
    const req: Req = {
      id: reqs.length,
      proc,
      shopper,
      entry: result.entry,
      ticket: result.entry.ticket,
      joinedAt: timers.now(),
      ctrl: new AbortController(),
      state: 'held',
      admitted: false,
      charged: false,
      refunded: false,
      result: false,
    };
    reqs.push(req);
    // The wait lasts while the request is held: followed once it is bound to end (the shopper left,
    // the longest wait passed); its outcome's reaction is followed always.
    req.waited = req.entry.wait({ signal: req.ctrl.signal }).then((outcome) => {
      const reaction = react(req, outcome);
      track(reaction);
      // A broken promise is recorded by track() (and thrown by the next flush).
      return reaction.catch(() => undefined);
    });
  };

  /** A held request's wait is bound to end now: followed until its reaction is done. */
  const followWait = (req: Req) => {
    if (req.waitFollowed || !req.waited) return;
    req.waitFollowed = true;
    track(req.waited);
  };

  const leave = (req: Req) => {
    req.leftWhile = req.state;
    if (req.state === 'held') stats.leftWhileHeld++;
    req.ctrl.abort();
    if (req.state === 'held') followWait(req);
  };

  const crash = async (i: number) => {
    stats.crashes++;
    const at = timers.now();
    for (const r of reqs) {
      if (r.proc !== i || !LIVE.includes(r.state)) continue;
      if (world.shared) {
        orphans.set(r.ticket, {
          held: r.state === 'held',
          until: at + (r.state === 'held' ? world.leaseMs : world.runningLeaseMs),
        });
      }
      // Recovery settles what the dead process had charged: refunded unless it had a result.
      if (r.charged && !r.result && !r.refunded) r.refunded = true;
      r.state = 'crashed';
      r.finishCharge = undefined;
    }
    await world.crash(i, lines[i]!);
    lines[i] = await world.start(i, timers);
    if (!world.shared) step.reset = true;
  };

  const advance = async (ms: number, stepMs = STEP_MS) => {
    const target = timers.now() + ms;
    while (timers.now() < target) {
      const stepTo = Math.min(target, timers.now() + stepMs);
      for (let fn = timers.next(stepTo); fn; fn = timers.next(stepTo)) {
        fn();
        await flush();
      }
      // Every timer due so far has fired: the waits past their longest are ending.
      for (const r of reqs) if (r.state === 'held' && timers.now() >= r.joinedAt + settings.maxWaitMs) followWait(r);
      await settle();
    }
  };

  /** Every promise the line keeps, between the snapshot before a step and the one after. */
  const check = (prev: LineSnapshot, cur: LineSnapshot) => {
    const now = cur.now;
    const curById = new Map(cur.tickets.map((t) => [t.ticket, t]));
    if (curById.size !== cur.tickets.length) fail('a ticket is in line twice', cur.tickets);
    if (new Set(cur.running).size !== cur.running.length) fail('a ticket runs twice', cur.running);
    for (const t of cur.running) if (curById.has(t)) fail('a running ticket is still in line', t);

    // Lost or from nowhere.
    if (!step.reset) {
      for (const t of prev.tickets) {
        if (curById.has(t.ticket)) continue;
        if (step.admitted.has(t.ticket) || step.aborted.has(t.ticket)) continue;
        const expiresAt = t.held ? step.away.get(t.ticket) : t.expiresAt;
        if (expiresAt !== undefined && expiresAt <= now) {
          stats.expired++;
          continue;
        }
        const orphan = orphans.get(t.ticket);
        if (orphan && orphan.until <= now) {
          stats.leaseExpired++;
          continue;
        }
        fail('a ticket was lost', { ticket: t, now });
      }
    } else if (prev.tickets.length && cur.tickets.some((t) => prev.tickets.some((p) => p.ticket === t.ticket))) {
      fail('a crashed line kept tickets', cur.tickets);
    }
    const prevIds = new Set(prev.tickets.map((t) => t.ticket));
    for (const t of cur.tickets)
      if (!prevIds.has(t.ticket) && !step.issued.has(t.ticket) && !step.reset)
        fail('a ticket appeared from nowhere', t);
      else if (step.reset && !step.issued.has(t.ticket)) fail('a ticket appeared from nowhere', t);

    // A dead process's held ticket bumped by one ahead who came back: away now, like any other.
    for (const [t, o] of orphans) {
      const still = curById.get(t);
      if (!o.held || !still || still.held) continue;
      if (!step.joined) fail("a dead process's held ticket went away without a join", still);
      orphans.delete(t);
      stats.bumped++;
    }
    // Held and running: exactly the live requests' (and dead processes' until their leases end).
    const heldNow = new Set(cur.tickets.filter((t) => t.held).map((t) => t.ticket));
    const heldWanted = new Set(reqs.filter((r) => r.state === 'held').map((r) => r.ticket));
    const runningWanted = new Set(reqs.filter((r) => ADMITTED.includes(r.state)).map((r) => r.ticket));
    for (const [t, o] of orphans) {
      if (o.until <= now) continue;
      (o.held ? heldWanted : runningWanted).add(t);
    }
    const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
    if (!same(heldNow, heldWanted)) fail('held requests differ', { line: [...heldNow], requests: [...heldWanted] });
    if (!same(new Set(cur.running), runningWanted))
      fail('running slots differ', { line: cur.running, requests: [...runningWanted] });

    // Order of arrival, priority lane first.
    for (let i = 1; i < cur.tickets.length; i++) {
      const a = tickets.get(cur.tickets[i - 1]!.ticket);
      const b = tickets.get(cur.tickets[i]!.ticket);
      if (!a || !b) fail('a ticket the shoppers were never given', cur.tickets[i]);
      if (!before(a, b)) fail('the line is out of order', cur.tickets);
    }
    for (const t of cur.tickets) if (tickets.get(t.ticket)!.priority !== t.priority) fail('a ticket changed lane', t);

    // First come, first served: nobody let in past a live held request or a ticket holder due back.
    for (const admitted of step.admitted) {
      const x = tickets.get(admitted);
      if (!x) continue;
      for (const y of prev.tickets) {
        const info = tickets.get(y.ticket)!;
        if (!before(info, x)) continue;
        const still = curById.get(y.ticket);
        if (!still) continue;
        if (still.held && heldWanted.has(y.ticket) && !orphans.has(y.ticket))
          fail('let in past a request held ahead', { admitted, ahead: y });
        if (!still.held && y.dueAt > now && still.dueAt > now) fail('let in past a ticket due back', { admitted, y });
      }
    }
    // No idle slot while a live held request could take it.
    let free = cur.capacity < 0 ? Infinity : cur.capacity - cur.running.length;
    for (const t of cur.tickets) {
      if (free <= 0) break;
      if (!t.held && t.dueAt > now) break;
      if (!t.held) continue;
      if (orphans.has(t.ticket)) free--;
      else fail('a slot stays idle while a request waits', { ticket: t, cur });
    }

    // Bounds.
    if (cur.tickets.length > settings.maxTickets) fail('too many tickets', cur.tickets.length);
    if (heldNow.size > settings.maxWaiting) fail('too many held', [...heldNow]);
    if (cur.capacity >= 0 && cur.running.length > cur.capacity) fail('too many running', cur.running);
    const count = (key: 'userId' | 'address') => {
      const m = new Map<string, number>();
      for (const t of cur.tickets) m.set(t[key], (m.get(t[key]) ?? 0) + 1);
      return Math.max(0, ...m.values());
    };
    if (count('userId') > settings.maxTicketsPerUser) fail('too many tickets for one shopper', cur.tickets);
    if (count('address') > settings.maxTicketsPerAddress) fail('too many tickets for one address', cur.tickets);

    // The charge.
    for (const r of reqs) {
      if (r.result && (!r.charged || r.refunded)) fail('a result without a charge, or refunded too', r.id);
      if (r.refunded && !r.charged) fail('refunded without a charge', r.id);
      if (r.charged && !r.admitted) fail('charged without being let in', r.id);
      if (r.charged && r.leftWhile === 'held') fail('charged though the shopper left while waiting', r.id);
      if (r.state === 'ended' && r.charged && !r.result && !r.refunded)
        fail('charged, ended, with neither a result nor a refund', r.id);
    }
    for (const [t, o] of orphans) if (o.until <= now && !curById.has(t) && !cur.running.includes(t)) orphans.delete(t);
    step = newStep();
  };

  try {
    let prev = await settle();
    for (const op of scenario.ops) {
      switch (op.kind) {
        case 'join':
          await join(op, prev);
          break;
        case 'leave': {
          const r = live(LIVE, op.req);
          if (r) leave(r);
          break;
        }
        case 'leaveAway': {
          // Someone's ticket (usually their own): given up only by its holder, and only while away.
          const holder = shoppers[op.shopper % SHOPPERS]!;
          const owner = shoppers[(op.shopper + (op.ticket % 5 === 4 ? 1 : 0)) % SHOPPERS]!;
          if (!owner.tickets.length) break;
          const ticket = owner.tickets[op.ticket % owner.tickets.length]!;
          const inLine = prev.tickets.find((t) => t.ticket === ticket);
          const left = await lines[op.proc % lines.length]!.leaveTicket({
            pool: world.pool,
            ticket,
            userId: holder.userId,
          });
          const allowed = inLine !== undefined && !inLine.held && inLine.userId === holder.userId;
          if (left !== allowed) fail('leaving while away', { left, allowed, ticket, inLine, holder: holder.userId });
          if (left) {
            stats.leftWhileAway++;
            step.aborted.add(ticket);
          }
          break;
        }
        case 'leaveDuringTick': {
          // A tick (that may let this request in) is already on its way when the shopper leaves.
          const r = live(['held'], op.req);
          if (!r) break;
          stats.leftDuringTick++;
          const ticking = lines[r.proc]!.refresh?.();
          leave(r);
          await ticking;
          break;
        }
        case 'charge':
          live(['charging'], op.req)?.finishCharge?.();
          break;
        case 'start': {
          // The engine starts: unless the shopper has gone, then the charge goes back at once.
          const r = live(['charged'], op.req);
          if (!r) break;
          if (r.ctrl.signal.aborted) {
            r.refunded = true;
            stats.refundedBeforeStart++;
            r.state = 'ended';
            track(r.entry.leave());
          } else r.state = 'running';
          break;
        }
        case 'finish': {
          const r = live(['running'], op.req);
          if (!r) break;
          r.result = true;
          stats.results++;
          r.state = 'ended';
          track(r.entry.leave());
          break;
        }
        case 'advance':
          await advance(op.ms);
          break;
        case 'crash':
          await crash(op.proc % lines.length);
          break;
      }
      const cur = await settle();
      check(prev, cur);
      prev = cur;
    }

    // The end: everyone still waiting leaves, every charge completes, every try-on finishes.
    for (const r of reqs) if (r.state === 'held') leave(r);
    await settle();
    for (const r of reqs) r.finishCharge?.();
    await settle();
    for (const r of reqs) {
      if (r.state === 'charged') {
        if (r.ctrl.signal.aborted) {
          r.refunded = true;
          r.state = 'ended';
        } else r.state = 'running';
      }
      if (r.state === 'running') {
        r.result = true;
        r.state = 'ended';
      }
      if (r.state === 'ended') track(r.entry.leave());
    }
    const end = await settle();
    check(prev, end);
    prev = end;
    // Nothing is held or running any more: time may pass in one step.
    await advance(settings.ticketGraceMs + 20_000 + world.runningLeaseMs, Infinity);
    const last = await settle();
    check(prev, last);
    if (last.tickets.length || last.running.length) fail('the line did not empty', last);
    for (const r of reqs) {
      if (r.charged && r.result === r.refunded) fail('a charge with neither or both of a result and a refund', r);
      if (r.leftWhile && r.leftWhile !== 'running' && r.charged && !r.refunded)
        fail('charged though the shopper left before the engine started', r.id);
    }
    stats.runs++;
  } finally {
    await world.end(lines);
  }
}
