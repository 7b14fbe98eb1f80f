/**
 * Giving back what a reported try-on cost (a shopper's report, refunded at once or by an
 * operator): a free trial comes back as a free trial, a credit as a credit, each unit of a whole
 * outfit. The caller decides the report in the same transaction by a guarded update of its status,
 * so a report is refunded at most once however many refunds race; and each unit is marked refunded
 * by a guarded update of its own row (`refunded_at`), so no unit comes back twice by any path.
 */
import { sql } from 'kysely';
import type { TryOnCharge } from '../db/schema.js';
import { iso } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';
import { grantCredits } from './grants.js';

/** One unit a try-on cost, as recorded when it was reported. */
export interface ReportUnit {
  tryonId: string;
  charge: TryOnCharge;
  grantId: string | null;
}

/**
 * Marks a reported unit refunded by one guarded update of its own row: only a unit that is
 * `succeeded` and not refunded yet (an outfit's companion whose cost already came back, or any unit
 * refunded before, gets nothing again). Returns the try-on id to name in the events; null when its
 * row is gone (the shopper deleted it after reporting: the unit was charged when reported, and the
 * report is decided once, so it is given back as recorded); false when there is nothing to give.
 */
async function markUnitRefunded(trx: Trx, tryonId: string, nowIso: string): Promise<string | null | false> {
  const marked = await trx
    .updateTable('tryons')
    .set({ refunded_at: nowIso })
    .where('id', '=', tryonId)
    .where('status', '=', 'succeeded')
    .where('refunded_at', 'is', null)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) === 1) return tryonId;
  const row = await trx.selectFrom('tryons').select('id').where('id', '=', tryonId).executeTakeFirst();
  return row ? false : null;
}

export interface RefundReportedInput {
  userId: string;
  units: ReportUnit[];
  /** Kept as each event's note (e.g. `report wrong_garment`). */
  note: string;
  /** The operator who decided; null for an automatic refund. */
  actorId: string | null;
  now?: Date;
}

/**
 * Refunds each unit: a free trial back to the user (and the device, whose trials its users
 * share), or a credit back to its grant. A grant clawed back meanwhile (a refunded purchase) gets
 * nothing back, recorded with amount 0, as a failed try-on's refund does; a credit whose grant has
 * expired comes back as a new never-expiring credit (an `admin` grant noting why). Returns the
 * credits and free trials given back.
 */
export async function refundReportedTryOn(
  db: Db,
  input: RefundReportedInput,
): Promise<{ credits: number; freeTrials: number }> {
  const now = input.now ?? new Date();
  const nowIso = iso(now);
  return inTransaction(db, async (trx) => {
    if (!(await lockUser(trx, input.userId))) throw new Error(`no user ${input.userId}`);
    let credits = 0;
    let freeTrials = 0;
    for (const unit of input.units) {
      const tryonId = await markUnitRefunded(trx, unit.tryonId, nowIso);
      if (tryonId === false) continue;
      if (unit.charge === 'trial') {
        const res = await trx
          .updateTable('users')
          .set({ free_trials_used: sql<number>`free_trials_used - 1` })
          .where('id', '=', input.userId)
          .where('free_trials_used', '>', 0)
          .returning('device_id')
          .executeTakeFirst();
        if (res?.device_id) {
          await trx
            .updateTable('devices')
            .set({ free_trials_used: sql<number>`free_trials_used - 1` })
            .where('device_id', '=', res.device_id)
            .where('free_trials_used', '>', 0)
            .execute();
        }
        await addEvent(trx, {
          userId: input.userId,
          type: 'trial_refund',
          amount: res ? 1 : 0,
          tryonId,
          note: input.note,
          actorId: input.actorId,
          now,
        });
        if (res) freeTrials++;
        continue;
      }
      if (!unit.grantId) continue;
      const grant = await trx
        .selectFrom('credit_grants')
        .select(['id', 'expires_at'])
        .where('id', '=', unit.grantId)
        .executeTakeFirst();
      const clawedBack = await trx
        .selectFrom('credit_events')
        .select('id')
        .where('grant_id', '=', unit.grantId)
        .where('type', '=', 'clawback')
        .limit(1)
        .executeTakeFirst();
      if (grant && !clawedBack && grant.expires_at !== null && grant.expires_at <= nowIso) {
        await grantCredits(trx, {
          userId: input.userId,
          source: 'admin',
          planId: null,
          amount: 1,
          expiresAt: null,
          externalRef: null,
          note: `${input.note} (its grant ${grant.id} has expired)`,
          actorId: input.actorId,
          now,
        });
        credits++;
        continue;
      }
      let restored = false;
      if (grant && !clawedBack) {
        const res = await trx
          .updateTable('credit_grants')
          .set({ remaining: sql<number>`remaining + 1` })
          .where('id', '=', grant.id)
          .where(sql<boolean>`remaining < amount`)
          .executeTakeFirst();
        restored = Number(res.numUpdatedRows) === 1;
      }
      await addEvent(trx, {
        userId: input.userId,
        type: 'refund',
        amount: restored ? 1 : 0,
        grantId: unit.grantId,
        tryonId,
        note: input.note,
        actorId: input.actorId,
        now,
      });
      if (restored) credits++;
    }
    return { credits, freeTrials };
  });
}
