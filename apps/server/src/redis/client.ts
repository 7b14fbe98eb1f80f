/**
 * The API's shared Redis connection (REDIS_URL) for state several API instances must agree on:
 * rate-limit counters and the retention lock. `ioredis` is imported only when REDIS_URL is set.
 * (The try-on queue keeps its own BullMQ connections, with the same reconnection policy.)
 */
import type { Redis } from 'ioredis';

export type { Redis };

/** The longest pause between two attempts to reach Redis again. */
export const RECONNECT_MAX_DELAY_MS = 1_000;

/**
 * Every Redis connection of the API and the worker (ioredis' `retryStrategy`): after a lost
 * connection, try again at once, then every 250, 500, 750 ms, then every second, for ever. Redis
 * restarted (its port refusing connections meanwhile) is reached within a second of its return,
 * however long it was away. (BullMQ's default waits up to 20 s between attempts, so a queue
 * connection could stay down for up to 20 s after Redis was back.)
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(Math.max(0, attempt - 1) * 250, RECONNECT_MAX_DELAY_MS);
}

export async function connectRedis(redisUrl: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, {
    // Fail fast rather than queue commands while Redis is away: a rate limit that cannot be
    // checked is skipped, a lock that cannot be taken is not taken.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: reconnectDelayMs,
    lazyConnect: true,
  });
  // Errors surface through the commands that need Redis; don't let the emitter crash the process.
  client.on('error', () => undefined);
  await client.connect().catch(() => undefined);
  return client;
}

/** Closes politely when Redis answers, at once when it does not. */
export async function closeRedis(client: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.quit().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 2_000);
    }),
  ]).finally(() => clearTimeout(timer));
  client.disconnect();
}
