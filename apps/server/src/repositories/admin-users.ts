/**
 * The operator console's reads of users and their history (search, a user's page) and the block
 * flag. Credits are read and changed only through the ledger.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { BillingEventRow, CreditEventRow, CreditGrantRow, Database, TryOnRow, UserRow } from '../db/schema.js';
import { iso } from '../db/ids.js';

type Db = Kysely<Database>;

/** A `users` row that is not a merchant's ledger account (`merchants.user_id`). */
export function notMerchantAccount(eb: ExpressionBuilder<Database, 'users'>) {
  return eb.not(
    eb.exists(eb.selectFrom('merchants').select('merchants.id').whereRef('merchants.user_id', '=', 'users.id')),
  );
}

/** `text` for a LIKE pattern, its wildcards escaped (ids hold `_`). */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Users whose email contains the query (any case), whose id starts with it, or whose device id is
 * it; newest first, at most `limit`. Deleted users and anonymous users merged into an account are
 * found by id only. Merchants' ledger accounts are no shoppers and are never found (a merchant has
 * its own page).
 */
export async function searchUsers(db: Db, query: string, limit: number): Promise<UserRow[]> {
  const q = query.trim();
  const emailPattern = `%${likeEscape(q.toLowerCase())}%`;
  const idPattern = `${likeEscape(q)}%`;
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('id', '=', q),
        sql<boolean>`id like ${idPattern} escape '\\'`,
        sql<boolean>`email like ${emailPattern} escape '\\'`,
        eb('device_id', '=', q),
      ]),
    )
    .where(notMerchantAccount)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A user the operator console opens: a shopper's row, never a merchant's ledger account (`merchants.user_id`). */
export async function findShopperUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where(notMerchantAccount).executeTakeFirst();
}

/** Blocks or unblocks a user by a guarded update; false when it already was so. */
export async function setUserBlocked(db: Db, userId: string, blockedAt: Date | null): Promise<boolean> {
  let query = db
    .updateTable('users')
    .set({ blocked_at: blockedAt === null ? null : iso(blockedAt) })
    .where('id', '=', userId);
  query = blockedAt === null ? query.where('blocked_at', 'is not', null) : query.where('blocked_at', 'is', null);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Whether the user is blocked (false for an unknown user). */
export async function isUserBlocked(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('blocked_at').where('id', '=', userId).executeTakeFirst();
  return row?.blocked_at != null;
}

export type LedgerEventRow = CreditEventRow & { actor_email: string | null };

/** Every credit event of the user, oldest first, with the operator's email for manual ones. */
export async function creditEventsOfUser(db: Db, userId: string, limit = 5000): Promise<LedgerEventRow[]> {
  return db
    .selectFrom('credit_events as e')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .selectAll('e')
    .select('a.email as actor_email')
    .where('e.user_id', '=', userId)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** The user's try-ons (main rows; a whole outfit's second unit counted in `units`), newest first. */
export async function tryOnsOfUser(db: Db, userId: string, limit = 500): Promise<(TryOnRow & { units: number })[]> {
  const rows = await db
    .selectFrom('tryons as t')
    .selectAll('t')
    .select((eb) =>
      eb
        .selectFrom('tryons as c')
        .select((c) => c.fn.countAll<number | string>().as('n'))
        .whereRef('c.bundle_of', '=', 't.id')
        .as('companions'),
    )
    .where('t.user_id', '=', userId)
    .where('t.bundle_of', 'is', null)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ companions, ...row }) => ({ ...row, units: 1 + Number(companions ?? 0) }));
}

/** A try-on's main row and its companions (a whole outfit's second unit), main first. */
export async function tryOnUnits(db: Db, tryonId: string): Promise<TryOnRow[]> {
  const rows = await db
    .selectFrom('tryons')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', tryonId), eb('bundle_of', '=', tryonId)]))
    .execute();
  return rows.sort((a, b) => (a.id === tryonId ? -1 : b.id === tryonId ? 1 : 0));
}

export async function grantsOfUser(db: Db, userId: string): Promise<CreditGrantRow[]> {
  return db
    .selectFrom('credit_grants')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The billing events about a user: those naming one of their purchases' references, their
 * subscription or their Paddle customer id (events carry no user id of ours; at most 50 names).
 */
export async function billingEventsNaming(db: Db, names: string[], limit = 200): Promise<BillingEventRow[]> {
  const wanted = [...new Set(names.filter((n) => n.length >= 6))].slice(0, 50);
  if (wanted.length === 0) return [];
  return db
    .selectFrom('billing_events')
    .selectAll()
    .where((eb) => eb.or(wanted.map((n) => sql<boolean>`payload like ${`%"${likeEscape(n)}"%`} escape '\\'`)))
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Emails of these users, by id (null for an anonymous or deleted user). */
export async function emailsOf(db: Db, ids: string[]): Promise<Map<string, string | null>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** These try-ons' rows, by id (a deleted one is absent). */
export async function tryOnsByIds(db: Db, ids: string[]): Promise<Map<string, TryOnRow>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('tryons').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
