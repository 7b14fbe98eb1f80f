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
