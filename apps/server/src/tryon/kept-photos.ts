/**
 * "Make it photo-real": a quick preview's photos, kept privately in storage for 30 minutes
 * (PREVIEW_PHOTOS_KEPT_MINUTES) so that its owner can re-run the same try-on on a hosted engine
 * without uploading them again. They are kept only for the built-in engine's results and only
 * when a hosted engine is enabled (otherwise nothing could use them). Nothing serves them: they
 * are read back only by the rerun (`rerun.ts`) for the try-on's owner. They are stored under
 * `uploads/`, so the retention sweep's 30-minute rule for uploads covers them even when the row
 * is gone; the sweep also deletes them by the row's `photos_until`, deleting a result or the
 * account deletes them at once (`services/gallery.ts`, `services/accounts.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { PREVIEW_PHOTOS_KEPT_MINUTES } from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { keptPhotoKeyList, setKeptPhotos, type KeptPhotoKeys } from '../repositories/tryons.js';
import { EXTENSION_OF, type NormalisedImage } from '../services/images.js';
import type { LogSink } from '../logging.js';
import type { Storage } from '../storage/storage.js';
import { engineKind } from './progress.js';

const MINUTE_MS = 60_000;

/** True when a result of `engineId` is a quick preview (the built-in engine's). */
export function isPreviewEngine(engineId: string): boolean {
  return engineKind(engineId) === 'local';
}

/** True when a try-on on `engineId` keeps its photos: a preview, with a hosted engine to re-run it on. */
export function keepsPhotos(engineId: string, enabledEngines: readonly string[]): boolean {
  return isPreviewEngine(engineId) && enabledEngines.some((id) => !isPreviewEngine(id));
}

function keyFor(image: NormalisedImage): string {
  return `uploads/kept-${randomBytes(32).toString('base64url')}${EXTENSION_OF[image.mimeType]}`;
}

/** The photos of a try-on as they go back into the pipeline. */
export interface KeptPhotos {
  person: NormalisedImage;
  garment: NormalisedImage;
  lower?: NormalisedImage | undefined;
}

/**
 * Stores a succeeded preview's photos and records them on its row until `now` + 30 minutes;
 * returns that time (ISO).
 * Throws when the store fails (the caller logs it: the result stands, without the photos).
 */
export async function keepPhotos(
  deps: { db: Kysely<Database>; storage: Storage },
  tryonId: string,
  photos: KeptPhotos,
  now: Date,
): Promise<string> {
  const keys: KeptPhotoKeys = {
    person: keyFor(photos.person),
    garment: keyFor(photos.garment),
    ...(photos.lower ? { lower: keyFor(photos.lower) } : {}),
  };
  try {
    await Promise.all([
      deps.storage.put(keys.person, photos.person.data, photos.person.mimeType),
      deps.storage.put(keys.garment, photos.garment.data, photos.garment.mimeType),
      ...(photos.lower && keys.lower ? [deps.storage.put(keys.lower, photos.lower.data, photos.lower.mimeType)] : []),
    ]);
    const until = new Date(now.getTime() + PREVIEW_PHOTOS_KEPT_MINUTES * MINUTE_MS);
    await setKeptPhotos(deps.db, tryonId, keys, until);
    return until.toISOString();
  } catch (err) {
    await Promise.all(keptPhotoKeyList(keys).map((key) => deps.storage.delete(key).catch(() => undefined)));
    throw err;
  }
}

/** Reads kept photos back; undefined when any of them is gone. */
export async function loadKeptPhotos(storage: Storage, keys: KeptPhotoKeys): Promise<KeptPhotos | undefined> {
  const read = async (key: string): Promise<NormalisedImage | undefined> => {
    const object = await storage.get(key);
    if (!object) return undefined;
    const mimeType = Object.entries(EXTENSION_OF).find(([, ext]) => key.endsWith(ext))?.[0];
    if (!mimeType) return undefined;
    const meta = await sharp(object.body).metadata();
    if (!meta.width || !meta.height) return undefined;
    return {
      data: object.body,
      mimeType: mimeType as NormalisedImage['mimeType'],
      width: meta.width,
      height: meta.height,
    };
  };
  const [person, garment, lower] = await Promise.all([
    read(keys.person),
    read(keys.garment),
    keys.lower ? read(keys.lower) : Promise.resolve(undefined),
  ]);
  if (!person || !garment || (keys.lower && !lower)) return undefined;
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
    storage?: Storage | undefined;
    engines?: { list(): readonly { id: string }[] } | undefined;
  },
  tryonId: string,
  req: {
    engineId: string;
    person: NormalisedImage;
    garment: NormalisedImage;
    lowerGarment?: NormalisedImage | undefined;
  },
): Promise<string | undefined> {
  if (!deps.storage || !deps.engines) return undefined;
  const enabled = deps.engines.list().map((e) => e.id);
  if (!keepsPhotos(req.engineId, enabled)) return undefined;
  try {
    return await keepPhotos(
      { db: deps.db, storage: deps.storage },
      tryonId,
      { person: req.person, garment: req.garment, lower: req.lowerGarment },
      deps.clock(),
    );
  } catch (err) {
    deps.log.warn({ err, tryonId }, "a preview's photos could not be kept (it cannot be made photo-real)");
    return undefined;
  }
}
