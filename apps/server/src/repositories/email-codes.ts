/** Email sign-in codes: the only code that reads or writes the `email_codes` table. */
import type { Kysely } from 'kysely';
import type { Database, EmailCodeRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';

type Db = Kysely<Database>;

/**
 * Stores a new code for an address. The codes sent to it before at the request of the same client
 * address stop working (the newest mail wins); codes another client address asked for stay, so
 * someone else asking cannot void the code a shopper is about to type.
 */
export async function insertEmailCode(
  db: Db,
  input: {
    email: string;
    mailbox: string;
    requester: string;
    codeHash: string;
    tokenHash: string;
    /** SHA-256 of the asking browser's nonce (`http/sign-in-binding.ts`). */
    bindingHash: string;
    now: Date;
    ttlMs: number;
  },
): Promise<void> {
  await db
    .updateTable('email_codes')
    .set({ used_at: iso(input.now) })
    .where('email', '=', input.email)
    .where('used_at', 'is', null)
    .where((eb) => eb.or([eb('requester', '=', input.requester), eb('requester', 'is', null)]))
    .execute();
  await db
    .insertInto('email_codes')
    .values({
      id: newId(),
      email: input.email,
      mailbox: input.mailbox,
      requester: input.requester,
      code_hash: input.codeHash,
      token_hash: input.tokenHash,
      binding_hash: input.bindingHash,
      attempts: 0,
      stranger_attempts: 0,
      created_at: iso(input.now),
      expires_at: iso(new Date(input.now.getTime() + input.ttlMs)),
      used_at: null,
    })
    .execute();
}

/**
 * Codes sent to a mailbox (an address with its +tag removed) since `since`; with `requester`,
 * only those that client address asked for.
 */
export async function countEmailCodesSince(
  db: Db,
  input: { mailbox: string; since: Date; requester?: string },
): Promise<number> {
  let q = db
    .selectFrom('email_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('mailbox', '=', input.mailbox)
    .where('created_at', '>=', iso(input.since));
  if (input.requester !== undefined) q = q.where('requester', '=', input.requester);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The codes of an address still waiting to be used, newest first (at most one per client address that asked). */
export async function liveEmailCodes(db: Db, email: string, now: Date): Promise<EmailCodeRow[]> {
  return db
    .selectFrom('email_codes')
    .selectAll()
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', iso(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

export async function findEmailCodeByToken(db: Db, tokenHash: string): Promise<EmailCodeRow | undefined> {
  return db.selectFrom('email_codes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Takes one try at a code, before the code is compared: from the client address that asked for
 * it (`attempts`) or from anywhere else (`stranger_attempts`). False when the code was used or
 * that count has reached the limit. A guarded update, so concurrent tries never exceed it.
 */
export async function takeCodeTry(
  db: Db,
  input: { id: string; byRequester: boolean; maxTries: number },
): Promise<boolean> {
  const column = input.byRequester ? 'attempts' : 'stranger_attempts';
  const res = await db
    .updateTable('email_codes')
    .set((eb) => ({ [column]: eb(column, '+', 1) }))
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .where(column, '<', input.maxTries)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Marks a code used; false when it was used already (a code signs in once, even under a race). */
export async function consumeEmailCode(db: Db, id: string, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('email_codes')
    .set({ used_at: iso(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends every code of an address still waiting (a sign-in to it succeeded). */
export async function endEmailCodes(db: Db, email: string, now: Date): Promise<void> {
  await db
    .updateTable('email_codes')
    .set({ used_at: iso(now) })
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .execute();
}

/** Records a wrong code: by which client address, and whether it tried a code someone else asked for. */
export async function recordSignInFailure(
  db: Db,
  input: { email: string; client: string; stranger: boolean; now: Date },
): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values({
      id: newId(),
      email: input.email,
      client: input.client,
      stranger: input.stranger ? 1 : 0,
      created_at: iso(input.now),
    })
    .execute();
}

/** Wrong codes since `since` from one client address (any email address). */
export async function countFailuresByClient(db: Db, client: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('client', '=', client)
    .where('created_at', '>=', iso(since))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Wrong codes since `since` for one email address that tried codes other client addresses asked for. */
export async function countStrangerFailures(db: Db, email: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('email', '=', email)
    .where('stranger', '=', 1)
    .where('created_at', '>=', iso(since))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes wrong-code records older than `before`, at most `limit`. */
export async function deleteOldSignInFailures(db: Db, before: Date, limit = 1000): Promise<number> {
  const res = await db
    .deleteFrom('sign_in_failures')
    .where(
      'id',
      'in',
      db.selectFrom('sign_in_failures').select('id').where('created_at', '<', iso(before)).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes codes that expired before `before`, at most `limit`. */
export async function deleteExpiredEmailCodes(db: Db, before: Date, limit = 1000): Promise<number> {
  const res = await db
    .deleteFrom('email_codes')
    .where('id', 'in', db.selectFrom('email_codes').select('id').where('expires_at', '<', iso(before)).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
