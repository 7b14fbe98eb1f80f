/**
 * "Make it photo-real" (POST /api/tryons/{id}/rerun): the same try-on as a quick preview of the
 * owner's, run again on a hosted engine from the photos kept for it (`preview-photos.ts`), and
 * charged as a new try-on through the same reserve, run and settle path (`performTryOn`).
 * Refusals, before anything is charged: `local` or an engine that is not enabled →
 * ENGINE_UNAVAILABLE; not the owner's settled try-on → NOT_FOUND; not a succeeded preview →
 * NOT_RERUNNABLE; the photos deleted (after 30 minutes, or the kept person photo it used deleted)
 * → PHOTOS_GONE; then `refuseEarly`'s. A kept person photo is read where it is sealed and goes on
 * as a kept photo (a queued job reads it by its id too): no copy of it is written.
 */
import { MESSAGES, TRYONS_PER_OUTFIT, type TryOnCategory, type TryOnResponse } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { findTryOn, previewPhotosOf } from '../repositories/tryons.js';
import { iso } from '../db/ids.js';
import { isPreviewEngine, loadPreviewPhotos } from './preview-photos.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { NormalisedImage } from '../services/images.js';
import type { SealedStore } from '../storage/sealed-store.js';
import { useKeptPhoto } from '../services/my-photos.js';
import type { KeptPersonRef } from './runner.js';
import type { Admission } from './line/admission.js';

export interface RerunRequest {
  userId: string;
  tryonId: string;
  engineId: string;
  progressId?: string | undefined;
  reqId?: string | undefined;
  acceptedAt?: number;
  /** The client's address (the line holds a few places per address). */
  address: string;
  /** The `ticket` of an earlier ENGINE_BUSY answer: keeps the place in line. */
  ticket?: string | undefined;
  /** Aborts when the shopper goes away: the place is given up, nothing is charged. */
  signal?: AbortSignal | undefined;
}

/** The pipeline's own steps (passed in by `createTryOnService`, so that this module does not import it). */
export interface PipelineSteps {
  refuseEarly(
    userId: string,
    engineId: string,
    units: number,
    opts: { category?: TryOnCategory | undefined; address: string; ticket?: string | undefined },
  ): Promise<Admission>;
  perform(req: {
    userId: string;
    category: TryOnCategory;
    engineId: string;
    person: NormalisedImage;
    garment: NormalisedImage;
    lowerGarment?: NormalisedImage | undefined;
    keptPerson?: KeptPersonRef | undefined;
    progressId?: string | undefined;
    reqId?: string | undefined;
    acceptedAt?: number;
    admission: Admission;
    signal?: AbortSignal | undefined;
  }): Promise<TryOnResponse>;
}

export interface RerunDeps {
  db: Kysely<Database>;
  clock: () => Date;
  engines?: Pick<EngineRegistry, 'has'> | undefined;
  /** Where the preview's photos and the shopper's kept photos are sealed. */
  vault?: SealedStore | undefined;
}

/** The preview's person photo: its sealed copy, or the kept photo it named (gone: PHOTOS_GONE). */
async function personOf(
  deps: RerunDeps & { vault: SealedStore },
  userId: string,
  keys: { personPhotoId?: string | undefined },
  copy: NormalisedImage | undefined,
): Promise<{ person: NormalisedImage; keptPerson?: KeptPersonRef }> {
  if (!keys.personPhotoId) {
    if (!copy) throw new AppError('PHOTOS_GONE');
    return { person: copy };
  }
  try {
    const kept = await useKeptPhoto({ db: deps.db, vault: deps.vault, clock: deps.clock }, userId, keys.personPhotoId);
    return { person: kept.image, keptPerson: { photoId: kept.photoId, analysis: kept.analysis } };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('PHOTOS_GONE');
    throw err;
  }
}

export async function rerunTryOn(deps: RerunDeps, steps: PipelineSteps, req: RerunRequest): Promise<TryOnResponse> {
  if (isPreviewEngine(req.engineId)) throw new AppError('ENGINE_UNAVAILABLE', MESSAGES.rerunNeedsHostedEngine);
  if (!deps.engines?.has(req.engineId)) throw new AppError('ENGINE_UNAVAILABLE');
  const row = await findTryOn(deps.db, req.tryonId);
  // Someone else's try-on is as unknown as a missing one; a whole outfit's companion row is not a result.
  if (!row || row.user_id !== req.userId || row.bundle_of !== null || row.status === 'processing')
    throw new AppError('NOT_FOUND');
  if (row.status !== 'succeeded' || !isPreviewEngine(row.engine)) throw new AppError('NOT_RERUNNABLE');
  const keys = previewPhotosOf(row);
  if (!keys || !row.photos_until || row.photos_until <= iso(deps.clock())) throw new AppError('PHOTOS_GONE');
  const outfit = keys.lower !== undefined;
  const category = row.category as TryOnCategory;
  const vault = deps.vault;
  if (!vault) throw new AppError('PHOTOS_GONE');
  const admission = await steps.refuseEarly(req.userId, req.engineId, outfit ? TRYONS_PER_OUTFIT : 1, {
    category,
    address: req.address,
    ticket: req.ticket,
  });
  try {
    const photos = await loadPreviewPhotos(vault, keys);
    if (!photos) throw new AppError('PHOTOS_GONE');
    const { person, keptPerson } = await personOf({ ...deps, vault }, req.userId, keys, photos.person);
    return await steps.perform({
      userId: req.userId,
      category,
      engineId: req.engineId,
      person,
      keptPerson,
      garment: photos.garment,
      lowerGarment: photos.lower,
      progressId: req.progressId,
      reqId: req.reqId,
      ...(req.acceptedAt !== undefined ? { acceptedAt: req.acceptedAt } : {}),
      admission,
      signal: req.signal,
    });
  } finally {
    await admission.leave();
  }
}
