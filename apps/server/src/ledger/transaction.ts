/**
 * The ledger's transactions and its one lock, shared by all its modules (ledger.ts lists them).
 *
 * Concurrency: on PostgreSQL every operation that changes a user's balance first locks that
 * user's row (SELECT … FOR UPDATE), and every counter change is a guarded UPDATE whose row
 * count is checked. On SQLite, Kysely runs all statements over one connection and
 * serialises transactions, so the same code is safe there too.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { isPostgres } from '../db/database.js';

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

/** Runs `fn` in `db` when it is a transaction already (joining it), else in a new transaction. */
export async function inTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Trx);
  return db.transaction().execute(fn);
}

/** Locks the user's row for the rest of the transaction (PostgreSQL); false when there is no such user. */
export async function lockUser(trx: Trx, userId: string): Promise<boolean> {
  let query = trx.selectFrom('users').select('id').where('id', '=', userId);
  if (isPostgres(trx)) query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}
