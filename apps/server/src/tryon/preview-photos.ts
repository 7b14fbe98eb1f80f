/**
 * "Make it photo-real": a quick preview's photos, kept privately in storage for 30 minutes
 * (PREVIEW_PHOTOS_KEPT_MINUTES) so that its owner can re-run the same try-on on a hosted engine
 * without uploading them again. They are kept only for the built-in engine's results and only
 * when a hosted engine is enabled (otherwise nothing could use them). They are read back only for
 * the try-on's owner: by the rerun (`rerun.ts`), and for a small picture of the garment in My
 * Gallery (`garmentThumbnail`, `services/gallery.ts`); the person photo is never served.
 *
 * They are sealed like kept person photos (`storage/sealed-store.ts`): nothing of a person's photo
 * is ever written in the clear. A person photo that is one of the shopper's kept photos (My photos)
 * is not copied at all: the preview names it by its id, the rerun reads it where it is sealed, and
 * deleting it (or the account) leaves no copy behind.
 *
 * They are stored under `uploads/`, so the retention sweep's 30-minute rule for uploads covers
 * them even when the row is gone; the sweep also deletes them by the row's `photos_until`,
 * deleting a result or the account deletes them at once (`services/gallery.ts`,
 * `services/accounts.ts`), and deleting a kept person photo ends the previews that name it
 * (`services/my-photos.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { PREVIEW_PHOTOS_KEPT_MINUTES } from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { previewPhotoKeyList, setPreviewPhotos, type PreviewPhotoKeys } from '../repositories/tryons.js';
import { EXTENSION_OF, type NormalisedImage } from '../services/images.js';
import type { LogSink } from '../logging.js';
import type { SealedStore } from '../storage/sealed-store.js';
import { engineKind } from './progress.js';
import type { KeptPersonRef } from './runner.js';

const MINUTE_MS = 60_000;

/** True when a result of `engineId` is a quick preview (the built-in engine's). */
export function isPreviewEngine(engineId: string): boolean {
  return engineKind(engineId) === 'local';
}

/** True when a try-on on `engineId` keeps its photos: a preview, with a hosted engine to re-run it on. */
function keepsPreviewPhotos(engineId: string, enabledEngines: readonly string[]): boolean {
  return isPreviewEngine(engineId) && enabledEngines.some((id) => !isPreviewEngine(id));
}

function keyFor(image: NormalisedImage): string {
  return `uploads/preview-${randomBytes(32).toString('base64url')}${EXTENSION_OF[image.mimeType]}`;
}

/** What a preview keeps: its garments, and its person photo, or the kept person photo it used. */
interface PreviewPhotosToKeep {
  person: NormalisedImage;
  /** The person photo is the shopper's kept photo: named by its id, never copied. */
  keptPersonId?: string | undefined;
  garment: NormalisedImage;
  lower?: NormalisedImage | undefined;
}

/**
 * Stores a succeeded preview's photos, sealed, and records them on its row until `now` + 30
 * minutes; returns that time (ISO).
 * Throws when the store fails (the caller logs it: the result stands, without the photos).
 */
async function storePreviewPhotos(
  deps: { db: Kysely<Database>; vault: SealedStore },
  tryonId: string,
  photos: PreviewPhotosToKeep,
  now: Date,
): Promise<string> {
  const keys: PreviewPhotoKeys = {
    ...(photos.keptPersonId ? { personPhotoId: photos.keptPersonId } : { person: keyFor(photos.person) }),
    garment: keyFor(photos.garment),
    ...(photos.lower ? { lower: keyFor(photos.lower) } : {}),
  };
  try {
    await Promise.all([
      ...(keys.person ? [deps.vault.put(keys.person, photos.person.data)] : []),
      deps.vault.put(keys.garment, photos.garment.data),
      ...(photos.lower && keys.lower ? [deps.vault.put(keys.lower, photos.lower.data)] : []),
    ]);
    const until = new Date(now.getTime() + PREVIEW_PHOTOS_KEPT_MINUTES * MINUTE_MS);
    await setPreviewPhotos(deps.db, tryonId, keys, until);
    return until.toISOString();
  } catch (err) {
    await Promise.all(previewPhotoKeyList(keys).map((key) => deps.vault.delete(key).catch(() => undefined)));
    throw err;
  }
}

/** Opens one sealed preview photo; undefined when it is gone or cannot be opened. */
async function readSealed(vault: SealedStore, key: string): Promise<NormalisedImage | undefined> {
  const opened = await vault.get(key);
  if (!opened) return undefined;
  const mimeType = Object.entries(EXTENSION_OF).find(([, ext]) => key.endsWith(ext))?.[0];
  if (!mimeType) return undefined;
  const meta = await sharp(opened.body).metadata();
  if (!meta.width || !meta.height) return undefined;
  return {
    data: opened.body,
    mimeType: mimeType as NormalisedImage['mimeType'],
    width: meta.width,
    height: meta.height,
  };
}

/**
 * Reads a preview's sealed copies back (the garments, and the person photo unless it is a kept
 * one, which the caller reads where it is); undefined when any of them is gone.
 */
export async function loadPreviewPhotos(
  vault: SealedStore,
  keys: PreviewPhotoKeys,
): Promise<
  { person?: NormalisedImage | undefined; garment: NormalisedImage; lower?: NormalisedImage | undefined } | undefined
> {
  const [person, garment, lower] = await Promise.all([
    keys.person ? readSealed(vault, keys.person) : Promise.resolve(undefined),
    readSealed(vault, keys.garment),
    keys.lower ? readSealed(vault, keys.lower) : Promise.resolve(undefined),
  ]);
  if ((keys.person && !person) || !garment || (keys.lower && !lower)) return undefined;
  return { person, garment, lower };
}

/**
 * A quick preview's photos, kept for "Make it photo-real" when a hosted engine could re-run it;
 * until when, or undefined when they are not kept. A failure to store them is logged: the result
 * stands, and the rerun then explains that the photos are gone.
 */
export async function keepPreviewPhotos(
  deps: {
    db: Kysely<Database>;
    clock: () => Date;
    log: LogSink;
    vault?: SealedStore | undefined;
    engines?: { list(): readonly { id: string }[] } | undefined;
  },
  tryonId: string,
  req: {
    engineId: string;
    person: NormalisedImage;
    keptPerson?: KeptPersonRef | undefined;
    garment: NormalisedImage;
    lowerGarment?: NormalisedImage | undefined;
  },
): Promise<string | undefined> {
  if (!deps.vault || !deps.engines) return undefined;
  const enabled = deps.engines.list().map((e) => e.id);
  if (!keepsPreviewPhotos(req.engineId, enabled)) return undefined;
  try {
    return await storePreviewPhotos(
      { db: deps.db, vault: deps.vault },
      tryonId,
      { person: req.person, keptPersonId: req.keptPerson?.photoId, garment: req.garment, lower: req.lowerGarment },
      deps.clock(),
    );
  } catch (err) {
    deps.log.warn({ err, tryonId }, "a preview's photos could not be kept (it cannot be made photo-real)");
    return undefined;
  }
}
