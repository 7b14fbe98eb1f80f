/**
 * Merchants of the "Try it on" widget, their shoppers' embed sessions and usage (docs/embed.md).
 * Credits are never touched here: they are the merchant's ledger account's (`ledger/`).
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, EmbedSessionRow, EmbedTryOnsTable, MerchantRow } from '../db/schema.js';

type Db = Kysely<Database>;

export async function insertMerchant(db: Db, row: MerchantRow): Promise<void> {
  await db.insertInto('merchants').values(row).execute();
}

export async function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findMerchantByPublishableKey(db: Db, key: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('publishable_key', '=', key).executeTakeFirst();
}

export async function findMerchantBySecretHash(db: Db, hash: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('secret_key_hash', '=', hash).executeTakeFirst();
}

export async function listMerchants(db: Db): Promise<MerchantRow[]> {
  return db.selectFrom('merchants').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function updateMerchant(
  db: Db,
  id: string,
  set: Partial<
    Pick<
      MerchantRow,
      | 'name'
      | 'allowed_origins'
      | 'daily_limit'
      | 'shopper_daily_limit'
      | 'publishable_key'
      | 'secret_key_hash'
      | 'keys_rotated_at'
      | 'out_of_credits_at'
    >
  >,
): Promise<void> {
  await db.updateTable('merchants').set(set).where('id', '=', id).execute();
}

/** A try-on refused for want of credits: counted, and the first refusal's time kept. */
export async function markOutOfCredits(db: Db, id: string, now: string): Promise<void> {
  await db
    .updateTable('merchants')
    .set({
      refused_no_credits: sql<number>`refused_no_credits + 1`,
      out_of_credits_at: sql<string>`coalesce(out_of_credits_at, ${now})`,
    })
    .where('id', '=', id)
    .execute();
}

export async function insertEmbedSession(db: Db, row: EmbedSessionRow): Promise<void> {
  await db.insertInto('embed_sessions').values(row).execute();
}

/** The unexpired session with this token hash. */
export async function findEmbedSession(db: Db, tokenHash: string, now: string): Promise<EmbedSessionRow | undefined> {
  return db
    .selectFrom('embed_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Embed try-ons of a merchant on a day still counting against a cap: processing or succeeded (refunded ones do not). */
export async function countEmbedTryOns(
  db: Db,
  input: { merchantId: string; day: string; shopperHash?: string },
): Promise<number> {
  let query = db
    .selectFrom('embed_tryons')
    .innerJoin('tryons', 'tryons.id', 'embed_tryons.tryon_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('embed_tryons.merchant_id', '=', input.merchantId)
    .where('embed_tryons.day', '=', input.day)
    .where('tryons.status', '!=', 'failed');
  if (input.shopperHash !== undefined) query = query.where('embed_tryons.shopper_hash', '=', input.shopperHash);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertEmbedTryOn(db: Db, row: Insertable<EmbedTryOnsTable>): Promise<void> {
  await db.insertInto('embed_tryons').values(row).execute();
}

export interface UsageDayRow {
  day: string;
  tryOns: number;
  succeeded: number;
  refunded: number;
  sessions: number;
}

/** Try-ons per UTC day from `fromDay` on (newest first), with results, refunds and shopper sessions. */
export async function merchantUsageByDay(db: Db, merchantId: string, fromDay: string): Promise<UsageDayRow[]> {
  const rows = await db
    .selectFrom('embed_tryons')
    .innerJoin('tryons', 'tryons.id', 'embed_tryons.tryon_id')
    .select((eb) => [
      'embed_tryons.day as day',
      eb.fn.countAll<number | string>().as('tryOns'),
      eb.fn.sum<number | string>(sql`case when tryons.status = 'succeeded' then 1 else 0 end`).as('succeeded'),
      eb.fn.sum<number | string>(sql`case when tryons.status = 'failed' then 1 else 0 end`).as('refunded'),
      eb.fn.count<number | string>('embed_tryons.session_id').distinct().as('sessions'),
    ])
    .where('embed_tryons.merchant_id', '=', merchantId)
    .where('embed_tryons.day', '>=', fromDay)
    .groupBy('embed_tryons.day')
    .orderBy('embed_tryons.day', 'desc')
    .execute();
  return rows.map((r) => ({
    day: r.day,
    tryOns: Number(r.tryOns),
    succeeded: Number(r.succeeded ?? 0),
    refunded: Number(r.refunded ?? 0),
    sessions: Number(r.sessions),
  }));
}

export interface SessionSummaryRow {
  id: string;
  origin: string;
  createdAt: string;
  tryOns: number;
  results: number;
}

/** The merchant's latest shopper sessions, with their try-ons and results. */
export async function merchantSessions(db: Db, merchantId: string, limit: number): Promise<SessionSummaryRow[]> {
  const rows = await db
    .selectFrom('embed_sessions')
    .leftJoin('embed_tryons', 'embed_tryons.session_id', 'embed_sessions.id')
    .leftJoin('tryons', 'tryons.id', 'embed_tryons.tryon_id')
    .select((eb) => [
      'embed_sessions.id as id',
      'embed_sessions.origin as origin',
      'embed_sessions.created_at as createdAt',
      eb.fn.count<number | string>('embed_tryons.tryon_id').as('tryOns'),
      eb.fn.sum<number | string>(sql`case when tryons.status = 'succeeded' then 1 else 0 end`).as('results'),
    ])
    .where('embed_sessions.merchant_id', '=', merchantId)
    .groupBy(['embed_sessions.id', 'embed_sessions.origin', 'embed_sessions.created_at'])
    .orderBy('embed_sessions.created_at', 'desc')
    .orderBy('embed_sessions.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    origin: r.origin,
    createdAt: r.createdAt,
    tryOns: Number(r.tryOns),
    results: Number(r.results ?? 0),
  }));
}

/**
 * Retention: the shopper's address hash of embed try-ons made before `cutoff` (the caps need only
 * today's), at most `limit`; how many were blanked.
 */
export async function blankOldShopperHashes(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .updateTable('embed_tryons')
    .set({ shopper_hash: '' })
    .where(
      'tryon_id',
      'in',
      db
        .selectFrom('embed_tryons')
        .select('tryon_id')
        .where('created_at', '<', cutoff)
        .where('shopper_hash', '!=', '')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Retention: embed sessions that expired before `cutoff`, at most `limit`; how many went. */
export async function deleteExpiredEmbedSessions(db: Db, cutoff: string, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('embed_sessions')
    .where('id', 'in', db.selectFrom('embed_sessions').select('id').where('expires_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
