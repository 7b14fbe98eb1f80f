import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { startNetworkPath, type NetworkPath } from '../test/stand-ins/network-path.js';
import { waitFor } from '../test/built-process.js';
import {
  COMMAND_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  closeRedis,
  connectRedis,
  probeAll,
  reconnectDelayMs,
  watchConnection,
} from './client.js';

const REDIS = redisServerAvailable();

describe('reconnectDelayMs', () => {
  it('tries again at once, then at most a second apart, for ever', () => {
    expect([1, 2, 3, 4, 5, 50, 5000].map(reconnectDelayMs)).toEqual([0, 250, 500, 750, 1000, 1000, 1000]);
  });
});

describe.skipIf(!REDIS)('a connection whose Redis stops answering without closing it', () => {
  let redis: TestRedis;
  let path: NetworkPath;
  beforeAll(async () => {
    redis = await startRedis();
    path = await startNetworkPath(redis.port);
  });
  afterAll(async () => {
    await path?.close();
    await redis?.stop();
  });

  it('fails a command instead of hanging, is dropped by the watchdog, and works again once Redis is reachable', async () => {
    const client = await connectRedis(`redis://127.0.0.1:${path.port}`);
    let closed = 0;
    client.on('close', () => closed++);
    try {
      await client.set('k', 'before');
      await path.vanish();
      const started = Date.now();
      await expect(client.get('k')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS + 2_000);
      // The watchdog's PING goes unanswered: the connection is dropped (and reconnects, refused meanwhile).
      await waitFor(
        'the dead connection dropped',
        async () => (closed > 0 ? true : undefined),
        PROBE_TIMEOUT_MS + 5_000,
      );
      await path.restore();
      expect(await waitFor('answers again', () => client.get('k').catch(() => undefined), 10_000)).toBe('before');
    } finally {
      await closeRedis(client);
    }
  });

  it('drops a blocking connection with the first dead plain one (a PING waits behind its command)', async () => {
    const url = `redis://127.0.0.1:${path.port}`;
    const plain = await connectRedis(url);
    const blocking = new IORedis(url, { maxRetriesPerRequest: null, retryStrategy: reconnectDelayMs });
    blocking.on('error', () => undefined);
    const unwatch = watchConnection(blocking, { blocking: true });
    let blockingClosed = 0;
    blocking.on('close', () => blockingClosed++);
    try {
      await waitFor(
        'both connected',
        async () => (blocking.status === 'ready' && plain.status === 'ready' ? true : undefined),
        5_000,
      );
      const waiting = blocking.blpop('list', 0).catch((err: Error) => err.message);
      await path.vanish();
      await waitFor(
        'the blocking one dropped',
        async () => (blockingClosed > 0 ? true : undefined),
        PROBE_TIMEOUT_MS + 5_000,
      );
      await path.restore();
      await redis.restart(0);
      // Back on a new connection, its wait goes on there (ioredis sends it again) and is answered.
      await waitFor('reconnected', async () => (blocking.status === 'ready' ? true : undefined), 10_000);
      const pusher = await connectRedis(url);
      await waitFor('pushed', () => pusher.rpush('list', 'job').catch(() => undefined), 10_000);
      expect(await waiting).toEqual(['list', 'job']);
      await closeRedis(pusher);
    } finally {
      unwatch();
      blocking.disconnect();
      await closeRedis(plain);
    }
  });

  it('keeps a connection that answers late because this process was busy', async () => {
    // Straight to Redis: the network path's relay runs in this process, and would be held up too.
    const client = await connectRedis(redis.url);
    let closed = 0;
    client.on('close', () => closed++);
    try {
      await client.ping();
      probeAll();
      // The event loop is blocked past the probe's timeout: the PONG waits unread meanwhile.
      const until = Date.now() + PROBE_TIMEOUT_MS + 500;
      while (Date.now() < until) {
        // busy
      }
      // Once the loop runs again, the answer is read before the watchdog looks.
      expect(await client.ping()).toBe('PONG');
      expect(closed).toBe(0);
    } finally {
      await closeRedis(client);
    }
  });
});
