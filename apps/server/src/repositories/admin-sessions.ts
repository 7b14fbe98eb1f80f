/**
 * What the operator console needs of `sessions` (the rest is `repositories/sessions.ts`): when a
 * session signed in by email, ending a blocked account's sessions, and a user's session count.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { iso } from '../db/ids.js';
import { sessionIdOf } from './sessions.js';

type Db = Kysely<Database>;

/** Records that the session of this token signed in by email now. */
export async function markEmailSignIn(db: Db, token: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ email_signed_in_at: iso(now) })
    .where('id', '=', sessionIdOf(token))
    .execute();
}

/** When the unexpired session of this token signed in by email; null for none (or an anonymous session). */
export async function emailSignInOf(db: Db, token: string, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('sessions')
    .select('email_signed_in_at')
    .where('id', '=', sessionIdOf(token))
    .where('expires_at', '>', iso(now))
    .executeTakeFirst();
  return row?.email_signed_in_at ?? null;
}

/** A user's unexpired sessions: how many, and when one was last used. */
export async function sessionSummary(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ count: number; lastSeenAt: string | null }> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('last_seen_at').as('last')])
    .where('user_id', '=', userId)
    .where('expires_at', '>', iso(now))
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), lastSeenAt: (row?.last as string | null | undefined) ?? null };
}
