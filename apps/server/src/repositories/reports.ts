/**
 * Shoppers' reports of bad results (`tryon_reports`). One report per try-on (a unique key). A
 * report keeps what each unit of the try-on cost, so it can be refunded after the try-on is gone.
 * Its status changes once, from pending, by a guarded update.
 */
import type { Kysely } from 'kysely';
import type { Database, ReportStatus, TryOnReportRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { isPostgres } from '../db/database.js';

type Db = Kysely<Database>;

/** Locks the user's row for the rest of the transaction (PostgreSQL), so their reports are counted one at a time. */
export async function lockReportingUser(db: Db, userId: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('id', '=', userId);
  if (isPostgres(db)) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

/** Reports the user made since `since` (any status). */
export async function countReportsSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('tryon_reports')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', iso(since))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts a report; false when the try-on has one already (the unique key decides under concurrency). */
export async function insertReport(
  db: Db,
  input: {
    tryonId: string;
    userId: string;
    reason: string;
    note: string | null;
    status: ReportStatus;
    units: unknown;
    now: Date;
  },
): Promise<TryOnReportRow | undefined> {
  return db
    .insertInto('tryon_reports')
    .values({
      id: newId(),
      tryon_id: input.tryonId,
      user_id: input.userId,
      reason: input.reason,
      note: input.note,
      status: input.status,
      units: JSON.stringify(input.units),
      created_at: iso(input.now),
      decided_at: input.status === 'pending' ? null : iso(input.now),
      decided_by: null,
      decision_note: null,
    })
    .onConflict((oc) => oc.column('tryon_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findReport(db: Db, id: string): Promise<TryOnReportRow | undefined> {
  return db.selectFrom('tryon_reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findReportOfTryOn(db: Db, tryonId: string): Promise<TryOnReportRow | undefined> {
  return db.selectFrom('tryon_reports').selectAll().where('tryon_id', '=', tryonId).executeTakeFirst();
}

/** Decides a pending report; false (nothing changed) when it was decided already. */
export async function decideReport(
  db: Db,
  input: { id: string; status: 'refunded' | 'rejected'; by: string; note: string; now: Date },
): Promise<boolean> {
  const res = await db
    .updateTable('tryon_reports')
    .set({ status: input.status, decided_at: iso(input.now), decided_by: input.by, decision_note: input.note })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Reports in one state, oldest first for pending ones (the queue), newest first otherwise. */
export async function listReports(db: Db, status: ReportStatus, limit: number): Promise<TryOnReportRow[]> {
  return db
    .selectFrom('tryon_reports')
    .selectAll()
    .where('status', '=', status)
    .orderBy('created_at', status === 'pending' ? 'asc' : 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The reports of these try-ons, by try-on id. */
export async function reportsOfTryOns(db: Db, tryonIds: string[]): Promise<Map<string, TryOnReportRow>> {
  if (tryonIds.length === 0) return new Map();
  const rows = await db.selectFrom('tryon_reports').selectAll().where('tryon_id', 'in', tryonIds).execute();
  return new Map(rows.map((r) => [r.tryon_id, r]));
}

/** Account deletion: the shopper's own words go; the report (what was refunded) stays. */
export async function removePersonalDataFromReports(db: Db, userId: string): Promise<void> {
  await db.updateTable('tryon_reports').set({ note: null }).where('user_id', '=', userId).execute();
}
