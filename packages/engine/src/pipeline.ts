/**
 * The whole try-on on one thread: normalise → person analysis → garment cut-out and
 * landmarks → fit → warp → composite → encode.
 */
import type { Category } from '@aidressup/contract';
import type { Models } from './models.js';
import { analysePerson } from './person.js';
import type { ShopperFigures } from './quality.js';
import { checkGarmentNotWorn, checkPerson, checkResult } from './refusals.js';
import { prepareGarment } from './prepare-garment.js';
import { fitAndComposite } from './fit-and-composite.js';
import { decodeGarment, decodePerson, renderOutput } from './photo-io.js';

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
  };
}
export interface TryOnTask {
  person: Uint8Array;
  garment: Uint8Array;
  category: Category;
}
export async function runTryOn(models: Models, task: TryOnTask): Promise<PipelineResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 10) / 10;
    t = now;
  };
  const [photo, g] = await Promise.all([decodePerson(task.person), decodeGarment(task.garment)]);
  const p = photo.work;
  lap('decode');
  const analysis = analysePerson(models, p);
  lap('person');
  checkPerson(analysis, task.category);
  // Before the garment is cut out (which changes its pixels): a garment someone wears is refused.
  checkGarmentNotWorn(analysePerson(models, g.image));
  lap('garment-check');
  const garment = prepareGarment(g.image, g.hasAlpha, task.category);
  lap('garment');
  const result = fitAndComposite(p, analysis, garment, task.category);
  lap('fit+composite');
  checkResult(result.quality);
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
    },
  };
}
