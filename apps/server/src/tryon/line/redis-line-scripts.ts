/**
 * The Lua scripts of the line shared through Redis (`redis-line.ts`): every change to a pool's
 * line is one of them, so two API processes never hand out the same slot, number or place.
 *
 * Keys under `aidressup:line:{pool}:` (`lineKeys`): `seq` (ticket numbers), `order` (every ticket
 * in line, scored lane then number), `owner` (ticket → user), `addr` (ticket → client address),
 * `present` (tickets whose request a process holds, scored by the hold's lease), `away` (tickets
 * kept after ENGINE_BUSY, scored by expiry), `due` (away tickets a slot is kept for, scored by when
 * that stops), `running` (admitted try-ons, scored by lease), `avg` (recent try-on time, ms),
 * `workers` and `slots` (the live workers and their concurrency).
 */
import { DUE_BACK_SLACK_MS, RETRY_AFTER_MAX_S, RETRY_AFTER_MIN_S } from './admission.js';

/** How long a held request's place lasts unless its process renews it (every tick). */
export const LEASE_MS = 5_000;
/** An admitted try-on's lease: renewed by the tick while it runs. */
export const RUNNING_LEASE_MS = 15_000;

const KEY_NAMES = [
  'seq',
  'order',
  'owner',
  'present',
  'away',
  'running',
  'avg',
  'workers',
  'slots',
  'due',
  'addr',
] as const;

export function lineKeys(prefix: string, pool: string): string[] {
  const p = `${prefix}${pool}:`;
  return KEY_NAMES.map((k) => p + k);
}

export function lineKey(prefix: string, pool: string, name: (typeof KEY_NAMES)[number]): string {
  return `${prefix}${pool}:${name}`;
}

/** Shared by every script: drop what expired, and the pool's capacity (-1: no worker announced, unlimited). */
const PRELUDE = `
local now = tonumber(ARGV[1])
local K_seq, K_order, K_owner, K_present, K_away, K_running, K_avg, K_workers, K_slots, K_due, K_addr = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11]
-- a ticket leaves the line
local function forget(t)
  redis.call('ZREM', K_order, t); redis.call('ZREM', K_present, t); redis.call('ZREM', K_away, t); redis.call('ZREM', K_due, t)
  redis.call('HDEL', K_owner, t); redis.call('HDEL', K_addr, t)
end
redis.call('ZREMRANGEBYSCORE', K_running, '-inf', now)
for _, set in ipairs({K_present, K_away}) do
  local gone = redis.call('ZRANGEBYSCORE', set, '-inf', now)
  for _, t in ipairs(gone) do forget(t) end
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
  -- never due back after it is forgotten
  redis.call('ZADD', K_due, now + retry * 1000 + math.min(${DUE_BACK_SLACK_MS}, grace), t)
end
`;

/**
 * ARGV: now, userId, lane, ticket or '', a new ticket, maxWaiting, maxTickets, typical ms, grace
 * ms, address, tickets per user, tickets per address.
 * Answers {joined, ticket, place, average ms, capacity, retryAfter s}; joined is 2 (let in at once:
 * a free slot and nobody ahead), 1 (held, waiting), 0 (away: ENGINE_BUSY with the ticket), -1
 * (refused without a ticket: the line is full), -2 or -3 (refused: the shopper, or the address,
 * holds as many tickets as one may).
 */
export const JOIN = `${PRELUDE}
local userId, lane, ticket, fresh = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local maxWaiting, maxTickets, typical, grace = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local address, perUser, perAddress = ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])
local avg = average(typical)
if ticket ~= '' then
  if redis.call('HGET', K_owner, ticket) ~= userId or redis.call('ZSCORE', K_present, ticket) then ticket = '' end
end
if ticket == '' then
  local line = redis.call('ZRANGE', K_order, 0, -1)
  local function refused(code) return {code, '', #line + 1, tostring(avg), capacity, ${RETRY_AFTER_MAX_S}} end
  -- the shopper's tickets, and their earliest place that no request holds
  local mine, earliest = 0, nil
  for _, t in ipairs(line) do
    if redis.call('HGET', K_owner, t) == userId then
      mine = mine + 1
      if not earliest and not redis.call('ZSCORE', K_present, t) then earliest = t end
    end
  end
  if mine >= perUser then
    if not earliest then return refused(-2) end
    ticket = earliest
  else
    local here = 0
    for _, a in ipairs(redis.call('HVALS', K_addr)) do
      if a == address then here = here + 1 end
    end
    if #line >= maxTickets then return refused(-1) end
    if here >= perAddress then return refused(-3) end
    ticket = fresh
    local seq = redis.call('INCR', K_seq)
    redis.call('ZADD', K_order, lane * 1e13 + seq, ticket)
    redis.call('HSET', K_owner, ticket, userId)
    redis.call('HSET', K_addr, ticket, address)
  end
end
local rank = redis.call('ZRANK', K_order, ticket)
local place = rank + 1
local mustWait = (capacity >= 0 and redis.call('ZCARD', K_running) >= capacity) or heldAhead(rank)
if not mustWait then
  -- a free slot and nobody ahead: let in at once
  forget(ticket)
  redis.call('ZADD', K_running, now + ${RUNNING_LEASE_MS}, ticket)
  return {2, ticket, place, tostring(avg), capacity, 0}
end
if redis.call('ZCARD', K_present) >= maxWaiting then
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
 * waiting ticket: 1 admitted | 0 waiting | 2 stepped out (bumped) | -1 gone, and its place}.
 */
export const TICK = `${PRELUDE}
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
        forget(t)
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

/**
 * ARGV: now, ticket, kind ('waiting' | 'running' | 'away'), ms it ran, grace ms. Answers {place,
 * average, capacity}. Leaving while waiting also frees the slot when a tick (of any process) let
 * the ticket in just before: that tick's answer may still be on its way to this process.
 */
export const LEAVE = `${PRELUDE}
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
forget(ticket)
redis.call('ZREM', K_running, ticket)
return {0, '0', capacity}
`;

/** ARGV: now, ticket, user. An away ticket's holder gives the place up. Answers 1, or 0 (not theirs, held, gone). */
export const LEAVE_AWAY = `${PRELUDE}
local ticket, userId = ARGV[2], ARGV[3]
if redis.call('HGET', K_owner, ticket) ~= userId or redis.call('ZSCORE', K_present, ticket) then return 0 end
forget(ticket)
return 1
`;

/**
 * ARGV: now. The pool's line as it stands: {capacity, number of tickets, then per ticket in order:
 * ticket, user, address, lane, held 1|0, due (ms, 0: none), expiry (ms, 0: held), then the running
 * tickets}.
 */
export const SNAPSHOT = `${PRELUDE}
local line = redis.call('ZRANGE', K_order, 0, -1, 'WITHSCORES')
local out = {capacity, #line / 2}
for i = 1, #line, 2 do
  local t = line[i]
  local held = 0
  if redis.call('ZSCORE', K_present, t) then held = 1 end
  local lane = 0
  if tonumber(line[i + 1]) >= 1e13 then lane = 1 end
  table.insert(out, t)
  table.insert(out, redis.call('HGET', K_owner, t) or '')
  table.insert(out, redis.call('HGET', K_addr, t) or '')
  table.insert(out, lane)
  table.insert(out, held)
  table.insert(out, redis.call('ZSCORE', K_due, t) or '0')
  table.insert(out, redis.call('ZSCORE', K_away, t) or '0')
end
for _, t in ipairs(redis.call('ZRANGE', K_running, 0, -1)) do table.insert(out, t) end
return out
`;

/** ARGV: now, worker id, slots, lease ms (slots 0: the worker leaves). */
export const ANNOUNCE = `
local now = tonumber(ARGV[1])
if tonumber(ARGV[3]) <= 0 then
  redis.call('ZREM', KEYS[1], ARGV[2]); redis.call('HDEL', KEYS[2], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
`;
