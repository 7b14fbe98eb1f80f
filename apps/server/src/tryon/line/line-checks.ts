/**
 * What the line promises, checked by the model checker (`line-model.ts`) between the line's
 * snapshot before a step and the one after, with what the harness saw happen during the step.
 */
import type { LineSnapshot } from './admission.js';
import {
  ADMITTED,
  arrivedBefore,
  fail,
  type LineSettings,
  type LineStats,
  type Req,
  type StepLog,
  type TicketInfo,
} from './line-scenario.js';

export interface StepContext {
  settings: LineSettings;
  reqs: readonly Req[];
  /** Every ticket the shoppers were given, with its arrival. */
  tickets: ReadonlyMap<string, TicketInfo>;
  /** Tickets of dead processes: held ones and running ones, with when their leases end. */
  orphans: Map<string, { held: boolean; until: number }>;
  step: StepLog;
  stats: LineStats;
}

/** Throws on the first promise the line broke during the step. */
export function checkStep(ctx: StepContext, prev: LineSnapshot, cur: LineSnapshot): void {
  const { settings, reqs, tickets, orphans, step, stats } = ctx;
  const before = arrivedBefore;
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
    if (!prevIds.has(t.ticket) && !step.issued.has(t.ticket) && !step.reset) fail('a ticket appeared from nowhere', t);
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
}
