/**
 * Settling a reserved try-on: it succeeds and its units stay spent, or it fails and gets its free
 * trial or credit back; try-ons left `processing` past their deadline are refunded.
 */
import { sql } from 'kysely';
import { iso } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';

export interface RefundTryOnInput {
  tryonId: string;
  /** Why the try-on failed (an error code), stored on the row. */
  errorCode: string;
  note?: string | null;
  now?: Date;
  /** Only while this process still owns the try-on (crash recovery: the owner is gone, no one took it over). */
  ownerId?: string;
}

/**
 * Fails a `processing` try-on and gives back its free trial or credit, in one transaction.
 * Returns false (and changes nothing) when the try-on is not `processing`, so a refund
 * can never happen twice.
 */
export async function refundTryOn(db: Db, input: RefundTryOnInput): Promise<boolean> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (trx) => {
    if (!(await refundOne(trx, input, input.tryonId, now))) return false;
    // A whole outfit's second unit goes back with the first.
    const companions = await trx
      .selectFrom('tryons')
      .select('id')
      .where('bundle_of', '=', input.tryonId)
      .where('status', '=', 'processing')
      .execute();
    for (const companion of companions) await refundOne(trx, { ...input, ownerId: undefined }, companion.id, now);
    return true;
  });
}

/**
 * Fails and refunds one unit, by one guarded update of its own row: it must be `processing`, not
 * refunded yet, and, for an outfit's companion row, its main row must no longer be running (the
 * companion settles with its main row: a sweep meeting the companion first changes nothing, so the
 * main row can still complete the whole outfit and a report refund it once).
 */
async function refundOne(trx: Trx, input: RefundTryOnInput, tryonId: string, now: Date): Promise<boolean> {
  const found = await trx.selectFrom('tryons').select('user_id').where('id', '=', tryonId).executeTakeFirst();
  if (!found) return false;
  await lockUser(trx, found.user_id);
  let failing = trx
    .updateTable('tryons')
    .set({ status: 'failed', error_code: input.errorCode, finished_at: iso(now), refunded_at: iso(now) })
    .where('id', '=', tryonId)
    .where('status', '=', 'processing')
    .where('refunded_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('bundle_of', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('tryons as main')
              .select('main.id')
              .whereRef('main.id', '=', 'tryons.bundle_of')
              .where('main.status', '=', 'processing'),
          ),
        ),
      ]),
    );
  if (input.ownerId !== undefined) failing = failing.where('owner_id', '=', input.ownerId);
  const failed = await failing.executeTakeFirst();
  if (Number(failed.numUpdatedRows) !== 1) return false;
  const tryon = await trx.selectFrom('tryons').selectAll().where('id', '=', tryonId).executeTakeFirstOrThrow();
  if (tryon.charge === 'trial') {
    await trx
      .updateTable('users')
      .set({ free_trials_used: sql<number>`free_trials_used - 1` })
      .where('id', '=', tryon.user_id)
      .where('free_trials_used', '>', 0)
      .execute();
    const owner = await trx.selectFrom('users').select('device_id').where('id', '=', tryon.user_id).executeTakeFirst();
    if (owner?.device_id) {
      await trx
        .updateTable('devices')
        .set({ free_trials_used: sql<number>`free_trials_used - 1` })
        .where('device_id', '=', owner.device_id)
        .where('free_trials_used', '>', 0)
        .execute();
    }
    await addEvent(trx, {
      userId: tryon.user_id,
      type: 'trial_refund',
      amount: 1,
      tryonId: tryon.id,
      note: input.note ?? input.errorCode,
      now,
    });
  } else if (tryon.grant_id) {
    // A grant clawed back meanwhile (a refunded purchase) gets nothing back: the refund is
    // recorded with amount 0.
    const clawedBack = await trx
      .selectFrom('credit_events')
      .select('id')
      .where('grant_id', '=', tryon.grant_id)
      .where('type', '=', 'clawback')
      .limit(1)
      .executeTakeFirst();
    let restored = false;
    if (!clawedBack) {
      const res = await trx
        .updateTable('credit_grants')
        .set({ remaining: sql<number>`remaining + 1` })
        .where('id', '=', tryon.grant_id)
        .where(sql<boolean>`remaining < amount`)
        .executeTakeFirst();
      restored = Number(res.numUpdatedRows) === 1;
    }
    await addEvent(trx, {
      userId: tryon.user_id,
      type: 'refund',
      amount: restored ? 1 : 0,
      grantId: tryon.grant_id,
      tryonId: tryon.id,
      note: input.note ?? input.errorCode,
      now,
    });
  }
  return true;
}

/**
 * Marks a `processing` try-on succeeded with its stored result; false when it was not processing
 * (or, with `ownerId`, no longer owned by that process).
 */
export async function completeTryOn(
  db: Db,
  input: {
    tryonId: string;
    resultName: string;
    now?: Date;
    ownerId?: string;
    /** The engine that made it, when another than the one reserved (failover), and what it cost. */
    made?: { engine: string; costMicros: number } | undefined;
  },
): Promise<boolean> {
  const finishedAt = iso(input.now ?? new Date());
  return inTransaction(db, async (trx) => {
    const made = input.made;
    const failover = made
      ? await trx.selectFrom('tryons').select('engine').where('id', '=', input.tryonId).executeTakeFirst()
      : undefined;
    const engineSet = made
      ? {
          engine: made.engine,
          cost_micros: made.costMicros,
          ...(failover && failover.engine !== made.engine ? { requested_engine: failover.engine } : {}),
        }
      : {};
    let query = trx
      .updateTable('tryons')
      .set({
        status: 'succeeded',
        result_name: input.resultName,
        staged_result: null,
        finished_at: finishedAt,
        ...engineSet,
      })
      .where('id', '=', input.tryonId)
      .where('status', '=', 'processing');
    if (input.ownerId !== undefined) query = query.where('owner_id', '=', input.ownerId);
    const res = await query.executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    // A whole outfit's companion unit is spent with it (it names no result of its own).
    await trx
      .updateTable('tryons')
      .set({ status: 'succeeded', finished_at: finishedAt, ...(made ? { engine: made.engine } : {}) })
      .where('bundle_of', '=', input.tryonId)
      .where('status', '=', 'processing')
      .execute();
    return true;
  });
}

/**
 * Fails and refunds every try-on still `processing` that started before `olderThan` (past its
 * deadline: its process crashed or lost it). An outfit is refunded whole through its main row (its
 * companion met first is left to it). Returns how many were refunded.
 */
export async function refundStuckTryOns(
  db: Db,
  olderThan: Date,
  now: Date = new Date(),
  limit = 1000,
): Promise<number> {
  const stuck = await db
    .selectFrom('tryons')
    .select('id')
    .where('status', '=', 'processing')
    .where('created_at', '<', iso(olderThan))
    .limit(limit)
    .execute();
  let refunded = 0;
  for (const t of stuck) {
    if (
      await refundTryOn(db, {
        tryonId: t.id,
        errorCode: 'ENGINE_TIMEOUT',
        note: 'past its deadline (interrupted)',
        now,
      })
    )
      refunded++;
  }
  return refunded;
}
