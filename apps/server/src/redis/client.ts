/**
 * The API's shared Redis connection (REDIS_URL) for state several API instances must agree on:
 * rate-limit counters and the retention lock. `ioredis` is imported only when REDIS_URL is set.
 * (The try-on queue keeps its own BullMQ connections, with the same reconnection policy.)
 *
 * Every connection of the process is also looked after by `watchConnection`: a connection whose
 * Redis went away without closing it (its host vanished, a network path dropped it: no FIN, no
 * RST) would otherwise wait for ever, every command on it hanging. The watchdog sends PING on each
 * one every second; one unanswered for PROBE_TIMEOUT_MS is dropped (its socket destroyed), so
 * ioredis reconnects as after a restart, and the connections that block (a queue's event stream,
 * which cannot answer a PING while it waits) are dropped with it.
 */
import type { Redis } from 'ioredis';

export type { Redis };

/** The longest pause between two attempts to reach Redis again. */
const RECONNECT_MAX_DELAY_MS = 1_000;
/** How often the watchdog sends PING on each connection. */
const PROBE_EVERY_MS = 1_000;
/** A PING unanswered this long: the connection is dead. */
export const PROBE_TIMEOUT_MS = 3_000;
/**
 * A blocking connection (XREAD BLOCK of a queue's event stream, at most 10 s) answers a PING only
 * once its command returns: dead only past this, or with the first dead plain one.
 */
const BLOCKING_PROBE_TIMEOUT_MS = 15_000;
/** The longest a command of the API's own connection may take before it fails (a rate limit is then skipped). */
export const COMMAND_TIMEOUT_MS = 2_000;

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

/** ioredis' words for a command that could not reach Redis (rather than one Redis refused). */
const UNREACHABLE =
  /Connection is closed|Stream isn't writeable|Reached the max retries per request|Command timed out|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/i;

/** Whether `err` says Redis could not be reached (a connection refused, closed or silent). */
export function isRedisUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, message } = err as { name?: unknown; message?: unknown };
  if (name === 'MaxRetriesPerRequestError') return true;
  return typeof message === 'string' && UNREACHABLE.test(message);
}

interface Watched {
  blocking: boolean;
  /** A PING is on its way. */
  probing: boolean;
}

const watched = new Map<Redis, Watched>();
let probeTimer: NodeJS.Timeout | undefined;

/** Drops a connection as if Redis had closed it: ioredis reconnects (retryStrategy). */
function drop(client: Redis): void {
  client.stream?.destroy();
}

function probe(client: Redis, w: Watched): void {
  const stream = client.stream;
  if (w.probing || client.status !== 'ready' || !stream) return;
  w.probing = true;
  let settled = false;
  // Anything Redis sends on the connection meanwhile says it is alive (the PONG, or another
  // answer); the PING's own promise may fail first, by the connection's `commandTimeout`.
  const finish = (alive: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    stream.off('data', onData);
    w.probing = false;
    if (alive || !watched.has(client) || client.stream !== stream) return;
    drop(client);
    // A dead plain connection: the blocking ones went the same way, and cannot say so sooner.
    if (!w.blocking) for (const [other, o] of watched) if (o.blocking && other !== client) drop(other);
  };
  const onData = () => finish(true);
  stream.on('data', onData);
  client.ping().then(
    () => finish(true),
    () => undefined,
  );
  // Looked at once the socket's pending data was read (a busy event loop is not a dead connection).
  const timer = setTimeout(
    () => setImmediate(() => finish(false)),
    w.blocking ? BLOCKING_PROBE_TIMEOUT_MS : PROBE_TIMEOUT_MS,
  );
  timer.unref();
}

/**
 * Looks after a connection until it ends (or the returned function is called): a PING every
 * PROBE_EVERY_MS, and the connection dropped (so it reconnects) when one goes unanswered.
 * `blocking`: it runs blocking commands (a PING waits behind them).
 */
export function watchConnection(client: Redis, options: { blocking?: boolean } = {}): () => void {
  watched.set(client, { blocking: options.blocking ?? false, probing: false });
  const unwatch = () => {
    watched.delete(client);
    if (watched.size === 0 && probeTimer) {
      clearInterval(probeTimer);
      probeTimer = undefined;
    }
  };
  client.once('end', unwatch);
  if (!probeTimer) {
    probeTimer = setInterval(probeAll, PROBE_EVERY_MS);
    probeTimer.unref();
  }
  return unwatch;
}

/** Sends a PING on every watched connection that has none on its way (the watchdog's round; tests call it too). */
export function probeAll(): void {
  for (const [c, w] of watched) probe(c, w);
}

export async function connectRedis(redisUrl: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, {
    // Fail fast rather than queue commands while Redis is away: a rate limit that cannot be
    // checked is skipped, a lock that cannot be taken is not taken.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: reconnectDelayMs,
    lazyConnect: true,
  });
  // Errors surface through the commands that need Redis; don't let the emitter crash the process.
  client.on('error', () => undefined);
  watchConnection(client);
  await client.connect().catch(() => undefined);
  return client;
}

/** A second connection like `client` (a subscriber), looked after the same way. */
export function duplicateRedis(client: Redis): Redis {
  const copy = client.duplicate();
  copy.on('error', () => undefined);
  watchConnection(copy);
  return copy;
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
