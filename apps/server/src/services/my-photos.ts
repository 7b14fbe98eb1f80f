/**
 * My photos: person photos a shopper keeps for later try-ons (contract photos.ts). A photo is
 * checked once, when kept: the upload checks (`validateAndNormalise`), then the built-in engine's
 * analysis, which refuses a photo with no single person it could dress; that analysis is kept
 * beside the photo so later try-ons skip it. The photo, a thumbnail and the analysis are sealed
 * in storage (`storage/sealed-store.ts`): encrypted with a key the store does not hold. Only the
 * owner's session reaches them (no operator route serves them); they go on the owner's Delete,
 * with the account (`services/accounts.ts`), and after KEPT_PHOTO_DAYS unused (`sweepKeptPhotos`).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { MAX_KEPT_PHOTOS, MESSAGES, type KeptPhoto } from '@aidressup/contract';
import type { TryOnEngine } from '@aidressup/engine';
import type { Database, KeptPhotoRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { AppError } from '../errors.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { LogSink } from '../logging.js';
import type { SealedStore } from '../storage/sealed-store.js';
import {
  countPhotosOf,
  deletePhotoRow,
  findKeptPhoto,
  findPhoto,
  listKeptPhotos,
  listPhotosSealedWithOtherKeys,
  listStalePending,
  listUnusedPhotos,
  markPhotoKept,
  photoFiles,
  reservePhoto,
  setPhotoAnalysis,
  setPhotoKeyId,
  touchPhoto,
} from '../repositories/kept-photos.js';
import { MIN_SIDE, validateAndNormalise, type NormalisedImage } from './images.js';
import { clearPreviewPhotos, previewsOfKeptPhoto } from '../repositories/tryons.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The thumbnail's longest side: the My photos row, and the person card and the before side of a result when it is chosen. */
const THUMBNAIL_SIDE = 512;
/** A keep that has not finished after this long never will (its process is gone). */
const PENDING_MS = 60 * 60 * 1000;

export interface MyPhotosDeps {
  db: Kysely<Database>;
  vault: SealedStore;
  clock: () => Date;
  log?: LogSink | undefined;
  /** The engines: the one that analyses person photos checks a photo before it is kept. */
  engines?: Pick<EngineRegistry, 'list' | 'get'> | undefined;
}

/** The photo as the API shows it. */
function toKeptPhoto(row: KeptPhotoRow): KeptPhoto {
  return {
    id: row.id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    thumbnailUrl: `/api/photos/${row.id}/thumbnail`,
  };
}

function fileKey(kind: 'photo' | 'thumb' | 'analysis'): string {
  return `photos/${randomBytes(24).toString('base64url')}.${kind}`;
}

/** The first enabled engine that analyses person photos (the built-in one); undefined when none does. */
async function analyser(engines: MyPhotosDeps['engines']): Promise<TryOnEngine | undefined> {
  for (const { id } of engines?.list() ?? []) {
    const engine = await engines!.get(id);
    if (engine.analysePerson) return engine;
  }
  return undefined;
}

async function deleteFiles(deps: Pick<MyPhotosDeps, 'vault' | 'log'>, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await deps.vault.delete(key);
    } catch (err) {
      // No row points to it any more: unreachable, and sealed.
      deps.log?.warn({ err }, 'a deleted kept photo’s file could not be deleted');
    }
  }
}

/**
 * Keeps a person photo for the user: the upload checks and the engine's person check (a photo in
 * which no single person is found is refused with the engine's code), then the sealed files.
 * PHOTO_LIMIT when MAX_KEPT_PHOTOS are kept already (checked before the work, and again under
 * the user's lock as the row is added).
 */
export async function keepPhoto(deps: MyPhotosDeps, userId: string, upload: Buffer): Promise<KeptPhoto> {
  if ((await countPhotosOf(deps.db, userId)) >= MAX_KEPT_PHOTOS) throw new AppError('PHOTO_LIMIT');
  const photo = await validateAndNormalise(upload, 'photo', MIN_SIDE.person);
  const engine = await analyser(deps.engines);
  const analysed = engine?.analysePerson ? await engine.analysePerson(photo.data) : undefined;
  const thumbnail = await sharp(photo.data)
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const now = iso(deps.clock());
  const row = {
    id: newId(),
    user_id: userId,
    photo_key: fileKey('photo'),
    thumbnail_key: fileKey('thumb'),
    analysis_key: analysed ? fileKey('analysis') : null,
    mime_type: photo.mimeType,
    width: photo.width,
    height: photo.height,
    key_id: deps.vault.currentKeyId,
    created_at: now,
    last_used_at: now,
  };
  const outcome = await reservePhoto(deps.db, row, MAX_KEPT_PHOTOS);
  if (outcome === 'limit') throw new AppError('PHOTO_LIMIT');
  if (outcome === 'no-user') throw new AppError('UNAUTHORIZED');
  try {
    await Promise.all([
      deps.vault.put(row.photo_key, photo.data),
      deps.vault.put(row.thumbnail_key, thumbnail),
      ...(analysed && row.analysis_key ? [deps.vault.put(row.analysis_key, analysed.analysis)] : []),
    ]);
    // Gone meanwhile: the account was deleted (or the photo with it) while it was being kept.
    if (!(await markPhotoKept(deps.db, row.id))) throw new AppError('NOT_FOUND', MESSAGES.keptPhotoNotFound);
  } catch (err) {
    await deletePhotoRow(deps.db, row.id);
    await deleteFiles(deps, photoFiles(row));
    throw err;
  }
  return toKeptPhoto({ ...row, status: 'kept' });
}

export async function listPhotos(deps: Pick<MyPhotosDeps, 'db'>, userId: string): Promise<KeptPhoto[]> {
  return (await listKeptPhotos(deps.db, userId)).map(toKeptPhoto);
}

/**
 * Deletes one of the user's kept photos and its files; anything else is NOT_FOUND. The quick
 * previews made with it in the last 30 minutes name it for "Make it photo-real": they end too,
 * with the garment photos kept beside it, so nothing of that try-on's photos is left.
 */
export async function deletePhoto(deps: MyPhotosDeps, userId: string, id: string): Promise<void> {
  const row = await findKeptPhoto(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  const gone = await deletePhotoRow(deps.db, row.id);
  if (!gone) throw new AppError('NOT_FOUND');
  await deleteFiles(deps, photoFiles(gone));
  for (const preview of await previewsOfKeptPhoto(deps.db, userId, id)) {
    await clearPreviewPhotos(deps.db, preview.id);
    await deleteFiles(deps, preview.keys);
  }
}

/** A photo whose files are gone or no key opens (a removed PHOTO_KEY): deleted, and NOT_FOUND. */
async function forgetUnreadable(deps: MyPhotosDeps, row: KeptPhotoRow): Promise<never> {
  deps.log?.warn(
    { photoId: row.id },
    'a kept photo could not be read (its files are gone or sealed with a removed key): deleted',
  );
  const gone = await deletePhotoRow(deps.db, row.id);
  if (gone) await deleteFiles(deps, photoFiles(gone));
  throw new AppError('NOT_FOUND', MESSAGES.keptPhotoNotFound);
}

/** The thumbnail of one of the user's kept photos (JPEG). */
export async function photoThumbnail(deps: MyPhotosDeps, userId: string, id: string): Promise<Buffer> {
  const row = await findKeptPhoto(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  const opened = await deps.vault.get(row.thumbnail_key);
  if (!opened) return forgetUnreadable(deps, row);
  return opened.body;
}

/** A kept photo as a try-on takes it: the normalised photo and the engine's analysis of it. */
export interface KeptPerson {
  photoId: string;
  image: NormalisedImage;
  /** Missing (not made, or unreadable): the engine makes it again and it is kept then. */
  analysis?: Uint8Array | undefined;
}

/** Reads a kept photo by its row (the worker's way in: the API checked the owner). */
async function readKeptPerson(deps: MyPhotosDeps, row: KeptPhotoRow): Promise<KeptPerson> {
  const [photo, analysis] = await Promise.all([
    deps.vault.get(row.photo_key),
    row.analysis_key ? deps.vault.get(row.analysis_key) : Promise.resolve(null),
  ]);
  if (!photo) return forgetUnreadable(deps, row);
  return {
    photoId: row.id,
    image: {
      data: photo.body,
      mimeType: row.mime_type as NormalisedImage['mimeType'],
      width: row.width,
      height: row.height,
    },
    analysis: analysis?.body,
  };
}

/**
 * One of the user's kept photos for a try-on (POST /api/process-image's `personPhotoId`); another
 * user's or an unknown id is NOT_FOUND. The photo counts as used now.
 */
export async function useKeptPhoto(deps: MyPhotosDeps, userId: string, id: string): Promise<KeptPerson> {
  const row = await findKeptPhoto(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.keptPhotoNotFound);
  const kept = await readKeptPerson(deps, row);
  await touchPhoto(deps.db, row.id, deps.clock());
  return kept;
}

/** The kept photo `id` by id alone (a queued try-on's worker); undefined when it is gone. */
async function keptPersonById(deps: MyPhotosDeps, id: string): Promise<KeptPerson | undefined> {
  const row = await findPhoto(deps.db, id);
  if (!row || row.status !== 'kept') return undefined;
  return readKeptPerson(deps, row).catch(() => undefined);
}

/** The engine made a kept photo's analysis again (it was missing or out of date): kept in place of the old. */
async function replaceAnalysis(deps: MyPhotosDeps, photoId: string, analysis: Uint8Array): Promise<void> {
  const row = await findPhoto(deps.db, photoId);
  if (!row || row.status !== 'kept') return;
  const key = row.analysis_key ?? fileKey('analysis');
  await deps.vault.put(key, analysis);
  if (!row.analysis_key) await setPhotoAnalysis(deps.db, row.id, key);
  // Deleted meanwhile: the file just written goes too.
  if (!(await findPhoto(deps.db, row.id))) await deleteFiles(deps, [key]);
}

export interface PhotoSweep {
  /** Kept photos unused for KEPT_PHOTO_DAYS, deleted. */
  unusedDeleted: number;
  /** Keeps that never finished, removed with their files. */
  pendingDeleted: number;
  /** Photos sealed again with the current key (rotation). */
  resealed: number;
  /** Photos sealed with a key no longer given (it can never open them again), deleted. */
  unreadableDeleted: number;
}

let rotationDoneLogged = false;

/**
 * Retention for kept photos: the ones unused for `keptPhotoDays` go, keeps a crash left half-done
 * go, and photos sealed with an older key are sealed again with the current one (PHOTO_KEY
 * rotation; once none is left the older key may be removed, and the log says so once).
 */
export async function sweepKeptPhotos(
  deps: MyPhotosDeps & { keptPhotoDays: number; rotating?: boolean },
  batch = 200,
): Promise<PhotoSweep> {
  const now = deps.clock();
  const out: PhotoSweep = { unusedDeleted: 0, pendingDeleted: 0, resealed: 0, unreadableDeleted: 0 };
  const drop = async (row: KeptPhotoRow) => {
    const gone = await deletePhotoRow(deps.db, row.id);
    if (gone) await deleteFiles(deps, photoFiles(gone));
    return gone ? 1 : 0;
  };
  // Each kind in batches until a batch comes back short (a row that cannot be dropped stops it).
  const batches = async (list: () => Promise<KeptPhotoRow[]>, each: (row: KeptPhotoRow) => Promise<number>) => {
    let done = 0;
    for (let i = 0; i < 1000; i++) {
      const rows = await list();
      let n = 0;
      for (const row of rows) n += await each(row);
      done += n;
      if (rows.length < batch || n === 0) break;
    }
    return done;
  };
  const unusedBefore = new Date(now.getTime() - deps.keptPhotoDays * DAY_MS);
  out.unusedDeleted = await batches(() => listUnusedPhotos(deps.db, unusedBefore, batch), drop);
  const pendingBefore = new Date(now.getTime() - PENDING_MS);
  out.pendingDeleted = await batches(() => listStalePending(deps.db, pendingBefore, batch), drop);
  let stale = 0;
  await batches(
    () => listPhotosSealedWithOtherKeys(deps.db, deps.vault.currentKeyId, batch),
    async (row) => {
      stale++;
      const files = photoFiles(row);
      const opened = await Promise.all(files.map((key) => deps.vault.get(key)));
      // Sealed with a key no longer given: it can never be read again.
      if (opened.some((o) => o === null)) {
        const n = await drop(row);
        out.unreadableDeleted += n;
        return n;
      }
      await Promise.all(files.map((key, i) => deps.vault.put(key, opened[i]!.body)));
      // Deleted meanwhile: the files just written go too.
      if (!(await setPhotoKeyId(deps.db, row.id, deps.vault.currentKeyId))) await deleteFiles(deps, files);
      else out.resealed++;
      return 1;
    },
  );
  if (deps.rotating && stale === 0 && !rotationDoneLogged) {
    rotationDoneLogged = true;
    deps.log?.info(
      { keyId: deps.vault.currentKeyId },
      'every kept photo is sealed with the first PHOTO_KEY: the others may be removed',
    );
  }
  return out;
}

/** What a try-on's runner needs of kept photos: reading one by id (a queued job), keeping a new analysis. */
export interface KeptPhotoAccess {
  read(photoId: string): Promise<KeptPerson | undefined>;
  replaceAnalysis(photoId: string, analysis: Uint8Array): Promise<void>;
}

export function keptPhotoAccess(deps: MyPhotosDeps): KeptPhotoAccess {
  return {
    read: (photoId) => keptPersonById(deps, photoId),
    replaceAnalysis: (photoId, analysis) => replaceAnalysis(deps, photoId, analysis),
  };
}
