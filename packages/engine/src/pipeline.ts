/**
 * The whole try-on on one thread: normalise → person analysis → garment cut-out and
 * landmarks → fit → warp → composite → encode.
 */
import type { Category } from '@aidressup/contract';
import type { Models } from './models.js';
import { analysePerson, type PersonAnalysis } from './person.js';
import type { ShopperFigures } from './quality.js';
import { checkGarmentNotWorn, checkPerson, checkResult } from './refusals.js';
import { cutOutGarment, prepareGarment } from './prepare-garment.js';
import { isWornGarment, wornEvidence, WORN_MIN_PERSON_SHARE } from './garment-worn.js';
import type { RGBAImage } from './image.js';
import type { GarmentCutout } from './garment-segmentation.js';
import { fitAndComposite } from './fit-and-composite.js';
import { decodeGarment, decodePerson, renderOutput, type PersonPhoto } from './photo-io.js';
import { GarmentCache } from './garment-cache.js';

export interface PipelineResult {
  image: Uint8Array;
  mimeType: 'image/jpeg';
  /** Diagnostics for benchmarks and tests. */
  info: {
    timings: Record<string, number>;
    width: number;
    height: number;
    keypoints: { x: number; y: number; score: number }[];
    /** What a shopper sees (see quality.ts). */
    quality: ShopperFigures;
    /** The person analysis was made for this try-on, or given (a kept photo's). */
    personAnalysis: 'analysed' | 'given';
    /** The garment photo was analysed for this try-on, or taken from the thread's garment cache. */
    garmentAnalysis: 'analysed' | 'cached';
  };
}
export interface TryOnTask {
  person: Uint8Array;
  garment: Uint8Array;
  category: Category;
  /**
   * The analysis of this very person photo, made earlier (a kept photo's, `person-analysis.ts`):
   * the person analysis is skipped. One of another size is ignored.
   */
  analysis?: PersonAnalysis | undefined;
  /** The person photo already decoded (a kept photo a worker holds): its decoding is skipped. */
  decodedPerson?: PersonPhoto | undefined;
}
/**
 * The garment photo's refusals, before its pixels change: a garment someone wears
 * (GARMENT_WORN), then one that cannot be cut out of its backdrop (GARMENT_NOT_SEPARABLE).
 * Returns the cut-out. The pose model runs only when the person model finds someone.
 */
export function checkGarment(models: Models, image: RGBAImage, hasAlpha: boolean): GarmentCutout {
  const analysis = analysePerson(models, image, { minPersonShare: WORN_MIN_PERSON_SHARE });
  let cut: GarmentCutout | null = null;
  let separation: unknown;
  try {
    cut = cutOutGarment(image, hasAlpha);
  } catch (e) {
    separation = e;
  }
  checkGarmentNotWorn(wornEvidence(image, analysis, cut));
  if (!cut) throw separation;
  return cut;
}

/**
 * `resultCheck: false` keeps a result the engine's own figures call broken (benchmarks look at
 * them). `garments`: the thread's analysed garment photos, used and filled (a photo refused is not
 * held; the same photo is checked again and refused again).
 */
export async function runTryOn(
  models: Models,
  task: TryOnTask,
  options: { resultCheck?: boolean; garments?: GarmentCache } = {},
): Promise<PipelineResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 10) / 10;
    t = now;
  };
  const cacheKey = options.garments ? GarmentCache.key(task.garment, task.category) : undefined;
  const cached = cacheKey ? options.garments?.take(cacheKey) : undefined;
  const [photo, g] = await Promise.all([
    task.decodedPerson ?? decodePerson(task.person),
    cached ? undefined : decodeGarment(task.garment),
  ]);
  const p = photo.work;
  lap('decode');
  const given = task.analysis && task.analysis.width === p.width && task.analysis.height === p.height;
  const analysis = given && task.analysis ? task.analysis : analysePerson(models, p);
  if (!given) lap('person');
  checkPerson(analysis, task.category, isWornGarment(wornEvidence(p, analysis, null)));
  let garment = cached;
  if (!garment) {
    // Decoded above whenever it was not held.
    if (!g) throw new Error('garment photo neither held nor decoded');
    const cut = checkGarment(models, g.image, g.hasAlpha);
    lap('garment-check');
    garment = prepareGarment(g.image, g.hasAlpha, task.category, cut);
    if (cacheKey) options.garments?.put(cacheKey, garment);
    lap('garment');
  }
  const result = fitAndComposite(p, analysis, garment, task.category);
  lap('fit+composite');
  if (options.resultCheck !== false) checkResult(result.quality);
  const bytes = await renderOutput(photo, result);
  lap('encode');
  const sx = photo.full.width / p.width;
  const sy = photo.full.height / p.height;
  return {
    image: bytes,
    mimeType: 'image/jpeg',
    info: {
      timings,
      width: photo.full.width,
      height: photo.full.height,
      keypoints: analysis.keypoints.map((k) => ({ x: k.x * sx, y: k.y * sy, score: k.score })),
      quality: result.quality,
      personAnalysis: given ? 'given' : 'analysed',
      garmentAnalysis: cached ? 'cached' : 'analysed',
    },
  };
}
