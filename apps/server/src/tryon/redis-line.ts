/**
 * The try-on line (`admission.ts`) shared by every API process through Redis (REDIS_URL): one
 * line for the queue, whose slots are the workers' (each worker announces its concurrency,
 * `announceWorkerSlots`). The rules are admission.ts's; here is how they hold across processes:
 *
 * - Every change is one Lua script, so two processes never hand out the same slot or number.
 * - Keys under `aidressup:line:{pool}:` — `seq` (ticket numbers), `order` (every ticket in line,
 *   scored lane then number), `owner` (ticket → user), `present` (tickets whose request a process
 *   holds, scored by the hold's lease), `away` (tickets kept after ENGINE_BUSY, scored by expiry),
 *   `running` (admitted try-ons, scored by lease), `avg` (recent try-on time, ms).
 * - A process admits only the tickets it holds: when a slot is free, the first present tickets in
 *   order get it, and a process whose own ticket is among them takes the slot. After each change
 *   a message on `…:wake` makes every process look again; a tick every `TICK_MS` also renews the
 *   leases of what it holds, so a process that dies loses its places and slots within `LEASE_MS`.
 * - Before any worker has announced its slots the line admits everyone (the queue then holds
 *   try-ons as before). When Redis cannot be reached the line admits at once: the try-on then
 *   fails fast, refunded, when it is put on the queue.
 * - Place updates also go out on `aidressup:line:progress`, since the page's progress stream may
 *   be held by another API process; each process hands them to its own progress hub.
 */
import type { Redis } from '../redis/client.js';
import { connectRedis, closeRedis } from '../redis/client.js';
import {
  DUE_BACK_SLACK_MS,
  RETRY_AFTER_MAX_S,
  RETRY_AFTER_MIN_S,
  clamp,
  expectedWaitSeconds,
  newTicket,
  type AdmissionLine,
  type JoinResult,
  type LineBusy,
  type LineEntry,
  type LineLimits,
  type LinePlace,
  type WaitOutcome,
} from './admission.js';
import { ProgressMessageSchema, type ProgressHub, type ProgressMessage } from './progress.js';

const TICK_MS = 500;
const LEASE_MS = 5_000;
/** An admitted try-on's lease: renewed by the tick while it runs. */
const RUNNING_LEASE_MS = 15_000;
const DEFAULT_PREFIX = 'aidressup:line:';

/** Shared by every script: drop what expired, and the pool's capacity (-1: no worker announced, unlimited). */
const PRELUDE = `
local now = tonumber(ARGV[1])
local K_seq, K_order, K_owner, K_present, K_away, K_running, K_avg, K_workers, K_slots, K_due = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
redis.call('ZREMRANGEBYSCORE', K_running, '-inf', now)
for _, set in ipairs({K_present, K_away}) do
  local gone = redis.call('ZRANGEBYSCORE', set, '-inf', now)
  for _, t in ipairs(gone) do
    redis.call('ZREM', K_order, t); redis.call('ZREM', K_present, t); redis.call('ZREM', K_away, t); redis.call('ZREM', K_due, t); redis.call('HDEL', K_owner, t)
  end
end
redis.call('ZREMRANGEBYSCORE', K_due, '-inf', now)
local deadWorkers = redis.call('ZRANGEBYSCORE', K_workers, '-inf', now)
for _, w in ipairs(deadWorkers) do redis.call('ZREM', K_workers, w); redis.call('HDEL', K_slots, w) end
local capacity = -1
local live = redis.call('ZRANGE', K_workers, 0, -1)
if #live > 0 then
  capacity = 0
  for _, w in ipairs(live) do capacity = capacity + (tonumber(redis.call('HGET', K_slots, w)) or 0) end
end
local function average(typical)
  return tonumber(redis.call('GET', K_avg)) or typical
end
-- whether a held ticket, or one due back, stands before the one at rank r
local function heldAhead(r)
  if r <= 0 then return false end
  local ahead = redis.call('ZRANGE', K_order, 0, r - 1)
  for _, t in ipairs(ahead) do
    if redis.call('ZSCORE', K_present, t) or redis.call('ZSCORE', K_due, t) then return true end
  end
  return false
end
-- steps a ticket out of the held requests, keeping its place (answered ENGINE_BUSY)
local function stepAway(t, retry, grace)
  redis.call('ZREM', K_present, t)
  redis.call('ZADD', K_away, now + retry * 1000 + grace, t)
  redis.call('ZADD', K_due, now + retry * 1000 + ${DUE_BACK_SLACK_MS}, t)
end
`;

/**
 * ARGV: now, userId, lane, ticket or '', a new ticket, maxWaiting, maxTickets, typical ms, grace ms.
 * Answers {joined 1|0|-1, ticket, place, average ms, capacity, retryAfter s}.
 */
const JOIN = `${PRELUDE}
local userId, lane, ticket, fresh = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local maxWaiting, maxTickets, typical, grace = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local avg = average(typical)
if ticket ~= '' then
  if redis.call('HGET', K_owner, ticket) ~= userId or redis.call('ZSCORE', K_present, ticket) then ticket = '' end
end
if ticket == '' then
  local length = redis.call('ZCARD', K_order)
  if length >= maxTickets then return {-1, '', length + 1, tostring(avg), capacity, ${RETRY_AFTER_MAX_S}} end
  ticket = fresh
  local seq = redis.call('INCR', K_seq)
  redis.call('ZADD', K_order, lane * 1e13 + seq, ticket)
  redis.call('HSET', K_owner, ticket, userId)
end
local rank = redis.call('ZRANK', K_order, ticket)
local place = rank + 1
local mustWait = (capacity >= 0 and redis.call('ZCARD', K_running) >= capacity) or heldAhead(rank)
if mustWait and redis.call('ZCARD', K_present) >= maxWaiting then
  -- back with a place ahead of the last one held: that one steps out instead
  local last = nil
  local tail = redis.call('ZREVRANGE', K_order, 0, -1)
  for _, t in ipairs(tail) do
    if redis.call('ZSCORE', K_present, t) then last = t; break end
  end
  if last and maxWaiting > 0 and redis.call('ZRANK', K_order, last) > rank then
    stepAway(last, ${RETRY_AFTER_MIN_S}, grace)
  else
    local ahead = math.max(0, place - maxWaiting)
    local retry = math.ceil(ahead * avg / math.max(1, capacity) / 1000)
    retry = math.min(${RETRY_AFTER_MAX_S}, math.max(${RETRY_AFTER_MIN_S}, retry))
    stepAway(ticket, retry, grace)
    return {0, ticket, place, tostring(avg), capacity, retry}
  end
end
redis.call('ZREM', K_away, ticket)
redis.call('ZREM', K_due, ticket)
redis.call('ZADD', K_present, now + ${LEASE_MS}, ticket)
return {1, ticket, place, tostring(avg), capacity, 0}
`;

/**
 * ARGV: now, typical ms, the number of waiting tickets this process holds, those tickets, then
 * the running ones it holds. Renews their leases; admits those of its waiting tickets that are
 * among the first present ones while slots are free. Answers {average ms, capacity, then per
 * waiting ticket: 1 admitted | 0 waiting | -1 gone, and its place}.
 */
const TICK = `${PRELUDE}
local typical, n = tonumber(ARGV[2]), tonumber(ARGV[3])
local mine = {}
for i = 1, n do
  local t = ARGV[3 + i]
  mine[t] = true
  redis.call('ZADD', K_present, 'XX', now + ${LEASE_MS}, t)
end
for i = 4 + n, #ARGV do redis.call('ZADD', K_running, 'XX', now + ${RUNNING_LEASE_MS}, ARGV[i]) end
local admitted = {}
local free = -1
if capacity >= 0 then free = capacity - redis.call('ZCARD', K_running) end
if free ~= 0 then
  local line = redis.call('ZRANGE', K_order, 0, -1)
  for _, t in ipairs(line) do
    if free == 0 then break end
    -- a slot is kept for a ticket holder ahead who is due back
    if not redis.call('ZSCORE', K_present, t) and redis.call('ZSCORE', K_due, t) then break end
    if redis.call('ZSCORE', K_present, t) then
      if not mine[t] then
        if free > 0 then free = free - 1 end
      else
        redis.call('ZREM', K_order, t); redis.call('ZREM', K_present, t); redis.call('HDEL', K_owner, t)
        redis.call('ZADD', K_running, now + ${RUNNING_LEASE_MS}, t)
        admitted[t] = true
        if free > 0 then free = free - 1 end
      end
    end
  end
end
local out = {tostring(average(typical)), capacity}
for i = 1, n do
  local t = ARGV[3 + i]
  if admitted[t] then
    table.insert(out, 1); table.insert(out, 0)
  else
    local rank = redis.call('ZRANK', K_order, t)
    if rank and redis.call('ZSCORE', K_present, t) then
      table.insert(out, 0); table.insert(out, rank + 1)
    elseif rank and redis.call('ZSCORE', K_away, t) then
      -- someone ahead came back and took the held place: this one steps out, keeping its ticket
      table.insert(out, 2); table.insert(out, rank + 1)
    else
      table.insert(out, -1); table.insert(out, 0)
    end
  end
end
return out
`;

/** ARGV: now, ticket, kind ('waiting' | 'running' | 'away'), ms it ran, grace ms. Answers {place, average, capacity}. */
const LEAVE = `${PRELUDE}
local ticket, kind, ran, grace = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
if kind == 'running' then
  if redis.call('ZREM', K_running, ticket) == 1 and ran >= 0 then
    local avg = tonumber(redis.call('GET', K_avg))
    if avg then avg = avg + 0.2 * (ran - avg) else avg = ran end
    redis.call('SET', K_avg, tostring(avg), 'PX', 86400000)
  end
  return {0, '0', capacity}
end
if kind == 'away' then
  local rank = redis.call('ZRANK', K_order, ticket)
  if not rank then return {0, '0', capacity} end
  if redis.call('ZSCORE', K_present, ticket) then stepAway(ticket, ${RETRY_AFTER_MIN_S}, grace) end
  return {rank + 1, tostring(average(0)), capacity}
end
redis.call('ZREM', K_order, ticket); redis.call('ZREM', K_present, ticket); redis.call('ZREM', K_away, ticket); redis.call('ZREM', K_due, ticket); redis.call('HDEL', K_owner, ticket)
return {0, '0', capacity}
`;

/** ARGV: now, worker id, slots, lease ms (slots 0: the worker leaves). */
const ANNOUNCE = `
local now = tonumber(ARGV[1])
if tonumber(ARGV[3]) <= 0 then
  redis.call('ZREM', KEYS[1], ARGV[2]); redis.call('HDEL', KEYS[2], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
`;

function keysOf(prefix: string, pool: string): string[] {
  const p = `${prefix}${pool}:`;
  return ['seq', 'order', 'owner', 'present', 'away', 'running', 'avg', 'workers', 'slots', 'due'].map((k) => p + k);
}

export interface RedisLineOptions extends LineLimits {
  redisUrl: string;
  /** Where place updates heard from other processes go (this process's SSE subscribers). */
  progress?: Pick<ProgressHub, 'publish'> | undefined;
  prefix?: string;
  now?: () => number;
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
  const now = options.now ?? Date.now;
  const maxTickets = Math.max(100, 8 * options.maxWaiting);
  const client = await connectRedis(options.redisUrl);
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  const wakeChannel = `${prefix}wake`;
  const progressChannel = `${prefix}progress`;
  const waiting = new Set<Waiting>();
  const running = new Set<Running>();
  const averages = new Map<string, { averageMs: number; capacity: number }>();
  let closed = false;

  const run = (script: string, pool: string, args: (string | number)[]): Promise<Reply> =>
    client.eval(script, 10, ...keysOf(prefix, pool), String(now()), ...args.map(String)) as Promise<Reply>;
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

  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  await subscriber.connect().catch(() => undefined);
  await subscriber.subscribe(wakeChannel, progressChannel).catch(() => undefined);
  subscriber.on('message', (channel: string, message: string) => {
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
  });

  /** Redis away: everyone is admitted at once (the queue then fails fast, refunded). */
  const openEntry = (): LineEntry => ({
    ticket: newTicket(),
    wait: async () => 'admitted',
    stepOut: async () => {
      throw new Error('an admitted try-on cannot step out');
    },
    leave: async () => undefined,
  });

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
        ]);
      } catch {
        return { ok: true, entry: openEntry() };
      }
      const [joined, ticket, place, avg, capacity, retry] = [
        Number(reply[0]),
        String(reply[1]),
        Number(reply[2]),
        Number(reply[3]),
        Number(reply[4]),
        Number(reply[5]),
      ];
      if (joined !== 1) {
        const busy: LineBusy = {
          ticket,
          place,
          waitSeconds: expectedWaitSeconds(place, avg, Math.max(1, capacity)),
          retryAfterSeconds: retry,
        };
        return { ok: false, busy };
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
      waiting.add(w);
      await tick();

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
          let timer: NodeJS.Timeout | undefined;
          let onAbort: (() => void) | undefined;
          const outcome = await Promise.race<WaitOutcome>([
            turn,
            new Promise<WaitOutcome>((resolve) => {
              timer = setTimeout(() => resolve('timeout'), Math.max(0, joinedAt + options.maxWaitMs - now()));
            }),
            new Promise<WaitOutcome>((resolve) => {
              if (!signal) return;
              onAbort = () => resolve('aborted');
              if (signal.aborted) onAbort();
              else signal.addEventListener('abort', onAbort, { once: true });
            }),
          ]);
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          w.onPlace = undefined;
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
    async waiting(pool) {
      const [, , , present] = keysOf(prefix, pool);
      return client.zcount(present!, now(), '+inf');
    },
    relayProgress: async (message: ProgressMessage) => {
      await client.publish(progressChannel, JSON.stringify(message));
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await Promise.allSettled([closeRedis(subscriber), closeRedis(client)]);
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
  const keys = keysOf(options.prefix ?? DEFAULT_PREFIX, options.pool);
  const [workers, slots] = [keys[7]!, keys[8]!];
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
