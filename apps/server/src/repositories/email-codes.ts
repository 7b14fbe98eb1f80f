/** Email sign-in codes: the only code that reads or writes the `email_codes` table. */
import type { Kysely } from 'kysely';
import type { Database, EmailCodeRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';

type Db = Kysely<Database>;

/** Stores a new code for an address; the codes sent to it before stop working (the newest mail wins). */
export async function insertEmailCode(
  db: Db,
  input: { email: string; codeHash: string; tokenHash: string; now: Date; ttlMs: number },
): Promise<void> {
  await db
    .updateTable('email_codes')
    .set({ used_at: iso(input.now) })
    .where('email', '=', input.email)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('email_codes')
    .values({
      id: newId(),
      email: input.email,
      code_hash: input.codeHash,
      token_hash: input.tokenHash,
      attempts: 0,
      created_at: iso(input.now),
      expires_at: iso(new Date(input.now.getTime() + input.ttlMs)),
      used_at: null,
    })
    .execute();
}

/** Codes sent to an address since `since` (to limit how often one address is mailed). */
export async function countEmailCodesSince(db: Db, email: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('email_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('email', '=', email)
    .where('created_at', '>=', iso(since))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The code of an address still waiting to be used (a new code replaces the one before). */
export async function latestEmailCode(db: Db, email: string): Promise<EmailCodeRow | undefined> {
  return db
    .selectFrom('email_codes')
    .selectAll()
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findEmailCodeByToken(db: Db, tokenHash: string): Promise<EmailCodeRow | undefined> {
  return db.selectFrom('email_codes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Counts one wrong try; returns the attempts after it, or null when the code was used or had
 * reached the limit meanwhile (a guarded update, so concurrent wrong tries all count).
 */
export async function recordWrongAttempt(db: Db, id: string, maxAttempts: number): Promise<number | null> {
  const res = await db
    .updateTable('email_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .returning('attempts')
    .executeTakeFirst();
  return res?.attempts ?? null;
}

/** Marks a code used; false when it was used already (a code signs in once, even under a race). */
export async function consumeEmailCode(db: Db, id: string, now: Date, maxAttempts: number): Promise<boolean> {
  const res = await db
    .updateTable('email_codes')
    .set({ used_at: iso(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Forgets an address's codes (account deletion). */
export async function deleteEmailCodes(db: Db, email: string): Promise<void> {
  await db.deleteFrom('email_codes').where('email', '=', email).execute();
}

/** Deletes codes that expired before `before`, at most `limit`. */
export async function deleteExpiredEmailCodes(db: Db, before: Date, limit = 1000): Promise<number> {
  const res = await db
    .deleteFrom('email_codes')
    .where('id', 'in', db.selectFrom('email_codes').select('id').where('expires_at', '<', iso(before)).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
