/**
 * A database that cannot be reached for a while: PostgreSQL restarting or failing over (its port
 * refuses connections, its sessions are ended). The pool needs nothing: a broken connection is
 * dropped when it is released and a new one is opened for the next query. What must not be lost
 * meanwhile is a try-on's settlement (its result recorded, or its credit given back): the steps
 * that settle one are guarded updates, safe to run again, so they wait for the database with
 * `untilDatabaseAnswers`. SQLite is a file: it is never unreachable in this sense.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a try-on's settlement keeps trying while the database cannot be reached. Past it, the
 * try-on stays `processing` and recovery's sweep refunds it once its deadline has passed.
 */
const SETTLE_RETRY_MS = 30_000;

/** Node's errors for a connection that could not be opened or broke. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * PostgreSQL's: class 08 (connection exception), and the server shutting down or starting up:
 * admin_shutdown, crash_shutdown, cannot_connect_now.
 */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);
/** node-postgres' own messages for a connection that ended under a query. */
const ENDED = /Connection terminated|Client has encountered a connection error|Connection ended/i;

/** Whether `err` says the database could not be reached (rather than that a statement failed). */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (SOCKET_ERRORS.has(code) || SERVER_GOING_AWAY.has(code) || /^08/.test(code)))
    return true;
  if (typeof message === 'string' && ENDED.test(message)) return true;
  // Node's AggregateError when every address of the host refused.
  return Array.isArray(errors) && errors.some(isDatabaseUnreachable);
}

/**
 * Runs `work`, again while it fails because the database cannot be reached, waiting 250 ms more
 * each time (at most 2 s) until `withinMs` have passed; then, or on any other error, throws.
 * Only for work that is safe to run twice (a guarded update, a read).
 */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, withinMs = SETTLE_RETRY_MS): Promise<T> {
  const until = Date.now() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const left = until - Date.now();
      if (!isDatabaseUnreachable(err) || left <= 0) throw err;
      await sleep(Math.min(attempt * 250, 2_000, left));
    }
  }
}
