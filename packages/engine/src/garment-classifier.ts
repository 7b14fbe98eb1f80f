/**
 * Suggest a garment's category from its photo: cut the garment out (segmentGarment), measure
 * a few interpretable shape features of the mask (legs, sleeves, length, waist-to-hem shape,
 * neckline) and score each category with a small hand-set linear model whose softmax is the
 * confidence.
 *
 * Pure TypeScript on an already-decoded RGBA image: no models, no worker pool; deterministic.
 */
import { CATEGORY_VALUES, DEFAULT_CATEGORY, type Category } from '@aidressup/contract';
import { GarmentSeparationError, segmentGarment } from './garment-segmentation.js';
import { sumBlockRow } from './garment-grid.js';
import { largestComponent } from './mask-ops.js';
import type { BinaryMask } from './types.js';
import type { RGBAImage } from './image.js';

/** An RGBA image as decoded (sharp's raw buffers are Uint8Array). */
export interface RGBAInput {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

/**
 * Shape features of the garment mask. Widths are shares of the mask's bounding-box width, heights
 * shares of its height (0 = top, 1 = hem).
 */
export interface GarmentFeatures {
  /** Bounding-box height / width. */
  aspect: number;
  /** Height / the narrowest width between 30 % and 70 % of the height: long for its body (dresses, trousers). */
  lengthToWaist: number;
  /** Share of the height, from the hem up, over which the mask is two legs with a gap at the centre. */
  legSplit: number;
  /** Gap between the legs at the hem (share of the width); 0 without legs. */
  legGap: number;
  /** Widest row in the top band (5–30 %): sleeves and shoulders. */
  shoulderWidth: number;
  /** Narrowest row between 30 % and 70 % (robust: 10th percentile). */
  waistWidth: number;
  /** Width at the hem (90–96 %). */
  hemWidth: number;
  /** Width at the very top (2–8 %): a waistband, or shoulders and straps. */
  topWidth: number;
  /** shoulderWidth / hemWidth: sleeves stick out (> 1) or the garment widens downwards (< 1). */
  shoulderRatio: number;
  /** shoulderWidth / waistWidth: a bust or shoulders above a narrower waist (> 1); ≤ 1 when the shape only widens downwards. */
  bustToWaist: number;
  /** hemWidth / topWidth: > 1 for skirts and A-line cuts. */
  topToHem: number;
  /** Width at 10–14 % / width of the first rows: ~1 under a straight waistband, > 1 under sloping shoulders or a neck. */
  topGrowth: number;
  /** Depth of a dip in the top edge around the centre (a neckline, a gap between straps), per width. */
  neckDepth: number;
}

export interface GarmentClassification {
  category: Category;
  /** Probability of `category` under the model (0..1); low for ambiguous shapes, 0 without a garment. */
  confidence: number;
  /** Probability of every category (sums to 1; uniform when no garment was found). */
  scores: Record<Category, number>;
  /** The measured features; null when the garment could not be separated from its background. */
  features: GarmentFeatures | null;
}

export interface ClassifyOptions {
  /** Use the alpha channel as the cut-out (transparent PNGs); default: when any pixel is transparent. */
  hasAlpha?: boolean;
  /** Long side of the analysis image (the photo is box-downscaled first); default 256. */
  maxSide?: number;
}

/** Integer box downscale so the long side is about `maxSide` (keeps alpha). */
function downscale(img: RGBAInput, maxSide: number): RGBAImage {
  const f = Math.max(1, Math.round(Math.max(img.width, img.height) / maxSide));
  const src = img.data;
  if (f === 1) {
    const data =
      src instanceof Uint8ClampedArray ? src : new Uint8ClampedArray(src.buffer, src.byteOffset, src.byteLength);
    return { width: img.width, height: img.height, data };
  }
  const w = Math.max(1, Math.floor(img.width / f));
  const h = Math.max(1, Math.floor(img.height / f));
  const out = new Uint8ClampedArray(w * h * 4);
  const acc = new Uint32Array(w * 4);
  const n = f * f;
  for (let y = 0; y < h; y++) {
    sumBlockRow(src, img.width, f, w, y, acc);
    for (let k = 0, o = y * w * 4; k < w * 4; k++) out[o + k] = Math.round(acc[k]! / n);
  }
  return { width: w, height: h, data: out };
}

function hasTransparency(img: RGBAInput): boolean {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) if (d[i]! < 250) return true;
  return false;
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

function median(v: number[]): number {
  if (!v.length) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** Measure the shape features of a garment mask (any resolution; one garment, hem at the bottom). */
export function garmentFeatures(mask: BinaryMask): GarmentFeatures {
  const m = largestComponent(mask);
  const { width: w, height: h, data } = m;
  const left = new Int32Array(h).fill(-1);
  const right = new Int32Array(h).fill(-1);
  let yTop = -1;
  let bottom = -1;
  let x0 = w;
  let x1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++)
      if (data[row + x]) {
        if (left[y]! < 0) left[y] = x;
        right[y] = x;
      }
    if (left[y]! >= 0) {
      if (yTop < 0) yTop = y;
      bottom = y;
      x0 = Math.min(x0, left[y]!);
      x1 = Math.max(x1, right[y]!);
    }
  }
  if (yTop < 0) throw new GarmentSeparationError('empty mask');
  const H = bottom - yTop + 1;
  const W = x1 - x0 + 1;
  const cx = (x0 + x1) / 2;
  const rowAt = (t: number) => Math.min(bottom, Math.max(yTop, Math.round(yTop + t * (H - 1))));
  const extent = (y: number) => (left[y]! < 0 ? 0 : (right[y]! - left[y]! + 1) / W);
  /** Median extent over rows t ∈ [a, b] (robust to a stray row). */
  const extentOver = (a: number, b: number) => {
    const v: number[] = [];
    for (let y = rowAt(a); y <= rowAt(b); y++) v.push(extent(y));
    return median(v);
  };

  // Legs: rows, from the hem up, with background at the garment's centre and garment on both
  // sides of it (each side at least 10 % of the width).
  const minLeg = Math.max(1, W * 0.1);
  const centreBand = Math.max(1, Math.round(W * 0.08));
  const legRow = (y: number): number => {
    const row = y * w;
    // Background somewhere within the centre band.
    let gx = -1;
    for (let d = 0; d <= centreBand && gx < 0; d++) {
      const a = Math.round(cx - d);
      const b = Math.round(cx + d);
      if (a >= 0 && !data[row + a]) gx = a;
      else if (b < w && !data[row + b]) gx = b;
    }
    if (gx < 0) return -1;
    let ga = gx;
    let gb = gx;
    while (ga > 0 && !data[row + ga - 1]) ga--;
    while (gb < w - 1 && !data[row + gb + 1]) gb++;
    let nl = 0;
    let nr = 0;
    for (let x = 0; x < ga; x++) nl += data[row + x]!;
    for (let x = gb + 1; x < w; x++) nr += data[row + x]!;
    return nl >= minLeg && nr >= minLeg ? gb - ga + 1 : -1;
  };
  let legRows = 0;
  let legGap = 0;
  let started = false;
  let misses = 0;
  const startBy = bottom - Math.round(H * 0.1);
  for (let y = bottom; y >= yTop; y--) {
    const g = legRow(y);
    if (g > 0) {
      if (!started) legGap = g / W;
      started = true;
      legRows += 1 + misses;
      misses = 0;
    } else if (started) {
      // Tolerate a short break (a belt loop, a jagged cut-out) but stop at the crotch.
      if (++misses > Math.max(1, H * 0.02)) break;
    } else if (y < startBy) break;
  }
  const legSplit = legRows / H;

  const hem = extentOver(0.9, 0.96);
  const top = extentOver(0.02, 0.08);
  let shoulder = 0;
  for (let y = rowAt(0.05); y <= rowAt(0.3); y++) shoulder = Math.max(shoulder, extent(y));
  let first = 0;
  for (let y = yTop; y <= Math.max(yTop + 1, rowAt(0.02)); y++) first = Math.max(first, extent(y));
  const mid: number[] = [];
  for (let y = rowAt(0.3); y <= rowAt(0.7); y++) mid.push(extent(y));
  mid.sort((a, b) => a - b);
  const waist = mid[Math.floor((mid.length - 1) * 0.1)] ?? 0;

  // Neckline: the top edge near the centre against the highest points left and right of it.
  const colTop = (x: number) => {
    for (let y = yTop; y <= bottom; y++) if (data[y * w + x]) return y;
    return bottom;
  };
  let hiL = bottom;
  let hiR = bottom;
  for (let x = x0; x < Math.round(cx - W * 0.05); x++) hiL = Math.min(hiL, colTop(x));
  for (let x = Math.round(cx + W * 0.05) + 1; x <= x1; x++) hiR = Math.min(hiR, colTop(x));
  let neck = yTop;
  for (let x = Math.max(0, Math.round(cx - W * 0.1)); x <= Math.min(w - 1, Math.round(cx + W * 0.1)); x++)
    neck = Math.max(neck, colTop(x));
  const neckDepth = Math.max(0, neck - Math.max(hiL, hiR)) / W;

  const eps = 1e-3;
  return {
    aspect: H / W,
    lengthToWaist: H / Math.max(1, waist * W),
    legSplit,
    legGap,
    shoulderWidth: shoulder,
    waistWidth: waist,
    hemWidth: hem,
    topWidth: top,
    shoulderRatio: shoulder / Math.max(hem, eps),
    bustToWaist: shoulder / Math.max(waist, eps),
    topToHem: hem / Math.max(top, eps),
    topGrowth: extentOver(0.1, 0.14) / Math.max(first, eps),
    neckDepth,
  };
}

/** 0 at or below `a`, 1 at or above `b`, linear between. */
const ramp = (v: number, a: number, b: number) => clamp01((v - a) / (b - a));

/** The shape cues (0..1) the category scores are built from. */
export interface ShapeCues {
  /** Two legs split from the hem up (trousers, shorts). */
  legs: number;
  /** Long for its width (dresses, long trousers). */
  long: number;
  /** Sleeves or shoulders wider than the hem. */
  sleeves: number;
  /** A neckline or straps: a dip in the top edge. */
  neckline: number;
  /** A straight top edge (a waistband), not sloping shoulders. */
  flatTop: number;
  /** A skirt: widens from a straight waistband at the top, without a bust, sleeves or neckline above. */
  skirt: number;
}

export function shapeCues(f: GarmentFeatures): ShapeCues {
  const sleeves = ramp(f.shoulderRatio, 1.05, 1.35);
  const neckline = ramp(f.neckDepth, 0.05, 0.15);
  const widens = ramp(f.topToHem, 1.03, 1.25);
  const monotone = 1 - ramp(f.bustToWaist, 1.02, 1.15);
  const flatTop = 1 - ramp(f.topGrowth, 1.15, 1.4);
  return {
    legs: ramp(f.legSplit, 0.1, 0.25),
    long: 0.5 * ramp(f.aspect, 1.45, 1.9) + 0.5 * ramp(f.lengthToWaist, 2.4, 3.2),
    sleeves,
    neckline,
    flatTop,
    skirt: widens * monotone * flatTop * (1 - sleeves) * (1 - neckline),
  };
}

/**
 * Log-odds of each category against upper_body (a hand-set logistic model over the cues):
 * legs → lower_body unless a bodice with a neckline sits above them (a jumpsuit: dresses);
 * long without legs → dresses unless it is skirt-shaped; skirt-shaped → lower_body; otherwise
 * a top.
 */
function categoryLogits(c: ShapeCues): Record<Category, number> {
  return {
    upper_body: 0,
    lower_body: -3 + 7 * c.legs - 4 * c.legs * c.neckline + 5 * c.skirt * (1 - 0.7 * c.long),
    dresses: -3 + 6 * c.long - 5 * c.legs * (1 - c.neckline) - 2 * c.skirt,
  };
}

function softmax(l: Record<Category, number>): Record<Category, number> {
  const max = Math.max(...CATEGORY_VALUES.map((c) => l[c]));
  let sum = 0;
  const e = {} as Record<Category, number>;
  for (const c of CATEGORY_VALUES) sum += e[c] = Math.exp(l[c] - max);
  for (const c of CATEGORY_VALUES) e[c] /= sum;
  return e;
}

/** Classify a garment mask (see garmentFeatures). */
function classifyMask(mask: BinaryMask): GarmentClassification {
  const features = garmentFeatures(mask);
  const scores = softmax(categoryLogits(shapeCues(features)));
  let category = CATEGORY_VALUES[0];
  for (const c of CATEGORY_VALUES) if (scores[c] > scores[category]) category = c;
  return { category, confidence: scores[category], scores, features };
}

/**
 * Suggest the category of the garment in a product photo (plain background or transparent
 * PNG). When the garment cannot be cut out, the default category with confidence 0.
 */
export function classifyGarment(image: RGBAInput, opts: ClassifyOptions = {}): GarmentClassification {
  const small = downscale(image, opts.maxSide ?? 256);
  const useAlpha = opts.hasAlpha ?? hasTransparency(image);
  let mask: BinaryMask;
  try {
    mask = segmentGarment(small, useAlpha).mask;
  } catch (e) {
    if (!(e instanceof GarmentSeparationError)) throw e;
    const scores = Object.fromEntries(CATEGORY_VALUES.map((c) => [c, 1 / CATEGORY_VALUES.length])) as Record<
      Category,
      number
    >;
    return { category: DEFAULT_CATEGORY, confidence: 0, scores, features: null };
  }
  return classifyMask(mask);
}
