/**
 * My photos' rows (`person_photos`): the person photos a shopper keeps, and where their sealed
 * files are. The files themselves are `services/my-photos.ts`'s.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, KeptPhotoRow } from '../db/schema.js';
import { isPostgres } from '../db/database.js';
import { iso } from '../db/ids.js';

type Db = Kysely<Database>;

/** The storage keys of a photo's files. */
export function photoFiles(row: Pick<KeptPhotoRow, 'photo_key' | 'thumbnail_key' | 'analysis_key'>): string[] {
  return [row.photo_key, row.thumbnail_key, ...(row.analysis_key ? [row.analysis_key] : [])];
}

/** Photos a user keeps or is keeping (pending ones count: they are being written). */
export async function countPhotosOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('person_photos')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ReserveOutcome = 'reserved' | 'limit' | 'no-user';

/**
 * Inserts a photo as `pending` when the user keeps fewer than `max`, in one transaction under the
 * user's row lock (PostgreSQL; SQLite serialises transactions), so two photos kept at once never
 * pass the limit together. A deleted or merged user keeps nothing.
 */
export async function reservePhoto(db: Db, row: Omit<KeptPhotoRow, 'status'>, max: number): Promise<ReserveOutcome> {
  return db.transaction().execute(async (trx) => {
    let user = trx.selectFrom('users').select(['id', 'deleted_at', 'merged_into']).where('id', '=', row.user_id);
    if (isPostgres(trx)) user = user.forUpdate();
    const u = await user.executeTakeFirst();
    if (!u || u.deleted_at !== null || u.merged_into !== null) return 'no-user';
    if ((await countPhotosOf(trx, row.user_id)) >= max) return 'limit';
    await trx
      .insertInto('person_photos')
      .values({ ...row, status: 'pending' })
      .execute();
    return 'reserved';
  });
}

/** False when the row is gone meanwhile (the account was deleted while the photo was being kept). */
export async function markPhotoKept(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('person_photos')
    .set({ status: 'kept' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The user's kept photos, most recently used first. */
export async function listKeptPhotos(db: Db, userId: string): Promise<KeptPhotoRow[]> {
  return db
    .selectFrom('person_photos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'kept')
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
}

/** One of the user's kept photos; undefined for an unknown id or another user's photo. */
export async function findKeptPhoto(db: Db, userId: string, id: string): Promise<KeptPhotoRow | undefined> {
  return db
    .selectFrom('person_photos')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'kept')
    .executeTakeFirst();
}

export async function findPhoto(db: Db, id: string): Promise<KeptPhotoRow | undefined> {
  return db.selectFrom('person_photos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a photo's row (any status); its files are the caller's to delete after. */
export async function deletePhotoRow(db: Db, id: string): Promise<KeptPhotoRow | undefined> {
  const row = await findPhoto(db, id);
  if (!row) return undefined;
  const gone = await db.deleteFrom('person_photos').where('id', '=', id).executeTakeFirst();
  return Number(gone.numDeletedRows) === 1 ? row : undefined;
}

/** A try-on used the photo now: it stays kept another KEPT_PHOTO_DAYS. */
export async function touchPhoto(db: Db, id: string, now: Date): Promise<void> {
  await db
    .updateTable('person_photos')
    .set({ last_used_at: iso(now) })
    .where('id', '=', id)
    .execute();
}

export async function setPhotoAnalysis(db: Db, id: string, analysisKey: string): Promise<void> {
  await db.updateTable('person_photos').set({ analysis_key: analysisKey }).where('id', '=', id).execute();
}

/** False when the row is gone meanwhile (the photo was deleted while it was sealed again). */
export async function setPhotoKeyId(db: Db, id: string, keyId: string): Promise<boolean> {
  const r = await db.updateTable('person_photos').set({ key_id: keyId }).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes every photo row of a user (account deletion), in the caller's transaction; their files to delete after. */
export async function deletePhotosOfUser(db: Db | Transaction<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('person_photos')
    .select(['photo_key', 'thumbnail_key', 'analysis_key'])
    .where('user_id', '=', userId)
    .execute();
  await db.deleteFrom('person_photos').where('user_id', '=', userId).execute();
  return rows.flatMap(photoFiles);
}

/**
 * An anonymous user's photos join the account it signs in to (in the merge's transaction). Past
 * `max` together, the least recently used go; their files are the caller's to delete after.
 */
export async function movePhotosToAccount(
  trx: Transaction<Database>,
  fromUserId: string,
  toUserId: string,
  max: number,
): Promise<{ moved: number; files: string[] }> {
  const moved = await trx
    .updateTable('person_photos')
    .set({ user_id: toUserId })
    .where('user_id', '=', fromUserId)
    .executeTakeFirst();
  const all = await trx
    .selectFrom('person_photos')
    .selectAll()
    .where('user_id', '=', toUserId)
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
  const extra = all.slice(max);
  if (extra.length > 0)
    await trx
      .deleteFrom('person_photos')
      .where(
        'id',
        'in',
        extra.map((r) => r.id),
      )
      .execute();
  return { moved: Number(moved.numUpdatedRows), files: extra.flatMap(photoFiles) };
}

/** Kept photos no try-on used since `before` (retention). */
export async function listUnusedPhotos(db: Db, before: Date, limit: number): Promise<KeptPhotoRow[]> {
  return db
    .selectFrom('person_photos')
    .selectAll()
    .where('last_used_at', '<', iso(before))
    .orderBy('last_used_at')
    .limit(limit)
    .execute();
}

/** Photos still pending since before `before`: a keep that never finished (a crash). */
export async function listStalePending(db: Db, before: Date, limit: number): Promise<KeptPhotoRow[]> {
  return db
    .selectFrom('person_photos')
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<', iso(before))
    .limit(limit)
    .execute();
}

/** Kept photos sealed with another key than `keyId` (rotation). */
export async function listPhotosSealedWithOtherKeys(db: Db, keyId: string, limit: number): Promise<KeptPhotoRow[]> {
  return db
    .selectFrom('person_photos')
    .selectAll()
    .where('status', '=', 'kept')
    .where('key_id', '!=', keyId)
    .limit(limit)
    .execute();
}
