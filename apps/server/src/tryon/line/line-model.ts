/**
 * A model checker for the try-on line (`admission.ts` in memory, `redis-line.ts` over a real
 * Redis): plays a scenario of joins, leaves, charges, engine starts, finishes, time passing and
 * process crashes against the line, drives its clock by hand, and after every step, once the line
 * has settled, checks what the line promises (`line-checks.ts`; the list is in README.md, "What
 * the model checks").
 */
import type { AdmissionLine, LineSnapshot, WaitOutcome } from './admission.js';
import { chargeIfStillThere } from '../pipeline.js';
import { checkStep } from './line-checks.js';
import {
  ADDRESSES,
  LIVE,
  ManualTimers,
  SHOPPERS,
  STEP_MS,
  STUCK_MS,
  fail,
  newStep,
  type LineStats,
  type LineWorld,
  type Op,
  type Req,
  type ReqState,
  type Scenario,
  type Shopper,
  type TicketInfo,
} from './line-scenario.js';

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
      // Which bound refused it says who is limited: the shopper, their address, or (none) the line.
      const shopperBound = mine.length >= settings.maxTicketsPerUser && mine.every((t) => t.held);
      const lineFull = !shopperBound && prev.tickets.length >= settings.maxTickets;
      const addressBound =
        !shopperBound &&
        !lineFull &&
        mine.length < settings.maxTicketsPerUser &&
        here.length >= settings.maxTicketsPerAddress;
      if (!shopperBound && !lineFull && !addressBound) fail('refused without a ticket, at no bound', { shopper, prev });
      const limit = shopperBound ? 'shopper' : addressBound ? 'address' : undefined;
      if (result.limit !== limit) fail('refused naming the wrong bound', { got: result.limit, limit, shopper, prev });
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
    checkStep({ settings, reqs, tickets, orphans, step, stats }, prev, cur);
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
