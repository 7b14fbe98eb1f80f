/** Try-on rows (reservations and refunds go through the ledger). */
import type { Kysely } from 'kysely';
import type { Database, TryOnRow } from '../db/schema.js';
import { iso } from '../db/ids.js';

type Db = Kysely<Database>;

/** The user's results still kept, newest first. */
export async function listResultsForUser(db: Db, userId: string, now: Date, limit = 100): Promise<TryOnRow[]> {
  return db
    .selectFrom('tryons')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'succeeded')
    .where('result_name', 'is not', null)
    .where('expires_at', '>', iso(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function findByResultName(db: Db, name: string): Promise<TryOnRow | undefined> {
  return db.selectFrom('tryons').selectAll().where('result_name', '=', name).executeTakeFirst();
}

export async function findTryOn(db: Db, id: string): Promise<TryOnRow | undefined> {
  return db.selectFrom('tryons').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Results due for deletion: expired rows that still name a stored result. */
export async function listExpiredResults(db: Db, now: Date, limit: number): Promise<{ id: string; result_name: string }[]> {
  const rows = await db
    .selectFrom('tryons')
    .select(['id', 'result_name'])
    .where('expires_at', '<=', iso(now))
    .where('result_name', 'is not', null)
    .limit(limit)
    .execute();
  return rows.filter((r): r is { id: string; result_name: string } => r.result_name !== null);
}

export async function clearResultName(db: Db, id: string): Promise<void> {
  await db.updateTable('tryons').set({ result_name: null }).where('id', '=', id).execute();
}

/**
 * Makes `ownerId` the process running a `processing` try-on (a queue worker taking the job);
 * false when the try-on is settled already.
 */
export async function claimTryOn(db: Db, id: string, ownerId: string): Promise<boolean> {
  const res = await db.updateTable('tryons').set({ owner_id: ownerId }).where('id', '=', id).where('status', '=', 'processing').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records the result's name just before the result is stored (so recovery can complete the row after a crash). */
export async function stageResult(db: Db, id: string, resultName: string): Promise<boolean> {
  const res = await db.updateTable('tryons').set({ staged_result: resultName }).where('id', '=', id).where('status', '=', 'processing').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * `processing` try-ons whose owner is no longer a registered process (it crashed, or stopped
 * with work under way). Decided in one statement, so a process registering meanwhile is seen.
 */
export async function listOrphanedTryOns(db: Db, limit: number): Promise<Pick<TryOnRow, 'id' | 'owner_id' | 'staged_result'>[]> {
  return db
    .selectFrom('tryons')
    .select(['id', 'owner_id', 'staged_result'])
    .where('status', '=', 'processing')
    .where('owner_id', 'is not', null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('processes').select('processes.id').whereRef('processes.id', '=', 'tryons.owner_id'))))
    .limit(limit)
    .execute();
}
