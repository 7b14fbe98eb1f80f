/**
 * Garment landmarks: neck, shoulders, armpits, sleeves, hem and waist of a top or dress,
 * or waist, crotch and legs of trousers and skirts, found on the cut-out's analysis grid;
 * and the part labels (garment body, left and right sleeve or leg) of its cells.
 */
import type { Category } from '@aidressup/contract';
import type { BinaryMask, GarmentLandmarks } from './types.js';
import { rowsOf, runAt } from './cutout-scan.js';
import { upperLandmarks } from './upper-landmarks.js';
import { lowerLandmarks } from './lower-landmarks.js';

/** The landmarks for a category: trousers and skirts, or tops and dresses. */
export function garmentLandmarks(m: BinaryMask, scale: number, category: Category): GarmentLandmarks {
  return category === 'lower_body' ? lowerLandmarks(m, scale) : upperLandmarks(m, scale);
}

/** Part labels (see fit.ts PART: 255 garment body, 80 left sleeve/leg, 160 right) on the analysis grid. */
export function partLabels(m: BinaryMask, scale: number, lm: GarmentLandmarks): Uint8Array {
  const { width: w, height: h } = m;
  const labels = new Uint8Array(w * h).fill(255);
  const g = (v: number) => v / scale - 0.5;
  if (lm.kind === 'lower') {
    if (!lm.crotch || !lm.legLeft || !lm.legRight) return labels;
    const rows = rowsOf(m);
    const cy = g(lm.crotch.y) - (rows.bottom - rows.top) * 0.03;
    const cx = g(lm.crotch.x);
    for (let y = Math.max(0, Math.ceil(cy)); y < h; y++)
      for (let x = 0; x < w; x++) labels[y * w + x] = x < cx ? 80 : 160;
    return labels;
  }
  const tL = g(lm.armpitLeft.x);
  const tR = g(lm.armpitRight.x);
  const tw = tR - tL;
  const cx = (tL + tR) / 2;
  const overlap = tw * 0.04;
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top;
  for (let y = 0; y < h; y++) {
    const below = y > Math.max(g(lm.armpitLeft.y), g(lm.armpitRight.y)) + H * 0.02;
    const run: [number, number] | null = !below ? null : lm.hangingSleeves ? [tL, tR] : runAt(m, y, cx);
    for (let x = 0; x < w; x++) {
      let left: boolean;
      let right: boolean;
      if (!below) {
        left = x < tL + overlap;
        right = x > tR - overlap;
      } else if (run) {
        left = x < run[0];
        right = x > run[1];
      } else {
        left = right = false;
      }
      if (left && lm.sleeveLeft) labels[y * w + x] = 80;
      else if (right && lm.sleeveRight) labels[y * w + x] = 160;
    }
  }
  return labels;
}
