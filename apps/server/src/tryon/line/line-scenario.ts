/**
 * The scenarios of the line's model checker (`line-model.ts`): the clock it drives by hand, the
 * settings and steps of a scenario, the line under test (a world of processes), the counts of what
 * happened, and the harness's own records of requests, shoppers and tickets.
 */
import type { AdmissionLine, LineEntry, LineTimer, LineTimers } from './admission.js';

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

export type ReqState = 'held' | 'charging' | 'charged' | 'running' | 'away' | 'ended' | 'crashed';

export interface Req {
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

export interface Shopper {
  userId: string;
  address: string;
  /** Tickets the shopper was given (the page keeps the last one; a shopper may have several tabs). */
  tickets: string[];
}

export interface TicketInfo {
  seq: number;
  priority: boolean;
}

export const SHOPPERS = 6;
export const ADDRESSES = 3;
/** Time moves in steps no longer than this, each settled: live processes renew their leases (5 s). */
export const STEP_MS = 4_000;
/** Real time a reaction may take at most (the machine may be busy). */
export const STUCK_MS = 20_000;
export const LIVE: readonly ReqState[] = ['held', 'charging', 'charged', 'running'];
export const ADMITTED: readonly ReqState[] = ['charging', 'charged', 'running'];

class Violation extends Error {}

export function fail(message: string, details?: unknown): never {
  throw new Violation(details === undefined ? message : `${message}: ${JSON.stringify(details)}`);
}

/** What happened during one step, to explain the line's changes. */
export interface StepLog {
  admitted: Set<string>;
  aborted: Set<string>;
  issued: Set<string>;
  /** Tickets that stepped out, with when they expire. */
  away: Map<string, number>;
  /** Someone joined (and may have bumped the last one held). */
  joined: boolean;
  /** The line was emptied by a crash (a line of one process). */
  reset: boolean;
}

export function newStep(): StepLog {
  return { admitted: new Set(), aborted: new Set(), issued: new Set(), away: new Map(), joined: false, reset: false };
}

/** Whether ticket `a` arrived before `b` (the priority lane first). */
export function arrivedBefore(a: TicketInfo, b: TicketInfo): boolean {
  const [la, lb] = [a.priority ? 0 : 1, b.priority ? 0 : 1];
  return la < lb || (la === lb && a.seq < b.seq);
}
