/**
 * The try-on line (`admission.ts`) shared by every API process through Redis (REDIS_URL): one
 * line for the queue, whose slots are the workers' (each worker announces its concurrency,
 * `announceWorkerSlots`). The rules are README.md's; here is how they hold across processes:
 *
 * - Every change is one Lua script (`redis-line-scripts.ts`, which also lists the keys), so two
 *   processes never hand out the same slot or number.
 * - A process admits only the tickets it holds: when a slot is free, the first present tickets in
 *   order get it, and a process whose own ticket is among them takes the slot. After each change
 *   a message on `…:wake` makes every process look again; a tick every `TICK_MS` also renews the
 *   leases of what it holds, so a process that dies loses its places and slots within `LEASE_MS`.
 * - Before any worker has announced its slots the line admits everyone (the queue then holds
 *   try-ons as before). When Redis cannot be reached (or a script fails) a try-on joins this
 *   process's own line instead (`createMemoryLine`, `fallbackCapacity` slots), with the same
 *   bounds: never no bound. Its try-on then usually fails fast, refunded, when it is put on the
 *   queue.
 * - Place updates also go out on `aidressup:line:progress`, since the page's progress stream may
 *   be held by another API process; each process hands them to its own progress hub.
 */
import type { Redis } from '../../redis/client.js';
import { connectRedis, closeRedis, duplicateRedis } from '../../redis/client.js';
import {
  RETRY_AFTER_MAX_S,
  RETRY_AFTER_MIN_S,
  clamp,
  createMemoryLine,
  expectedWaitSeconds,
  maxTicketsOf,
  newTicket,
  realTimers,
  type AdmissionLine,
  type JoinResult,
  type LineBusy,
  type LineEntry,
  type LineLimits,
  type LinePlace,
  type LineSnapshot,
  type LineTimer,
  type WaitOutcome,
} from './admission.js';
import {
  ANNOUNCE,
  JOIN,
  LEASE_MS,
  LEAVE,
  LEAVE_AWAY,
  SNAPSHOT,
  TICK,
  lineKey,
  lineKeys,
} from './redis-line-scripts.js';
import { ProgressMessageSchema, type ProgressHub, type ProgressMessage } from '../progress.js';

const TICK_MS = 500;
const DEFAULT_PREFIX = 'aidressup:line:';

export interface RedisLineOptions extends LineLimits {
  redisUrl: string;
  /** This process's own slots, for the line it falls back to when Redis fails. */
  fallbackCapacity: number;
  /** Where place updates heard from other processes go (this process's SSE subscribers). */
  progress?: Pick<ProgressHub, 'publish'> | undefined;
  prefix?: string;
  /**
   * Connections to use instead of opening its own (tests that start many lines): a command
   * connection and one for subscribing. They stay open after close().
   */
  connections?: { client: Redis; subscriber: Redis } | undefined;
}

interface Waiting {
  pool: string;
  typicalMs: number;
  ticket: string;
  admit(): void;
  /** Someone ahead came back and took the held place: step out, keeping the ticket. */
  bumped(): void;
  /** The place is lost (its lease ran out while Redis was away). */
  gone(): void;
  onPlace?: ((place: LinePlace) => void) | undefined;
  last?: LinePlace | undefined;
}

interface Running {
  pool: string;
  ticket: string;
}

type Reply = (string | number)[];

/** The line shared by the API processes of one Redis. */
export async function createRedisLine(options: RedisLineOptions): Promise<AdmissionLine> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const timers = options.timers ?? realTimers;
  const now = () => timers.now();
  const maxTickets = maxTicketsOf(options);
  // Where try-ons wait when Redis fails: this process's own line, with the same bounds.
  const fallback = createMemoryLine({ ...options, capacity: () => options.fallbackCapacity });
  // Connections of its own, unless given (then they stay open after close()).
  const own = !options.connections;
  const client = options.connections?.client ?? (await connectRedis(options.redisUrl));
  const subscriber = options.connections?.subscriber ?? duplicateRedis(client);
  subscriber.on('error', () => undefined);
  const wakeChannel = `${prefix}wake`;
  const progressChannel = `${prefix}progress`;
  const waiting = new Set<Waiting>();
  const running = new Set<Running>();
  const averages = new Map<string, { averageMs: number; capacity: number }>();
  let closed = false;

  const run = (script: string, pool: string, args: (string | number)[]): Promise<Reply> =>
    client.eval(script, 11, ...lineKeys(prefix, pool), String(now()), ...args.map(String)) as Promise<Reply>;
  const wake = () => {
    client.publish(wakeChannel, '1').catch(() => undefined);
  };

  // One round at a time; a wake during a round asks for another.
  let round: Promise<void> | undefined;
  let again = false;
  const tick = (): Promise<void> => {
    if (round) {
      again = true;
      return round;
    }
    round = (async () => {
      do {
        again = false;
        await tickOnce().catch(() => undefined);
      } while (again && !closed);
    })().finally(() => {
      round = undefined;
    });
    return round;
  };

  async function tickOnce(): Promise<void> {
    const pools = new Set([...waiting].map((w) => w.pool).concat([...running].map((r) => r.pool)));
    let admittedAny = false;
    for (const pool of pools) {
      const mine = [...waiting].filter((w) => w.pool === pool);
      const held = [...running].filter((r) => r.pool === pool).map((r) => r.ticket);
      const typicalMs = mine[0]?.typicalMs ?? 1000;
      const reply = await run(TICK, pool, [typicalMs, mine.length, ...mine.map((w) => w.ticket), ...held]);
      const averageMs = Number(reply[0]);
      const capacity = Number(reply[1]);
      averages.set(pool, { averageMs, capacity });
      mine.forEach((w, i) => {
        const state = Number(reply[2 + 2 * i]);
        const place = Number(reply[3 + 2 * i]);
        if (state === 1) {
          admittedAny = true;
          w.admit();
        } else if (state === 2) w.bumped();
        else if (state === -1) w.gone();
        else if (w.onPlace) {
          const next = { place, waitSeconds: expectedWaitSeconds(place, averageMs, Math.max(1, capacity)) };
          if (w.last?.place !== next.place || w.last.waitSeconds !== next.waitSeconds) {
            w.last = next;
            w.onPlace(next);
          }
        }
      });
    }
    // Places behind the admitted ones moved on (in other processes too).
    if (admittedAny) wake();
  }

  // Every TICK_MS: renew the leases of what this process holds, and look again.
  let timer: LineTimer | undefined;
  const every = () => {
    timer = timers.setTimeout(() => {
      if (closed) return;
      void tick();
      every();
    }, TICK_MS);
  };
  every();
  if (own) await subscriber.connect().catch(() => undefined);
  await subscriber.subscribe(wakeChannel, progressChannel).catch(() => undefined);
  const onMessage = (channel: string, message: string) => {
    if (closed) return;
    if (channel === wakeChannel) {
      void tick();
      return;
    }
    if (channel === progressChannel && options.progress) {
      try {
        const parsed = ProgressMessageSchema.safeParse(JSON.parse(message));
        if (parsed.success) options.progress.publish(parsed.data);
      } catch {
        // not one of ours
      }
    }
  };
  subscriber.on('message', onMessage);

  const line: AdmissionLine = {
    async join(req): Promise<JoinResult> {
      const typicalMs = req.typicalSeconds * 1000;
      let reply: Reply;
      try {
        reply = await run(JOIN, req.pool, [
          req.userId,
          req.priority ? 0 : 1,
          req.ticket ?? '',
          newTicket(),
          options.maxWaiting,
          maxTickets,
          typicalMs,
          options.ticketGraceMs,
          req.address,
          options.maxTicketsPerUser,
          options.maxTicketsPerAddress,
        ]);
      } catch {
        // Redis away, or the script failed: this process's own line and bounds, never none.
        return fallback.join(req);
      }
      const [joined, ticket, place, avg, capacity, retry] = [
        Number(reply[0]),
        String(reply[1]),
        Number(reply[2]),
        Number(reply[3]),
        Number(reply[4]),
        Number(reply[5]),
      ];
      if (joined !== 1 && joined !== 2) {
        const busy: LineBusy = {
          ticket,
          place,
          waitSeconds: expectedWaitSeconds(place, avg, Math.max(1, capacity)),
          retryAfterSeconds: retry,
        };
        const limit = joined === -2 ? 'shopper' : joined === -3 ? 'address' : undefined;
        return { ok: false, busy, limit };
      }
      const joinedAt = now();
      let state: 'waiting' | 'admitted' | 'bumped' | 'lost' | 'away' | 'gone' = 'waiting';
      let admittedAt = 0;
      let resolveTurn!: (outcome: 'admitted' | 'timeout') => void;
      const turn = new Promise<'admitted' | 'timeout'>((resolve) => (resolveTurn = resolve));
      const runningEntry: Running = { pool: req.pool, ticket };
      const w: Waiting = {
        pool: req.pool,
        typicalMs,
        ticket,
        admit: () => {
          if (state !== 'waiting') return;
          waiting.delete(w);
          running.add(runningEntry);
          state = 'admitted';
          admittedAt = now();
          resolveTurn('admitted');
        },
        bumped: () => {
          if (state !== 'waiting') return;
          waiting.delete(w);
          state = 'bumped';
          resolveTurn('timeout');
        },
        gone: () => {
          // Lost the place (the lease ran out, e.g. Redis was away a while): the shopper starts again.
          if (state !== 'waiting') return;
          waiting.delete(w);
          state = 'lost';
          resolveTurn('timeout');
        },
      };
      if (joined === 2) {
        // Let in at once: the slot is this try-on's.
        w.admit();
      } else {
        waiting.add(w);
        await tick();
      }

      const entry: LineEntry = {
        ticket,
        async wait({ signal, onPlace }) {
          if (state === 'admitted') return 'admitted';
          if (state === 'bumped' || state === 'lost') return 'timeout';
          if (state !== 'waiting') return 'aborted';
          w.onPlace = onPlace;
          if (onPlace) {
            const a = averages.get(req.pool);
            w.last = {
              place,
              waitSeconds: expectedWaitSeconds(place, a?.averageMs ?? avg, Math.max(1, a?.capacity ?? capacity)),
            };
            onPlace(w.last);
          }
          let timer: LineTimer | undefined;
          let onAbort: (() => void) | undefined;
          const outcome = await Promise.race<WaitOutcome>([
            turn,
            new Promise<WaitOutcome>((resolve) => {
              timer = timers.setTimeout(() => resolve('timeout'), joinedAt + options.maxWaitMs - now());
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
          w.onPlace = undefined;
          // Only this process's ticks let its tickets in: one may be doing so right now. Hear its
          // answer before deciding, so that a slot just given is used (or left), never lost.
          if (outcome !== 'admitted' && round) await round;
          if ((state as string) === 'admitted') return outcome === 'aborted' ? 'aborted' : 'admitted';
          if (outcome === 'aborted') await entry.leave();
          return outcome;
        },
        async stepOut() {
          if (state !== 'waiting' && state !== 'bumped' && state !== 'lost')
            throw new Error('only a waiting ticket can step out');
          const wasGone = state === 'lost';
          waiting.delete(w);
          state = 'away';
          const retryAfterSeconds = RETRY_AFTER_MIN_S;
          let answer: Reply = [0, String(avg), capacity];
          if (!wasGone) {
            answer = await run(LEAVE, req.pool, [ticket, 'away', 0, options.ticketGraceMs]).catch(() => answer);
            wake();
          }
          const at = Number(answer[0]);
          const averageMs = Number(answer[1]) || avg;
          const cap = Math.max(1, Number(answer[2]));
          // A ticket that lost its place starts again at the back: no ticket to keep.
          const kept = at > 0;
          const shown = kept ? at : place;
          return {
            ticket: kept ? ticket : '',
            place: shown,
            waitSeconds: expectedWaitSeconds(shown, averageMs, cap),
            retryAfterSeconds: clamp(retryAfterSeconds, RETRY_AFTER_MIN_S, RETRY_AFTER_MAX_S),
          };
        },
        async leave() {
          if (state === 'admitted') {
            running.delete(runningEntry);
            state = 'gone';
            await run(LEAVE, req.pool, [ticket, 'running', now() - admittedAt, 0]).catch(() => undefined);
          } else if (state === 'waiting' || state === 'bumped') {
            waiting.delete(w);
            state = 'gone';
            resolveTurn('timeout');
            await run(LEAVE, req.pool, [ticket, 'waiting', -1, 0]).catch(() => undefined);
          } else return;
          wake();
          void tick();
        },
      };
      return { ok: true, entry };
    },
    async leaveTicket(req) {
      const left = await run(LEAVE_AWAY, req.pool, [req.ticket, req.userId]).then(
        (n) => Number(n) === 1,
        () => false,
      );
      if (left) wake();
      return left || fallback.leaveTicket(req);
    },
    async waiting(pool) {
      const held = await client.zcount(lineKey(prefix, pool, 'present'), now(), '+inf').catch(() => 0);
      return held + (await fallback.waiting(pool));
    },
    async snapshot(pool): Promise<LineSnapshot> {
      const at = now();
      const reply = (await run(SNAPSHOT, pool, [])) as string[];
      const count = Number(reply[1]);
      const tickets: LineSnapshot['tickets'] = [];
      for (let i = 0; i < count; i++) {
        const [ticket, userId, address, lane, held, due, expires] = reply.slice(2 + 7 * i, 9 + 7 * i).map(String);
        tickets.push({
          ticket: ticket!,
          userId: userId!,
          address: address!,
          priority: lane === '0',
          held: held === '1',
          dueAt: Number(due),
          expiresAt: Number(expires),
        });
      }
      return { now: at, capacity: Number(reply[0]), tickets, running: reply.slice(2 + 7 * count).map(String) };
    },
    refresh: () => tick(),
    relayProgress: async (message: ProgressMessage) => {
      await client.publish(progressChannel, JSON.stringify(message));
    },
    async close() {
      closed = true;
      timer?.clear();
      await fallback.close();
      subscriber.off('message', onMessage);
      if (own) await Promise.allSettled([closeRedis(subscriber), closeRedis(client)]);
      else await subscriber.unsubscribe(wakeChannel, progressChannel).catch(() => undefined);
    },
  };
  return line;
}

/**
 * A worker announces how many try-ons it runs at once, renewed until `stop()`; the line admits no
 * more than the live workers' slots. Best effort: while Redis is away nothing is announced.
 */
export async function announceWorkerSlots(options: {
  redisUrl: string;
  workerId: string;
  slots: number;
  pool: string;
  prefix?: string;
}): Promise<{ stop(): Promise<void> }> {
  const client: Redis = await connectRedis(options.redisUrl);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const [workers, slots] = [lineKey(prefix, options.pool, 'workers'), lineKey(prefix, options.pool, 'slots')];
  const announce = (n: number) =>
    client.eval(ANNOUNCE, 2, workers, slots, String(Date.now()), options.workerId, String(n), String(LEASE_MS));
  await announce(options.slots).catch(() => undefined);
  const timer = setInterval(() => void announce(options.slots).catch(() => undefined), LEASE_MS / 3);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await announce(0).catch(() => undefined);
      // Someone may be waiting on the slots that just went: let the line look again.
      await client.publish(`${options.prefix ?? DEFAULT_PREFIX}wake`, '1').catch(() => undefined);
      await closeRedis(client);
    },
  };
}
