/**
 * What a shopper already holds and has not paid for: the units of their try-ons that took a place
 * in line (waiting, or let in and not charged yet). Before a new try-on takes a place, its units
 * plus those must fit in what the shopper can spend (`spendableUnits`): one that cannot be paid
 * for even if every other one succeeds is answered NO_CREDITS at once, instead of waiting in
 * line for a charge that must fail. The charge itself stays the authority.
 *
 * A hold is given back just before its try-on is charged (the charge then counts in the balance
 * instead), or when the try-on leaves the line uncharged. Within one process the shopper's
 * checks and charges take turns, so the balance read and the holds counted always agree. Across
 * API processes (REDIS_URL) the holds are shared in Redis; a check made while another process is
 * charging may count that unit in neither (it lets one more in, which the charge then refuses),
 * never in both (it never refuses one that could be paid for).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from '../../redis/client.js';

export interface Hold {
  /** Gives the hold back (idempotent). */
  release(): Promise<void>;
}

export interface ShopperHolds {
  /**
   * Takes a hold of `units` for the shopper unless those they hold plus `units` are more than
   * `spendable()` (read after this shopper's earlier checks and charges in this process are
   * done); undefined then.
   */
  take(userId: string, units: number, spendable: () => Promise<number>): Promise<Hold | undefined>;
  /** Gives `hold` back, then runs `charge`, with no check of the same shopper in between (in this process). */
  charge<T>(userId: string, hold: Hold, charge: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The shopper's checks and charges one after the other (in this process). */
function turns() {
  const tails = new Map<string, Promise<unknown>>();
  return async function inTurn<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const before = tails.get(userId) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    tails.set(userId, tail);
    try {
      return await mine;
    } finally {
      if (tails.get(userId) === tail) tails.delete(userId);
    }
  };
}

/** The holds of one API process (no REDIS_URL, or Redis away). */
export function createMemoryHolds(): ShopperHolds {
  const held = new Map<string, Map<symbol, number>>();
  const inTurn = turns();
  const sum = (userId: string) => [...(held.get(userId)?.values() ?? [])].reduce((a, b) => a + b, 0);
  return {
    take: (userId, units, spendable) =>
      inTurn(userId, async () => {
        const budget = await spendable();
        if (sum(userId) + units > budget) return undefined;
        const id = Symbol(userId);
        const mine = held.get(userId) ?? new Map<symbol, number>();
        mine.set(id, units);
        held.set(userId, mine);
        return {
          release: async () => {
            const m = held.get(userId);
            m?.delete(id);
            if (m?.size === 0) held.delete(userId);
          },
        };
      }),
    charge: (userId, hold, charge) =>
      inTurn(userId, async () => {
        await hold.release();
        return charge();
      }),
    close: async () => held.clear(),
  };
}

/**
 * ARGV: now, hold id, units, budget, expiry (ms). Drops expired holds, then adds this one unless
 * the shopper's holds plus it pass the budget. Answers 1 (taken) or 0.
 */
const TAKE = `
local now, id, units, budget, expires = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local sum = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local u, e = string.match(all[i + 1], '^(%d+):(%d+)$')
  if not e or tonumber(e) <= now then redis.call('HDEL', KEYS[1], all[i]) else sum = sum + tonumber(u) end
end
if sum + units > budget then return 0 end
redis.call('HSET', KEYS[1], id, units .. ':' .. expires)
redis.call('PEXPIREAT', KEYS[1], expires)
return 1
`;

export interface RedisHoldsOptions {
  client: Redis;
  /**
   * How long a hold lasts at most: longer than a try-on may wait in line and have its photos
   * checked; a process that dies leaves its holds until then.
   */
  ttlMs: number;
  prefix?: string;
}

/** The holds shared by the API processes of one Redis; when Redis fails, this process's own. */
export function createRedisHolds(options: RedisHoldsOptions): ShopperHolds {
  const prefix = options.prefix ?? 'aidressup:holds:';
  const fallback = createMemoryHolds();
  const inTurn = turns();
  const key = (userId: string) => `${prefix}${userId}`;
  return {
    async take(userId, units, spendable) {
      const taken = await inTurn(userId, async () => {
        const budget = await spendable();
        const id = randomBytes(12).toString('base64url');
        const now = Date.now();
        const ok = await options.client.eval(TAKE, 1, key(userId), now, id, units, budget, now + options.ttlMs);
        return Number(ok) === 1 ? { id } : null;
      }).catch(() => undefined);
      // Redis away (or the script failed): this process's own holds, never none.
      if (taken === undefined) return fallback.take(userId, units, spendable);
      if (taken === null) return undefined;
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          // Best effort: one left behind (Redis away) expires with its ttl.
          await options.client.hdel(key(userId), taken.id).catch(() => undefined);
        },
      };
    },
    charge: (userId, hold, charge) =>
      inTurn(userId, async () => {
        await hold.release();
        return charge();
      }),
    close: () => fallback.close(),
  };
}
