/**
 * A lock that lets only one process at a time do a piece of periodic work (the retention run)
 * when several API instances share Redis: `SET key token NX PX ttl`, renewed while the work runs,
 * released only by its holder. A holder that dies stops renewing and the lock expires after `ttlMs`.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from './client.js';

export interface RunLock {
  /**
   * Runs `work` if this process gets the lock `name`; false (without running it) when another
   * holds it. Throws LockUnavailableError, without running `work`, when the lock cannot be asked for.
   */
  runExclusive(name: string, work: () => Promise<unknown>): Promise<boolean>;
}

export class LockUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`lock unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'LockUnavailableError';
  }
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export function redisRunLock(redis: Redis, options: { ttlMs?: number; prefix?: string } = {}): RunLock {
  const ttlMs = options.ttlMs ?? 60_000;
  const prefix = options.prefix ?? 'aidressup:lock:';
  return {
    async runExclusive(name, work) {
      const key = prefix + name;
      const token = randomBytes(16).toString('hex');
      let got: string | null;
      try {
        got = await redis.set(key, token, 'PX', ttlMs, 'NX');
      } catch (err) {
        throw new LockUnavailableError(err);
      }
      if (got !== 'OK') return false;
      const renew = setInterval(
        () => {
          redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined);
        },
        Math.max(10, Math.floor(ttlMs / 3)),
      );
      renew.unref();
      try {
        await work();
      } finally {
        clearInterval(renew);
        await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
      }
      return true;
    },
  };
}
