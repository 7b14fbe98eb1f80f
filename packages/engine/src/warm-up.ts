import { createMap, type RGBAImage } from './image.js';
import { analysePerson, KP, type PersonAnalysis } from './person.js';
import type { Models } from './models.js';
import { prepareGarment } from './prepare-garment.js';
import { fitAndComposite } from './fit-and-composite.js';
import { renderOutput } from './photo-io.js';
import { syntheticGarment, syntheticKeypoints } from './synthetic.js';

/**
 * Run every per-pixel stage on synthetic data so that the JIT has compiled it before the
 * first real request: once small, then at the working size (where loops run long enough
 * to be optimised). Workers run this in the background once ready; between steps it
 * yields, so a request that arrives meanwhile is not held up for long.
 */
export async function warmUp(models: Models): Promise<void> {
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (const [w, h, gw, gh] of [
    [96, 128, 100, 120],
    [480, 640, 384, 460],
  ] as const) {
    const person: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(180) };
    analysePerson(models, person);
    // Skin at the face and hands, so that the arm and chest repaints run too.
    const kps = syntheticKeypoints(w, h);
    for (const i of [KP.nose, KP.leftWrist, KP.rightWrist]) {
      const r = Math.max(3, w * 0.05);
      for (let y = Math.max(0, Math.round(kps[i]!.y - r)); y <= Math.min(h - 1, kps[i]!.y + r); y++)
        for (let x = Math.max(0, Math.round(kps[i]!.x - r)); x <= Math.min(w - 1, kps[i]!.x + r); x++)
          person.data.set([205, 150, 120], (y * w + x) * 4);
    }
    const mask = createMap(w, h);
    for (let y = Math.round(h * 0.05); y < h * 0.97; y++)
      for (let x = Math.round(w * 0.35); x < w * 0.65; x++) mask.data[y * w + x] = 1;
    const analysis: PersonAnalysis = {
      width: w,
      height: h,
      keypoints: kps,
      poseScore: 1,
      mask,
      peopleCount: 1,
      skin: 3,
    };
    const full = {
      data: Buffer.alloc(Math.round(w * 1.6) * Math.round(h * 1.6) * 3, 180),
      width: Math.round(w * 1.6),
      height: Math.round(h * 1.6),
    };
    for (const category of ['upper_body', 'lower_body', 'dresses'] as const) {
      await pause();
      const g = prepareGarment(syntheticGarment(gw, gh), false, category);
      await pause();
      const r = fitAndComposite(person, analysis, g, category);
      await renderOutput({ full, work: person }, r);
    }
  }
}
