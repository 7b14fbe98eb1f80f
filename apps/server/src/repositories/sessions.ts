/**
 * Sessions: the only code that reads or writes the `sessions` table. A session is the only key to
 * an account. The cookie carries a random token; the table keeps its SHA-256, so a leaked
 * database opens no session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../db/schema.js';
import { iso } from '../db/ids.js';

type Db = Kysely<Database>;

/** 32 random bytes, base64url (43 characters). */
function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export async function createSession(
  db: Db,
  input: { userId: string; now: Date; ttlMs: number; cookieName: string },
): Promise<string> {
  const token = newSessionToken();
  await db
    .insertInto('sessions')
    .values({
      id: sessionIdOf(token),
      user_id: input.userId,
      created_at: iso(input.now),
      last_seen_at: iso(input.now),
      expires_at: iso(new Date(input.now.getTime() + input.ttlMs)),
      cookie_name: input.cookieName,
    })
    .execute();
  return token;
}

/**
 * The unexpired session of a token, or undefined. A session of a user who was merged into an
 * account or deleted is no session, whatever its row says.
 */
export async function findSession(db: Db, token: string, now: Date): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .where('sessions.id', '=', sessionIdOf(token))
    .where('sessions.expires_at', '>', iso(now))
    .where('users.merged_into', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Renews a session on use: seen now, valid for another `ttlMs`. */
export async function renewSession(db: Db, token: string, now: Date, ttlMs: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: iso(now), expires_at: iso(new Date(now.getTime() + ttlMs)) })
    .where('id', '=', sessionIdOf(token))
    .execute();
}

/** Ends a session at `at` at the latest (a session replaced by another, kept briefly for requests in flight). */
export async function expireSessionBy(db: Db, token: string, at: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ expires_at: iso(at) })
    .where('id', '=', sessionIdOf(token))
    .where('expires_at', '>', iso(at))
    .execute();
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionIdOf(token)).execute();
}

/** Ends every session of a user (account deletion; an anonymous user merged into an account). */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes expired sessions, at most `limit`; returns how many. */
export async function deleteExpiredSessions(db: Db, now: Date, limit = 1000): Promise<number> {
  const res = await db
    .deleteFrom('sessions')
    .where('id', 'in', db.selectFrom('sessions').select('id').where('expires_at', '<=', iso(now)).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
