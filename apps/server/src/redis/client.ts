/**
 * The API's shared Redis connection (REDIS_URL) for state several API instances must agree on:
 * rate-limit counters and the retention lock. `ioredis` is imported only when REDIS_URL is set.
 * (The try-on queue keeps its own BullMQ connections.)
 */
import type { Redis } from 'ioredis';

export type { Redis };

export async function connectRedis(redisUrl: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, {
    // Fail fast rather than queue commands while Redis is away: a rate limit that cannot be
    // checked is skipped, a lock that cannot be taken is not taken.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
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
