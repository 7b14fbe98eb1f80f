/**
 * The garment photo made ready for the fit: cut out, its landmarks and part labels found,
 * its soft edge given the garment's own colour.
 */
import type { Category } from '@aidressup/contract';
import { EngineError, type BinaryMask, type GarmentLandmarks } from './types.js';
import type { FloatMap, RGBAImage } from './image.js';
import { GarmentSeparationError, segmentGarment, type GarmentCutout } from './garment-segmentation.js';
import { garmentLandmarks, partLabels } from './garment-landmarks.js';
import { refineGarmentEdge } from './garment-edge.js';

/**
 * Give the soft edge of the cut-out the colour of the garment next to it, so that
 * bilinear sampling never mixes in the old background (no light halo).
 */
function bleed(img: RGBAImage, alpha: FloatMap): void {
  const { width: w, height: h } = img;
  const a = alpha.data;
  const d = img.data;
  const R = 3;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const al = a[i]!;
      if (al >= 0.98) continue;
      if (
        al <= 0 &&
        !(x > 0 && a[i - 1]! > 0) &&
        !(x < w - 1 && a[i + 1]! > 0) &&
        !(y > 0 && a[i - w]! > 0) &&
        !(y < h - 1 && a[i + w]! > 0)
      )
        continue;
      // Only pixels near the garment matter; far background is never sampled with weight.
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let dy = -R; dy <= R; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (a[j]! < 0.98) continue;
          r += d[j * 4]!;
          g += d[j * 4 + 1]!;
          b += d[j * 4 + 2]!;
          n++;
        }
      }
      if (!n) continue;
      d[i * 4] = d[i * 4]! * al + (r / n) * (1 - al);
      d[i * 4 + 1] = d[i * 4 + 1]! * al + (g / n) * (1 - al);
      d[i * 4 + 2] = d[i * 4 + 2]! * al + (b / n) * (1 - al);
    }
}

/** Write the part labels (nearest analysis-grid cell) into the garment image's alpha channel. */
function partChannel(img: RGBAImage, labels: Uint8Array, gw: number, gh: number, f: number): void {
  const { width: w, height: h } = img;
  for (let y = 0; y < h; y++) {
    const gy = Math.min(gh - 1, Math.floor(y / f));
    for (let x = 0; x < w; x++) img.data[(y * w + x) * 4 + 3] = labels[gy * gw + Math.min(gw - 1, Math.floor(x / f))]!;
  }
}

export interface PreparedGarment {
  image: RGBAImage;
  alpha: FloatMap;
  landmarks: GarmentLandmarks;
  /** The cut-out on its analysis grid, and grid cells → garment pixels. */
  cutout: BinaryMask;
  cutoutScale: number;
}

/** The garment cut out of its backdrop, or GARMENT_NOT_SEPARABLE. */
export function cutOutGarment(image: RGBAImage, hasAlpha: boolean): GarmentCutout {
  try {
    return segmentGarment(image, hasAlpha);
  } catch (e) {
    if (e instanceof GarmentSeparationError) throw new EngineError('GARMENT_NOT_SEPARABLE', undefined, e.message);
    throw e;
  }
}

/** `cut`: the garment's cut-out when it was made already (it is made here otherwise). */
export function prepareGarment(
  image: RGBAImage,
  hasAlpha: boolean,
  category: Category,
  cut: GarmentCutout = cutOutGarment(image, hasAlpha),
): PreparedGarment {
  const landmarks = garmentLandmarks(cut.mask, cut.scale, category);
  refineGarmentEdge(image, cut.alpha);
  bleed(image, cut.alpha);
  partChannel(image, partLabels(cut.mask, cut.scale, landmarks), cut.mask.width, cut.mask.height, cut.scale);
  return { image, alpha: cut.alpha, landmarks, cutout: cut.mask, cutoutScale: cut.scale };
}
