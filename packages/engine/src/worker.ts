/**
 * Worker-thread entry for the local engine pool. Each worker loads the models once
 * (starting as soon as the worker starts) and runs one try-on at a time.
 */
import { workerData } from 'node:worker_threads';
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { loadModels } from './models.js';
import { runTryOn } from './pipeline.js';
import { warmUp } from './warm-up.js';
import { isEngineError } from './types.js';
import { analysePerson } from './person.js';
import { decodePerson } from './photo-io.js';
import { analysePersonPhoto, decodePersonAnalysis, encodePersonAnalysis } from './person-analysis.js';
import { KeptPersonCache, type KeptPerson } from './kept-person-cache.js';
import { GarmentCache, GARMENT_CACHE_MAX_BYTES } from './garment-cache.js';

/** A kept person photo: its key (the same photo, the same key) and the analysis made when it was kept. */
export interface KeptPersonTask {
  key: string;
  analysis?: Uint8Array | undefined;
}

export type WorkerTask =
  | { kind: 'warm' }
  | {
      kind: 'tryOn';
      person: Uint8Array;
      garment: Uint8Array;
      category: Category;
      lowerGarment?: Uint8Array;
      keptPerson?: KeptPersonTask;
    }
  | { kind: 'analysePerson'; person: Uint8Array };

export type WorkerResult =
  | { ok: true; kind: 'warm'; loadMs: number }
  | {
      ok: true;
      kind: 'tryOn';
      image: Uint8Array;
      mimeType: 'image/jpeg';
      info: unknown;
      /** The kept photo's analysis made again (the one given was missing or out of date). */
      keptPersonAnalysis?: Uint8Array;
    }
  | { ok: true; kind: 'analysis'; analysis: Uint8Array; width: number; height: number }
  | { ok: false; code: string; message: string; detail?: string };

// One image operation at a time per worker and no libvips cache: the pool is the
// parallelism, and memory stays flat.
sharp.cache(false);
sharp.concurrency(1);

const started = performance.now();
const models = loadModels();
// Keep an early load failure from becoming an unhandled rejection; tasks report it.
models.catch(() => undefined);
// The worker is ready once the models are loaded and have run once. The per-pixel stages
// are then run once on small synthetic data so that their code is compiled before the
// first real request (a request that arrives meanwhile runs alongside it).
models.then((m) => warmUp(m)).catch(() => undefined);

const keptPeople = new KeptPersonCache();
const cacheBytes = (workerData as { garmentCacheBytes?: number } | null)?.garmentCacheBytes;
/** This worker's analysed garment photos (none held when the pool was made with 0 bytes for them). */
const garments = cacheBytes === 0 ? undefined : new GarmentCache(cacheBytes ?? GARMENT_CACHE_MAX_BYTES);
const withGarments = garments ? { garments } : {};

/**
 * A kept person photo, decoded and analysed: from this worker's cache, else decoded now with the
 * analysis the task brings (made again when it is missing or out of date, then `rebuilt`).
 */
async function keptPerson(
  m: Awaited<typeof models>,
  person: Uint8Array,
  kept: KeptPersonTask,
): Promise<{ held: KeptPerson; rebuilt?: Uint8Array }> {
  const cached = keptPeople.take(kept.key);
  if (cached) return { held: cached };
  const photo = await decodePerson(person);
  let analysis = kept.analysis ? decodePersonAnalysis(kept.analysis) : undefined;
  if (analysis && (analysis.width !== photo.work.width || analysis.height !== photo.work.height)) analysis = undefined;
  let rebuilt: Uint8Array | undefined;
  if (!analysis) {
    analysis = analysePerson(m, photo.work);
    rebuilt = encodePersonAnalysis(analysis);
  }
  const held = { photo, analysis };
  keptPeople.put(kept.key, held);
  return { held, ...(rebuilt ? { rebuilt } : {}) };
}

export default async function handle(task: WorkerTask): Promise<WorkerResult> {
  try {
    const m = await models;
    if (task.kind === 'warm') return { ok: true, kind: 'warm', loadMs: Math.round(performance.now() - started) };
    if (task.kind === 'analysePerson') {
      const { photo, analysis } = await analysePersonPhoto(m, task.person);
      return {
        ok: true,
        kind: 'analysis',
        analysis: encodePersonAnalysis(analysis),
        width: photo.full.width,
        height: photo.full.height,
      };
    }
    // A kept photo: decoded and analysed before (this worker's cache, or the analysis it comes with).
    const kept = task.keptPerson ? await keptPerson(m, task.person, task.keptPerson) : undefined;
    const given = kept ? { analysis: kept.held.analysis, decodedPerson: kept.held.photo } : {};
    // A whole outfit: the bottom first, then the top over that result, in this one task.
    const bottom = task.lowerGarment
      ? await runTryOn(
          m,
          { person: task.person, garment: task.lowerGarment, category: 'lower_body', ...given },
          withGarments,
        )
      : undefined;
    const r = await runTryOn(
      m,
      bottom
        ? { person: bottom.image, garment: task.garment, category: 'upper_body' }
        : { person: task.person, garment: task.garment, category: task.category, ...given },
      withGarments,
    );
    if (bottom)
      r.info.timings = {
        ...Object.fromEntries(Object.entries(bottom.info.timings).map(([k, v]) => [`lower:${k}`, v])),
        ...r.info.timings,
      };
    return {
      ok: true,
      kind: 'tryOn',
      image: r.image,
      mimeType: r.mimeType,
      info: r.info,
      ...(kept?.rebuilt ? { keptPersonAnalysis: kept.rebuilt } : {}),
    };
  } catch (e) {
    if (isEngineError(e))
      return { ok: false, code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) };
    return {
      ok: false,
      code: 'ENGINE_FAILED',
      message: '',
      detail: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e),
    };
  }
}
