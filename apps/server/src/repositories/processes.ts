/** Registered API and worker processes (crash recovery): each refreshes its heartbeat while alive. */
import type { Kysely } from 'kysely';
import type { Database, ProcessRow } from '../db/schema.js';

type Db = Kysely<Database>;

export async function insertProcess(db: Db, row: ProcessRow): Promise<void> {
  await db.insertInto('processes').values(row).execute();
}

/** Refreshes the heartbeat; false when the row is gone (another process took this one for dead). */
export async function touchProcess(db: Db, id: string, at: string): Promise<boolean> {
  const res = await db.updateTable('processes').set({ heartbeat_at: at }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function listProcesses(db: Db): Promise<ProcessRow[]> {
  return db.selectFrom('processes').selectAll().execute();
}

export async function deleteProcesses(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('processes').where('id', 'in', ids).execute();
}
