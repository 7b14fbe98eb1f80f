/**
 * Settling a try-on that did not end on its happy path. Every way is a guarded update from
 * `processing` (ledger): whichever of the API, a queue worker or recovery settles first wins, and
 * the others change nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LogSink } from '../logging.js';
import type { Storage } from '../storage/storage.js';
import { completeTryOn, refundStuckTryOns, refundTryOn } from '../ledger/ledger.js';
import { untilDatabaseAnswers } from '../db/outage.js';
import type { RunFailure } from './runner.js';

/**
 * Settles a failed try-on: refunds it (a guarded update: when a worker, the API or recovery settled
 * it first, nothing changes; with `ownerId`, also when another process has taken it over) and logs
 * the engine's detail. Returns whether this call refunded. While the database cannot be reached
 * (restarting) the refund waits for it (`db/outage.ts`).
 * Used by the API and by the queue workers alike.
 */
export async function refundFailedTryOn(
  deps: { db: Kysely<Database>; clock?: () => Date; log?: LogSink | undefined },
  t: { tryonId: string; engineId: string; ownerId?: string },
  failure: RunFailure,
): Promise<boolean> {
  const now = (deps.clock ?? (() => new Date()))();
  const refunded = await untilDatabaseAnswers(() =>
    refundTryOn(deps.db, {
      tryonId: t.tryonId,
      errorCode: failure.code,
      now,
      ...(t.ownerId !== undefined ? { ownerId: t.ownerId } : {}),
    }),
  );
  const line = {
    tryonId: t.tryonId,
    engine: t.engineId,
    code: failure.code,
    detail: failure.detail ?? failure.message,
    refunded,
  };
  // A refusal for lack of room ran nothing; one settled elsewhere was logged there.
  if (failure.code === 'ENGINE_BUSY' || !refunded) deps.log?.info(line, 'try-on failed');
  else deps.log?.warn(line, 'try-on failed; refunded');
  return refunded;
}

/**
 * A try-on whose process is gone: completed when its result was stored (`staged_result` names it
 * and storage has it), else refunded. Says what it did; undefined when it was settled elsewhere.
 */
export async function settleAbandonedTryOn(
  deps: { db: Kysely<Database>; storage: Storage; clock: () => Date },
  t: { id: string; ownerId: string; stagedResult: string | null },
): Promise<'completed' | 'refunded' | undefined> {
  const now = deps.clock();
  if (t.stagedResult && (await deps.storage.get(`results/${t.stagedResult}`))) {
    if (await completeTryOn(deps.db, { tryonId: t.id, resultName: t.stagedResult, ownerId: t.ownerId, now }))
      return 'completed';
  }
  const refunded = await refundTryOn(deps.db, {
    tryonId: t.id,
    errorCode: 'ENGINE_FAILED',
    note: 'interrupted: its process is gone',
    ownerId: t.ownerId,
    now,
  });
  if (!refunded) return undefined;
  if (t.stagedResult) await deps.storage.delete(`results/${t.stagedResult}`).catch(() => undefined);
  return 'refunded';
}

/** Refunds every try-on still processing that started before `startedBefore`; returns how many. */
export function refundOverdueTryOns(db: Kysely<Database>, startedBefore: Date, now: Date): Promise<number> {
  return refundStuckTryOns(db, startedBefore, now);
}
