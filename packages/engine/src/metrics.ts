/**
 * Quality figures for a try-on result, shared by the tests and the benchmark:
 * transfer (colour histogram of the changed region vs the garment), preservation
 * (outside the changed region nothing moved; the head is untouched) and placement
 * (the changed region lies in the category's body band).
 */
import type { Category } from '@aidressup/contract';
import { decodeImage, type RGBAImage } from './image.js';
import { segmentGarment } from './garment-segmentation.js';

export interface KeypointLike {
  x: number;
  y: number;
  score: number;
}

const BINS = 4;

/** Coarse RGB histogram (4×4×4), optionally weighted by a 0..1 mask; sums to 1. */
export function colorHistogram(img: RGBAImage, weight?: ArrayLike<number>): Float64Array {
  const h = new Float64Array(BINS * BINS * BINS);
  const n = img.width * img.height;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i]! : 1;
    if (w <= 0) continue;
    const r = Math.min(BINS - 1, (img.data[i * 4]! * BINS) >> 8);
    const g = Math.min(BINS - 1, (img.data[i * 4 + 1]! * BINS) >> 8);
    const b = Math.min(BINS - 1, (img.data[i * 4 + 2]! * BINS) >> 8);
    h[(r * BINS + g) * BINS + b]! += w;
    total += w;
  }
  if (total > 0) for (let i = 0; i < h.length; i++) h[i]! /= total;
  return h;
}

export function histogramIntersection(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.min(a[i]!, b[i]!);
  return s;
}

/** Pixels whose mean absolute RGB difference exceeds `threshold` (0..255), grown by `grow` px. */
export function changedRegion(a: RGBAImage, b: RGBAImage, threshold = 16, grow = 3): Uint8Array {
  if (a.width !== b.width || a.height !== b.height) throw new Error('images differ in size');
  const { width: w, height: h } = a;
  const raw = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const d =
      (Math.abs(a.data[i * 4]! - b.data[i * 4]!) +
        Math.abs(a.data[i * 4 + 1]! - b.data[i * 4 + 1]!) +
        Math.abs(a.data[i * 4 + 2]! - b.data[i * 4 + 2]!)) /
      3;
    raw[i] = d > threshold ? 1 : 0;
  }
  // Drop isolated specks (compression noise): keep pixels with ≥ 3 changed 3×3 neighbours.
  const clean = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!raw[i]) continue;
      let c = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) c += raw[i + dy * w + dx]!;
      clean[i] = c >= 4 ? 1 : 0;
    }
  if (grow <= 0) return clean;
  // Square dilation (separable).
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let d = -grow; d <= grow && !v; d++) {
        const xx = x + d;
        if (xx >= 0 && xx < w && clean[y * w + xx]) v = 1;
      }
      tmp[y * w + x] = v;
    }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let d = -grow; d <= grow && !v; d++) {
        const yy = y + d;
        if (yy >= 0 && yy < h && tmp[yy * w + x]) v = 1;
      }
      out[y * w + x] = v;
    }
  return out;
}

export interface BodyBands {
  shoulderY: number;
  hipY: number;
  torso: number;
  head: { x: number; y: number; r: number } | null;
}

export function bodyBands(kps: KeypointLike[]): BodyBands {
  const k = (i: number) => kps[i]!;
  const shoulderY = (k(11).y + k(12).y) / 2;
  const sw = Math.abs(k(11).x - k(12).x);
  // A torso shorter than the shoulder width means the hips were guessed too high
  // (head-to-hips framings): use the shoulder width instead.
  const torso = Math.max(1, (k(23).y + k(24).y) / 2 - shoulderY, sw);
  const hipY = shoulderY + torso;
  const face = [0, 2, 5, 7, 8, 9, 10].map(k);
  const fx = face.reduce((s, p) => s + p.x, 0) / face.length;
  const fy = face.reduce((s, p) => s + p.y, 0) / face.length;
  const visible = face.filter((p) => p.score > 0.5).length >= 3;
  return {
    shoulderY,
    hipY,
    torso,
    head: visible ? { x: fx, y: fy, r: Math.max(Math.abs(k(7).x - k(8).x) * 0.5, sw * 0.2) } : null,
  };
}

/** Vertical band (in pixels) where a category's garment belongs. */
export function categoryBand(category: Category, b: BodyBands, height: number): [number, number] {
  const T = b.torso;
  if (category === 'upper_body') return [b.shoulderY - 0.3 * T, b.hipY + 0.6 * T];
  if (category === 'lower_body') return [b.hipY - 0.5 * T, height];
  return [b.shoulderY - 0.3 * T, height];
}

export interface TryOnScores {
  changedFraction: number;
  transfer: { result: number; original: number; pass: boolean };
  preservation: { meanAbsDiff: number; headChanged: number; pass: boolean };
  placement: { inBand: number; pass: boolean };
}

/**
 * Score one try-on. `keypoints` are the person's body keypoints in the result's
 * pixel coordinates (BlazePose order).
 */
export function scoreTryOn(
  person: RGBAImage,
  garment: RGBAImage,
  garmentAlpha: ArrayLike<number>,
  result: RGBAImage,
  category: Category,
  keypoints: KeypointLike[],
): TryOnScores {
  const { width: w, height: h } = person;
  const changed = changedRegion(person, result);
  let nChanged = 0;
  for (const v of changed) nChanged += v;
  const gHist = colorHistogram(garment, garmentAlpha);
  const rHist = colorHistogram(result, changed);
  const oHist = colorHistogram(person, changed);
  const tr = nChanged ? histogramIntersection(rHist, gHist) : 0;
  const to = nChanged ? histogramIntersection(oHist, gHist) : 0;
  // Preservation: everything outside the changed region, and the head.
  let diff = 0;
  let n = 0;
  for (let i = 0; i < w * h; i++) {
    if (changed[i]) continue;
    diff +=
      (Math.abs(person.data[i * 4]! - result.data[i * 4]!) +
        Math.abs(person.data[i * 4 + 1]! - result.data[i * 4 + 1]!) +
        Math.abs(person.data[i * 4 + 2]! - result.data[i * 4 + 2]!)) /
      3;
    n++;
  }
  const mad = n ? diff / n / 255 : 0;
  const bands = bodyBands(keypoints);
  let headPx = 0;
  let headChanged = 0;
  if (bands.head) {
    const { x: cx, y: cy, r } = bands.head;
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(h, cy + r); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(w, cx + r); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        headPx++;
        headChanged += changed[y * w + x]!;
      }
  }
  const headFrac = headPx ? headChanged / headPx : 0;
  // Placement: share of changed pixels inside the category's band.
  const [y0, y1] = categoryBand(category, bands, h);
  let inBand = 0;
  for (let y = 0; y < h; y++) {
    if (y < y0 || y > y1) continue;
    for (let x = 0; x < w; x++) inBand += changed[y * w + x]!;
  }
  const inBandFrac = nChanged ? inBand / nChanged : 0;
  const changedFraction = nChanged / (w * h);
  return {
    changedFraction,
    transfer: { result: tr, original: to, pass: nChanged > 0 && tr > to },
    preservation: { meanAbsDiff: mad, headChanged: headFrac, pass: mad <= 2 / 255 && headFrac <= 0.02 },
    placement: { inBand: inBandFrac, pass: changedFraction > 0.01 && inBandFrac >= 0.9 },
  };
}

/** Score from encoded images (the person photo, the garment photo, the engine's result). */
export async function scoreTryOnBytes(
  personBytes: Uint8Array,
  garmentBytes: Uint8Array,
  resultBytes: Uint8Array,
  category: Category,
  keypoints: KeypointLike[],
): Promise<TryOnScores> {
  const [p, g, r] = await Promise.all([
    decodeImage(personBytes, 1 << 14),
    decodeImage(garmentBytes, 512),
    decodeImage(resultBytes, 1 << 14),
  ]);
  let alpha: ArrayLike<number>;
  try {
    alpha = segmentGarment(g.image, g.hasAlpha).alpha.data;
  } catch {
    // No clean cut-out: compare with the whole garment photo.
    alpha = new Float32Array(g.image.width * g.image.height).fill(1);
  }
  return scoreTryOn(p.image, g.image, alpha, r.image, category, keypoints);
}
