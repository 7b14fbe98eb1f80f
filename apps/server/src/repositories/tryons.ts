/** Try-on rows (reservations and refunds go through the ledger). */
import type { Kysely } from 'kysely';
import type { Database, TryOnRow } from '../db/schema.js';
import { iso } from '../db/ids.js';

type Db = Kysely<Database>;

/** Where a page of results ends: the last row's creation time and id (rows are newest first). */
export interface ResultCursor {
  createdAt: string;
  id: string;
}

/** The user's results still kept, newest first; with `before`, those after that cursor. */
export async function listResultsForUser(
  db: Db,
  userId: string,
  now: Date,
  limit = 100,
  before?: ResultCursor,
): Promise<TryOnRow[]> {
  let query = db
    .selectFrom('tryons')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'succeeded')
    .where('result_name', 'is not', null)
    .where('expires_at', '>', iso(now));
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Deletes one settled try-on of the user's (with a whole outfit's companion row); the ledger's
 * events keep their amounts but lose the link. Returns the stored result's name and the keys of
 * any preview photos (for the caller to delete from storage), or undefined when the user has no such
 * settled try-on.
 */
export async function deleteTryOnOfUser(
  db: Db,
  id: string,
  userId: string,
): Promise<{ resultName: string | null; previewPhotos: string[] } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('tryons')
      .select(['id', 'result_name', 'kept_photos'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('bundle_of', 'is', null)
      .where('status', '!=', 'processing')
      .executeTakeFirst();
    if (!row) return undefined;
    const ids = [
      row.id,
      ...(await trx.selectFrom('tryons').select('id').where('bundle_of', '=', row.id).execute()).map((r) => r.id),
    ];
    await trx.updateTable('credit_events').set({ tryon_id: null }).where('tryon_id', 'in', ids).execute();
    await trx.deleteFrom('tryons').where('bundle_of', '=', row.id).execute();
    await trx.deleteFrom('tryons').where('id', '=', row.id).execute();
    return { resultName: row.result_name, previewPhotos: previewPhotoKeyList(parsePreviewPhotos(row.kept_photos)) };
  });
}

/**
 * Shares a kept result of the user's under `token`; a result shared already keeps its token.
 * Returns the token in force, or undefined when the user has no such kept result.
 */
export async function shareTryOn(
  db: Db,
  id: string,
  userId: string,
  token: string,
  now: Date,
): Promise<string | undefined> {
  await db
    .updateTable('tryons')
    .set({ share_token: token, shared_at: iso(now) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'succeeded')
    .where('result_name', 'is not', null)
    .where('expires_at', '>', iso(now))
    .where('share_token', 'is', null)
    .execute();
  const row = await db
    .selectFrom('tryons')
    .select('share_token')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'succeeded')
    .where('result_name', 'is not', null)
    .where('expires_at', '>', iso(now))
    .executeTakeFirst();
  return row?.share_token ?? undefined;
}

/** Stops sharing a result of the user's; false when the user has no such try-on. */
export async function unshareTryOn(db: Db, id: string, userId: string): Promise<boolean> {
  const found = await db
    .selectFrom('tryons')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('bundle_of', 'is', null)
    .executeTakeFirst();
  if (!found) return false;
  await db.updateTable('tryons').set({ share_token: null, shared_at: null }).where('id', '=', id).execute();
  return true;
}

/** A shared result still kept, by its public token. */
export async function findSharedResult(db: Db, token: string, now: Date): Promise<TryOnRow | undefined> {
  return db
    .selectFrom('tryons')
    .selectAll()
    .where('share_token', '=', token)
    .where('status', '=', 'succeeded')
    .where('result_name', 'is not', null)
    .where('expires_at', '>', iso(now))
    .executeTakeFirst();
}

export async function findByResultName(db: Db, name: string): Promise<TryOnRow | undefined> {
  return db.selectFrom('tryons').selectAll().where('result_name', '=', name).executeTakeFirst();
}

export async function findTryOn(db: Db, id: string): Promise<TryOnRow | undefined> {
  return db.selectFrom('tryons').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Results due for deletion: expired rows that still name a stored result. */
export async function listExpiredResults(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; result_name: string }[]> {
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
  await db
    .updateTable('tryons')
    .set({ result_name: null, share_token: null, shared_at: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Makes `ownerId` the process running a `processing` try-on (a queue worker taking the job);
 * false when the try-on is settled already.
 */
export async function claimTryOn(db: Db, id: string, ownerId: string): Promise<boolean> {
  const res = await db
    .updateTable('tryons')
    .set({ owner_id: ownerId })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records the result's name just before the result is stored (so recovery can complete the row after a crash). */
export async function stageResult(db: Db, id: string, resultName: string): Promise<boolean> {
  const res = await db
    .updateTable('tryons')
    .set({ staged_result: resultName })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * `processing` try-ons whose owner is no longer a registered process (it crashed, or stopped
 * with work under way). Decided in one statement, so a process registering meanwhile is seen.
 */
export async function listOrphanedTryOns(
  db: Db,
  limit: number,
): Promise<Pick<TryOnRow, 'id' | 'owner_id' | 'staged_result'>[]> {
  return db
    .selectFrom('tryons')
    .select(['id', 'owner_id', 'staged_result'])
    .where('status', '=', 'processing')
    .where('owner_id', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('processes').select('processes.id').whereRef('processes.id', '=', 'tryons.owner_id'))),
    )
    .limit(limit)
    .execute();
}

/**
 * A quick preview's photos (JSON text in the historical column `tryons.kept_photos`): the storage keys of their
 * sealed copies, except for a person photo that is one of the shopper's kept photos (My photos),
 * which is named by its id and never copied (`personPhotoId`).
 */
export interface PreviewPhotoKeys {
  person?: string;
  personPhotoId?: string;
  garment: string;
  lower?: string;
}

function parsePreviewPhotos(text: string | null): PreviewPhotoKeys | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<PreviewPhotoKeys>;
    if (typeof parsed.garment !== 'string') return undefined;
    const person = typeof parsed.person === 'string' ? { person: parsed.person } : undefined;
    const photo = typeof parsed.personPhotoId === 'string' ? { personPhotoId: parsed.personPhotoId } : undefined;
    if (!person === !photo) return undefined;
    return {
      ...person,
      ...photo,
      garment: parsed.garment,
      ...(typeof parsed.lower === 'string' ? { lower: parsed.lower } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Every storage key of a preview's photos (a kept person photo named by its id is not one of them). */
export function previewPhotoKeyList(keys: PreviewPhotoKeys | undefined): string[] {
  return keys ? [...(keys.person ? [keys.person] : []), keys.garment, ...(keys.lower ? [keys.lower] : [])] : [];
}

/** The preview photos of a try-on row, or undefined. */
export function previewPhotosOf(row: Pick<TryOnRow, 'kept_photos'>): PreviewPhotoKeys | undefined {
  return parsePreviewPhotos(row.kept_photos);
}

/** Records a succeeded preview's photos and until when they are kept. */
export async function setPreviewPhotos(db: Db, id: string, keys: PreviewPhotoKeys, until: Date): Promise<void> {
  await db
    .updateTable('tryons')
    .set({ kept_photos: JSON.stringify(keys), photos_until: iso(until) })
    .where('id', '=', id)
    .execute();
}

/** Rows whose preview photos are due for deletion (kept until `now` or earlier), at most `limit`. */
export async function listExpiredPreviewPhotos(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; keys: string[] }[]> {
  const rows = await db
    .selectFrom('tryons')
    .select(['id', 'kept_photos'])
    .where('photos_until', 'is not', null)
    .where('photos_until', '<=', iso(now))
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, keys: previewPhotoKeyList(parsePreviewPhotos(r.kept_photos)) }));
}

/** Forgets a row's preview photos (their files are deleted by the caller). */
export async function clearPreviewPhotos(db: Db, id: string): Promise<void> {
  await db.updateTable('tryons').set({ kept_photos: null, photos_until: null }).where('id', '=', id).execute();
}

/** The storage keys of every photo kept for the user's try-ons (for deleting the account). */
export async function previewPhotoKeysOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tryons')
    .select('kept_photos')
    .where('user_id', '=', userId)
    .where('kept_photos', 'is not', null)
    .execute();
  return rows.flatMap((r) => previewPhotoKeyList(parsePreviewPhotos(r.kept_photos)));
}

/**
 * The user's previews whose photos name the kept person photo `photoId` (deleting that photo
 * ends them): their ids and the storage keys of the copies kept beside it.
 */
export async function previewsOfKeptPhoto(
  db: Db,
  userId: string,
  photoId: string,
): Promise<{ id: string; keys: string[] }[]> {
  const rows = await db
    .selectFrom('tryons')
    .select(['id', 'kept_photos'])
    .where('user_id', '=', userId)
    .where('kept_photos', 'is not', null)
    .execute();
  return rows.flatMap((r) => {
    const keys = parsePreviewPhotos(r.kept_photos);
    return keys?.personPhotoId === photoId ? [{ id: r.id, keys: previewPhotoKeyList(keys) }] : [];
  });
}
