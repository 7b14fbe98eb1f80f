/**
 * The try-on line in memory: busy is a wait, not an error. Before a try-on is charged it takes a
 * ticket and waits for an engine slot here; only once admitted does the pipeline reserve the free
 * trial or credit (`pipeline.ts`). The rules, the same for `redis-line.ts`, are in this folder's
 * README.md.
 */
import { randomBytes } from 'node:crypto';
import type { ProgressMessage } from '../progress.js';
import type { Hold } from './holds.js';

/** Where a shopper stands: 1 is next. */
export interface LinePlace {
  place: number;
  /** About how many seconds until the try-on starts. */
  waitSeconds: number;
}

/** What an ENGINE_BUSY answer tells the shopper (EngineBusyResponseSchema). */
export interface LineBusy extends LinePlace {
  /** Empty when the line could not even keep a ticket (far too long). */
  ticket: string;
  retryAfterSeconds: number;
}

interface JoinRequest {
  /** The line: an engine's id (in-process), or the queue's name. */
  pool: string;
  userId: string;
  /** The client's address (the per-address bound). */
  address: string;
  /** The priority lane (a plan with priority processing). */
  priority: boolean;
  /** The ticket of an earlier ENGINE_BUSY answer: the place it kept. */
  ticket?: string | undefined;
  /** Seconds a try-on on this pool typically takes, until the line has measured some. */
  typicalSeconds: number;
}

export type WaitOutcome = 'admitted' | 'timeout' | 'aborted';

export interface LineEntry {
  readonly ticket: string;
  /**
   * Waits for a slot, at most until `maxWaitMs` after joining; `onPlace` hears each new place.
   * 'aborted' when `signal` aborts (the shopper left): the ticket is gone then.
   */
  wait(opts: { signal?: AbortSignal | undefined; onPlace?: (place: LinePlace) => void }): Promise<WaitOutcome>;
  /** After a 'timeout': steps out of the line keeping the ticket, and says what to tell the shopper. */
  stepOut(): Promise<LineBusy>;
  /** Gives up the place, or the slot once admitted (recording how long the try-on took). Idempotent. */
  leave(): Promise<void>;
}

/** A try-on's place in line, taken before its photos are decoded; `leave()` it whatever happens. */
export interface Admission {
  readonly entry: LineEntry;
  /** Holds credits of a plan with priority processing (decided before anything is reserved). */
  readonly priority: boolean;
  /** What the shopper holds for it until it is charged (`holds.ts`); none for a shop's widget. */
  readonly hold?: Hold | undefined;
  leave(): Promise<void>;
}

/**
 * Refused: the line is full (the engine's own capacity: ENGINE_BUSY), or, with `limit`, the
 * shopper or their address already holds as many places as one may (a limit on that client).
 */
export type JoinResult =
  { ok: true; entry: LineEntry } | { ok: false; busy: LineBusy; limit?: 'shopper' | 'address' | undefined };

/** A pool's line as it stands (tests, diagnostics). */
export interface LineSnapshot {
  now: number;
  /** The pool's slots; -1: not known yet (no worker announced), unlimited. */
  capacity: number;
  /** Every ticket in line, in order. */
  tickets: {
    ticket: string;
    userId: string;
    address: string;
    priority: boolean;
    /** A request holds it (waiting on the server); otherwise its holder is away. */
    held: boolean;
    /** Away: a slot is kept for it until then (epoch ms; 0: none). */
    dueAt: number;
    /** Away: it is forgotten then (epoch ms); held: 0. */
    expiresAt: number;
  }[];
  /** The admitted tickets holding a slot. */
  running: string[];
}

export interface AdmissionLine {
  /** Takes a ticket (or comes back with one); refused at once, ticket kept, when the line is full. */
  join(req: JoinRequest): Promise<JoinResult>;
  /**
   * The shopper left while away (between an ENGINE_BUSY answer and the next post): their ticket
   * gives the place up now. Only the ticket's own holder, and not while a request holds it; says
   * whether a place was given up.
   */
  leaveTicket(req: { pool: string; ticket: string; userId: string }): Promise<boolean>;
  /** Requests held waiting on this pool (tests, metrics). */
  waiting(pool: string): Promise<number>;
  /** The pool's line as it stands (tests, diagnostics). */
  snapshot(pool: string): Promise<LineSnapshot>;
  /** Looks again at once: renews this process's holds and admits what it can (tests; the line does it on its own). */
  refresh?(): Promise<void>;
  /**
   * Several API processes: hands a waiting try-on's progress (its place) to every process, since
   * the page's progress stream may be held by another one. None: this process's hub is enough.
   */
  relayProgress?: ((message: ProgressMessage) => Promise<unknown>) | undefined;
  close(): Promise<void>;
}

export interface LineLimits {
  /** Requests held waiting on the server per pool (ENGINE_QUEUE_LIMIT); 0: none, every wait is a 503. */
  maxWaiting: number;
  /** Longest a request is held waiting (ENGINE_LINE_WAIT_MS). */
  maxWaitMs: number;
  /** How long a ticket keeps its place after its Retry-After has passed. */
  ticketGraceMs: number;
  /** Tickets one shopper may have in line at once (ENGINE_LINE_TICKETS_PER_USER). */
  maxTicketsPerUser: number;
  /** Tickets one client address may have in line at once (ENGINE_LINE_TICKETS_PER_ADDRESS). */
  maxTicketsPerAddress: number;
  /** Tickets in one pool's line at most (tests); default `maxTicketsOf`'s. */
  maxTickets?: number | undefined;
  /** The clock and timers (tests drive them by hand); default the real ones. */
  timers?: LineTimers | undefined;
}

export interface LineTimer {
  clear(): void;
}

/** The line's clock and timers. */
export interface LineTimers {
  now(): number;
  /** Calls `fn` after `ms`; never keeps the process alive on its own. */
  setTimeout(fn: () => void, ms: number): LineTimer;
}

export const realTimers: LineTimers = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref();
    return { clear: () => clearTimeout(timer) };
  },
};

/** Tickets in one pool's line at most: far more than held requests would mean shoppers who never came back. */
export function maxTicketsOf(limits: Pick<LineLimits, 'maxWaiting' | 'maxTickets'>): number {
  return limits.maxTickets ?? Math.max(100, 8 * limits.maxWaiting);
}

/** Retry-After bounds, seconds. */
export const RETRY_AFTER_MIN_S = 1;
export const RETRY_AFTER_MAX_S = 15;
/** How long past its Retry-After a slot is kept for a ticket holder who is away. */
export const DUE_BACK_SLACK_MS = 2_000;
/** Weight of the latest try-on in the pool's average time. */
const AVERAGE_WEIGHT = 0.2;

export function newTicket(): string {
  return randomBytes(18).toString('base64url');
}

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** About how long until the try-on at `place` starts: place × average time ÷ slots, whole seconds. */
export function expectedWaitSeconds(place: number, averageMs: number, capacity: number): number {
  return Math.max(0, Math.ceil((place * averageMs) / Math.max(1, capacity) / 1000));
}

/**
 * When a shopper refused because the line was full should come back: when the line ahead of
 * them is short enough to be held; at least 1 s, at most 15 s.
 */
export function retryAfterFor(place: number, maxWaiting: number, averageMs: number, capacity: number): number {
  const ahead = Math.max(0, place - maxWaiting);
  return clamp(expectedWaitSeconds(ahead, averageMs, capacity), RETRY_AFTER_MIN_S, RETRY_AFTER_MAX_S);
}

/** The new average try-on time after one that took `ms`. */
function nextAverage(averageMs: number, ms: number): number {
  return averageMs + AVERAGE_WEIGHT * (ms - averageMs);
}

// ---------- in memory (the in-process runner) ----------

interface Ticket {
  id: string;
  userId: string;
  address: string;
  lane: 0 | 1;
  seq: number;
  /** The held request waiting for this ticket; none: the shopper is away (ENGINE_BUSY answered). */
  waiter: Waiter | undefined;
  /** Away: a slot is kept for the holder until then (epoch ms). */
  dueAt: number;
  /** Away: the ticket is forgotten after this (epoch ms). */
  expiresAt: number;
}

interface Waiter {
  /** Ends the wait: a slot is ours, or ('timeout') someone ahead came back and took the held place. */
  settle(outcome: 'admitted' | 'bumped'): void;
  onPlace?: ((place: LinePlace) => void) | undefined;
  last?: LinePlace | undefined;
}

interface Pool {
  /** Tickets in line, in order (lane, then number). */
  order: Ticket[];
  byId: Map<string, Ticket>;
  seq: number;
  /** The admitted tickets holding a slot. */
  running: Set<string>;
  averageMs: number;
  /** Looks again when a slot kept for someone away stops being kept. */
  timer?: LineTimer | undefined;
}

const before = (a: Ticket, b: Ticket): boolean => a.lane < b.lane || (a.lane === b.lane && a.seq < b.seq);

export interface MemoryLineOptions extends LineLimits {
  /** A pool's slots: its engine's concurrency. */
  capacity: (pool: string) => number;
}

/** The line of one API process (no REDIS_URL). */
export function createMemoryLine(options: MemoryLineOptions): AdmissionLine {
  const timers = options.timers ?? realTimers;
  const now = () => timers.now();
  const pools = new Map<string, Pool>();
  const poolOf = (name: string, typicalSeconds: number): Pool => {
    let p = pools.get(name);
    if (!p) {
      p = { order: [], byId: new Map(), seq: 0, running: new Set(), averageMs: typicalSeconds * 1000 };
      pools.set(name, p);
    }
    return p;
  };
  const maxTickets = maxTicketsOf(options);
  /** Tickets in every pool's line that `which` picks. */
  const count = (which: (t: Ticket) => boolean): number => {
    let n = 0;
    for (const p of pools.values()) {
      expire(p);
      for (const t of p.order) if (which(t)) n++;
    }
    return n;
  };

  const remove = (p: Pool, t: Ticket) => {
    const i = p.order.indexOf(t);
    if (i >= 0) p.order.splice(i, 1);
    p.byId.delete(t.id);
  };
  const insert = (p: Pool, t: Ticket) => {
    let i = p.order.length;
    while (i > 0 && before(t, p.order[i - 1]!)) i--;
    p.order.splice(i, 0, t);
    p.byId.set(t.id, t);
  };
  const expire = (p: Pool) => {
    const t = now();
    for (const ticket of [...p.order]) if (!ticket.waiter && ticket.expiresAt <= t) remove(p, ticket);
  };
  const placeOf = (p: Pool, pool: string, t: Ticket): LinePlace => {
    const place = p.order.indexOf(t) + 1;
    return { place, waitSeconds: expectedWaitSeconds(place, p.averageMs, options.capacity(pool)) };
  };
  const stepAway = (p: Pool, pool: string, t: Ticket, retryAfterSeconds: number): LineBusy => {
    t.waiter = undefined;
    const at = now();
    t.expiresAt = at + retryAfterSeconds * 1000 + options.ticketGraceMs;
    // Never due back after it is forgotten.
    t.dueAt = Math.min(at + retryAfterSeconds * 1000 + DUE_BACK_SLACK_MS, t.expiresAt);
    return { ticket: t.id, ...placeOf(p, pool, t), retryAfterSeconds };
  };

  /**
   * Fills free slots from the front: the first held request, unless a ticket holder ahead of it is
   * due back; then tells everyone still waiting their place.
   */
  const pump = (pool: string, p: Pool) => {
    expire(p);
    const capacity = options.capacity(pool);
    p.timer?.clear();
    p.timer = undefined;
    const at = now();
    while (p.running.size < capacity) {
      const next = p.order.find((t) => t.waiter || t.dueAt > at);
      if (!next) break;
      if (!next.waiter) {
        // Kept for its holder, due back: look again when that stops (at dueAt itself, when the
        // holder no longer counts as due; a timer that fires early looks again).
        p.timer = timers.setTimeout(() => pump(pool, p), next.dueAt - at);
        break;
      }
      remove(p, next);
      p.running.add(next.id);
      next.waiter.settle('admitted');
    }
    for (const t of p.order) {
      const w = t.waiter;
      if (!w?.onPlace) continue;
      const place = placeOf(p, pool, t);
      if (w.last?.place === place.place && w.last.waitSeconds === place.waitSeconds) continue;
      w.last = place;
      w.onPlace(place);
    }
  };

  return {
    async join(req) {
      const p = poolOf(req.pool, req.typicalSeconds);
      expire(p);
      const capacity = options.capacity(req.pool);
      let ticket = req.ticket ? p.byId.get(req.ticket) : undefined;
      // A ticket is its holder's only, and one request at a time.
      if (ticket && (ticket.userId !== req.userId || ticket.waiter)) ticket = undefined;
      const refused = (limit?: 'shopper' | 'address'): JoinResult => {
        const place = p.order.length + 1;
        const waitSeconds = expectedWaitSeconds(place, p.averageMs, capacity);
        return { ok: false, busy: { ticket: '', place, waitSeconds, retryAfterSeconds: RETRY_AFTER_MAX_S }, limit };
      };
      if (!ticket && count((x) => x.userId === req.userId) >= options.maxTicketsPerUser) {
        // At the bound: the shopper's own earliest place that no request holds, or none.
        ticket = p.order.find((x) => x.userId === req.userId && !x.waiter);
        if (!ticket) return refused('shopper');
      }
      if (!ticket) {
        if (p.order.length >= maxTickets) return refused();
        if (count((x) => x.address === req.address) >= options.maxTicketsPerAddress) return refused('address');
        ticket = {
          id: newTicket(),
          userId: req.userId,
          address: req.address,
          lane: req.priority ? 0 : 1,
          seq: ++p.seq,
          waiter: undefined,
          dueAt: 0,
          expiresAt: 0,
        };
        insert(p, ticket);
      }
      const t = ticket;
      const held = p.order.filter((x) => x.waiter);
      const mustWait = p.running.size >= capacity || p.order.some((x) => before(x, t) && (x.waiter || x.dueAt > now()));
      if (mustWait && held.length >= options.maxWaiting) {
        const last = held[held.length - 1];
        if (last && before(t, last)) {
          // Back with a place ahead of the last one held: that one steps out instead.
          last.waiter!.settle('bumped');
        } else {
          const place = placeOf(p, req.pool, t);
          return {
            ok: false,
            busy: stepAway(p, req.pool, t, retryAfterFor(place.place, options.maxWaiting, p.averageMs, capacity)),
          };
        }
      }

      const joinedAt = now();
      let state: 'waiting' | 'admitted' | 'bumped' | 'away' | 'gone' = 'waiting';
      let admittedAt = 0;
      let settle!: (outcome: 'admitted' | 'bumped') => void;
      const turn = new Promise<'admitted' | 'bumped'>((resolve) => (settle = resolve));
      const waiter: Waiter = {
        settle: (outcome) => {
          if (state !== 'waiting') return;
          state = outcome;
          // Bumped: away at once, keeping the ticket and its place (as after ENGINE_BUSY).
          if (outcome === 'admitted') admittedAt = now();
          else stepAway(p, req.pool, t, RETRY_AFTER_MIN_S);
          settle(outcome);
        },
      };
      t.waiter = waiter;
      t.dueAt = 0;
      pump(req.pool, p);

      const entry: LineEntry = {
        ticket: t.id,
        async wait({ signal, onPlace }) {
          if (state === 'admitted') return 'admitted';
          if (state === 'bumped') return 'timeout';
          if (state !== 'waiting') return 'aborted';
          waiter.onPlace = onPlace;
          if (onPlace) {
            waiter.last = placeOf(p, req.pool, t);
            onPlace(waiter.last);
          }
          const left = joinedAt + options.maxWaitMs - now();
          let timer: LineTimer | undefined;
          let onAbort: (() => void) | undefined;
          const outcome = await Promise.race<WaitOutcome>([
            turn.then((o) => (o === 'admitted' ? 'admitted' : 'timeout')),
            new Promise<WaitOutcome>((resolve) => {
              timer = timers.setTimeout(() => resolve('timeout'), left);
            }),
            new Promise<WaitOutcome>((resolve) => {
              if (!signal) return;
              onAbort = () => resolve('aborted');
              if (signal.aborted) onAbort();
              else signal.addEventListener('abort', onAbort, { once: true });
            }),
          ]);
          timer?.clear();
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          waiter.onPlace = undefined;
          // Admitted in the same tick as the timer or the abort: the slot is taken, use it (or leave it).
          if ((state as string) === 'admitted') return outcome === 'aborted' ? 'aborted' : 'admitted';
          if (outcome === 'aborted') await entry.leave();
          return outcome;
        },
        async stepOut() {
          if (state !== 'waiting' && state !== 'bumped') throw new Error('only a waiting ticket can step out');
          state = 'away';
          const busy = stepAway(p, req.pool, t, RETRY_AFTER_MIN_S);
          pump(req.pool, p);
          return busy;
        },
        async leave() {
          if (state === 'admitted') {
            p.running.delete(t.id);
            p.averageMs = nextAverage(p.averageMs, now() - admittedAt);
          } else if (state === 'waiting' || state === 'bumped') {
            remove(p, t);
          } else return;
          state = 'gone';
          pump(req.pool, p);
        },
      };
      return { ok: true, entry };
    },
    async leaveTicket(req) {
      const p = pools.get(req.pool);
      const t = p?.byId.get(req.ticket);
      if (!p || !t || t.userId !== req.userId || t.waiter) return false;
      remove(p, t);
      pump(req.pool, p);
      return true;
    },
    async waiting(pool) {
      return pools.get(pool)?.order.filter((t) => t.waiter).length ?? 0;
    },
    async snapshot(pool) {
      const p = pools.get(pool);
      if (p) expire(p);
      return {
        now: now(),
        capacity: options.capacity(pool),
        tickets: (p?.order ?? []).map((t) => ({
          ticket: t.id,
          userId: t.userId,
          address: t.address,
          priority: t.lane === 0,
          held: t.waiter !== undefined,
          dueAt: t.waiter ? 0 : t.dueAt,
          expiresAt: t.waiter ? 0 : t.expiresAt,
        })),
        running: [...(p?.running ?? [])],
      };
    },
    async close() {
      for (const p of pools.values()) p.timer?.clear();
      pools.clear();
    },
  };
}
