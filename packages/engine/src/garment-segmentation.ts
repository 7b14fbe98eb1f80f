/**
 * Garment segmentation: cut the garment out of its plain background (or use the PNG
 * alpha channel) on a reduced analysis grid, clean the mask, and give it a soft edge at
 * the photo's own resolution.
 */
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';
import { boxDown, box3, type GridImage } from './garment-grid.js';
import { fillHoles, floodFromBorder, mainComponents, morph } from './mask-ops.js';
import { fitQuadraticSurface, surfaceAt } from './solver.js';
import { kmeans, otsu } from './stats.js';
import { SEGMENTATION_THRESHOLDS } from './segmentation-thresholds.js';
import { floodSmoothBackdrop } from './smooth-backdrop-flood.js';

const T = SEGMENTATION_THRESHOLDS;

export class GarmentSeparationError extends Error {
  constructor(reason: string) {
    super(`garment not separable: ${reason}`);
    this.name = 'GarmentSeparationError';
  }
}

export interface GarmentCutout {
  /** Soft alpha 0..1 at the garment image's resolution. */
  alpha: FloatMap;
  /** The cleaned binary mask on the analysis grid. */
  mask: BinaryMask;
  /** Analysis grid → image pixels scale. */
  scale: number;
}

/**
 * Separate the garment from a plain background (or use the image's own alpha).
 * Throws GarmentSeparationError when the background is not plain enough.
 */
export function segmentGarment(img: RGBAImage, useAlpha = false): GarmentCutout {
  const f = Math.max(1, Math.round(Math.max(img.width, img.height) / T.gridLongSide));
  const grid = boxDown(img, f);
  const { w, h } = grid;
  const N = w * h;
  const fromAlpha = useAlpha && transparentCells(grid) > N * T.minTransparentShare;
  const fg = fromAlpha ? opaqueCells(grid) : separateFromBackdrop(img, f, grid);
  const mask = cleanMask({ width: w, height: h, data: fg });
  checkCutout(mask);
  return { alpha: softAlpha(img, mask.data, w, h, f, fromAlpha), mask, scale: f };
}

/** How many grid cells are transparent. */
function transparentCells(grid: GridImage): number {
  const { a } = grid;
  let transparent = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! < T.transparentAlpha) transparent++;
  return transparent;
}

/** The cut-out from the photo's own alpha channel. */
function opaqueCells(grid: GridImage): Uint8Array {
  const { a } = grid;
  const fg = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) fg[i] = a[i]! >= T.transparentAlpha ? 1 : 0;
  return fg;
}

/** Garment cells (1) on the grid: what the backdrop flood from the border does not reach. */
function separateFromBackdrop(img: RGBAImage, f: number, grid: GridImage): Uint8Array {
  const { w, h } = grid;
  const N = w * h;
  const band = Math.max(T.minBorderBand, Math.round(Math.min(w, h) * T.borderBandShare));
  const { dist, maxD, spread } = backdropDistance(grid, band);
  const t = distanceThreshold(dist, maxD, spread);
  const pass = new Uint8Array(N);
  for (let i = 0; i < N; i++) pass[i] = dist[i]! < t ? 1 : 0;
  const fg = new Uint8Array(N);
  if (spread < T.smoothBackdropSpread) {
    const bg = floodSmoothBackdrop(img, f, grid, dist, t, pass, band);
    for (let i = 0; i < N; i++) fg[i] = bg[i] ? 0 : 1;
  } else {
    const bg = floodFromBorder(w, h, pass);
    for (let i = 0; i < N; i++) fg[i] = bg[i] ? 0 : 1;
    reclassifyBackdropColoured(fg, grid, dist, t);
  }
  return fg;
}

/** Colour samples (and their positions, 0..1) from the border band, every few cells. */
function borderSamples(
  grid: GridImage,
  band: number,
): { samples: Float32Array; positions: Float64Array; count: number } {
  const { w, h, rgb } = grid;
  const inBand = (x: number, y: number) =>
    !(x >= band && x < w - band && y >= band && y < h - band) && (x + y) % T.borderSampleStep === 0;
  let ns = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (inBand(x, y)) ns++;
  const samples = new Float32Array(ns * 3);
  const positions = new Float64Array(ns * 2);
  ns = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!inBand(x, y)) continue;
      const i = y * w + x;
      samples[ns * 3] = rgb[i * 3]!;
      samples[ns * 3 + 1] = rgb[i * 3 + 1]!;
      samples[ns * 3 + 2] = rgb[i * 3 + 2]!;
      positions[ns * 2] = x / w;
      positions[ns * 2 + 1] = y / h;
      ns++;
    }
  return { samples, positions, count: ns };
}

interface BackdropDistance {
  /** Per cell: RGB distance to the backdrop model. */
  dist: Float32Array;
  /** The largest distance (at least 1). */
  maxD: number;
  /** How far the backdrop's own samples lie from the model (mean). */
  spread: number;
}

/**
 * Model the backdrop from the border band: a smooth backdrop (studio, vignetting) as a
 * quadratic surface per channel, else (floor, wall) as a few colour clusters. Throws
 * when even the clusters spread too far.
 */
function backdropDistance(grid: GridImage, band: number): BackdropDistance {
  const { samples, positions, count } = borderSamples(grid, band);
  const poly = fitQuadraticSurface(positions, samples, count, {
    minLimit: T.surfaceOutlierFloor,
    medianFactor: T.surfaceOutlierMedianFactor,
    minInlierShare: T.surfaceMinInlierShare,
  });
  if (poly.spread < T.smoothBackdropSpread) return { ...surfaceDistance(grid, poly.coef), spread: poly.spread };
  const clusters = kmeans(samples, T.backdropClusters).filter((c) => c.share >= T.minBackdropClusterShare);
  const bgShare = clusters.reduce((acc, c) => acc + c.share, 0);
  const spread = clusters.reduce((acc, c) => acc + c.spread * c.share, 0) / Math.max(bgShare, 1e-6);
  if (spread > T.maxBackdropSpread) throw new GarmentSeparationError('background is not plain');
  const cc = new Float64Array(clusters.length * 3);
  clusters.forEach((c, j) => cc.set(c.c, j * 3));
  return { ...nearestColourDistance(grid.rgb, cc), spread };
}

/** Per cell: distance to the fitted backdrop surface. */
function surfaceDistance(grid: GridImage, coef: Float64Array): { dist: Float32Array; maxD: number } {
  const { w, h, rgb } = grid;
  const dist = new Float32Array(w * h);
  let maxD = 1;
  for (let y = 0; y < h; y++) {
    const yy = y / h;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const xx = x / w;
      const d = Math.sqrt(
        (rgb[i * 3]! - surfaceAt(coef, 0, xx, yy)) ** 2 +
          (rgb[i * 3 + 1]! - surfaceAt(coef, 1, xx, yy)) ** 2 +
          (rgb[i * 3 + 2]! - surfaceAt(coef, 2, xx, yy)) ** 2,
      );
      dist[i] = d;
      if (d > maxD) maxD = d;
    }
  }
  return { dist, maxD };
}

/** Per cell: distance to the nearest of the colours `cc` (r, g, b, r, g, b, …). */
function nearestColourDistance(rgb: Float32Array, cc: Float64Array): { dist: Float32Array; maxD: number } {
  const N = rgb.length / 3;
  const nc = cc.length / 3;
  const dist = new Float32Array(N);
  let maxD = 1;
  for (let i = 0; i < N; i++) {
    let best = Infinity;
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    for (let j = 0; j < nc; j++) {
      const d = Math.sqrt((r - cc[j * 3]!) ** 2 + (g - cc[j * 3 + 1]!) ** 2 + (b - cc[j * 3 + 2]!) ** 2);
      if (d < best) best = d;
    }
    dist[i] = best;
    if (best > maxD) maxD = best;
  }
  return { dist, maxD };
}

/** The distance threshold t: a share of Otsu's threshold, clamped between a floor that grows with the backdrop's spread and a cap. */
function distanceThreshold(dist: Float32Array, maxD: number, spread: number): number {
  const flat = spread < T.flatBackdropSpread;
  const floor = flat ? T.flatFloorBase + spread * T.flatFloorPerSpread : T.floorBase + spread * T.floorPerSpread;
  return flat
    ? Math.max(floor, Math.min(otsu(dist, maxD) * T.otsuShare, T.flatOtsuCap))
    : Math.min(T.thresholdCap, Math.max(floor, Math.min(otsu(dist, maxD) * T.otsuShare, T.otsuCap)));
}
/**
 * Textured backdrop, second look with a garment colour model: garment cells enclosed by
 * the garment that look like the background (the floor between trouser legs) become background.
 */
function reclassifyBackdropColoured(fg: Uint8Array, grid: GridImage, dist: Float32Array, t: number): void {
  const { rgb } = grid;
  const N = fg.length;
  const step = T.strongSampleStep;
  const t15 = t * T.strongFactor;
  let nStrong = 0;
  for (let i = 0; i < N; i += step) if (fg[i] && dist[i]! > t15) nStrong++;
  if (!(nStrong > N / T.strongSamplesDivisor)) return;
  const strong = new Float32Array(nStrong * 3);
  for (let i = 0, j = 0; i < N; i += step)
    if (fg[i] && dist[i]! > t15) {
      strong[j++] = rgb[i * 3]!;
      strong[j++] = rgb[i * 3 + 1]!;
      strong[j++] = rgb[i * 3 + 2]!;
    }
  const fgModel = kmeans(strong, T.garmentClusters).filter((c) => c.share >= T.minGarmentClusterShare);
  const nc = fgModel.length;
  const cc = new Float64Array(nc * 3);
  fgModel.forEach((c, j) => cc.set(c.c, j * 3));
  const t2 = t * T.reclassifyFactor;
  const ratio = T.reclassifyRatio;
  for (let i = 0; i < N; i++) {
    if (!fg[i]) continue;
    const di = dist[i]!;
    if (!(di < t2)) continue;
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    let dF = Infinity;
    for (let j = 0; j < nc; j++) {
      const d = Math.sqrt((r - cc[j * 3]!) ** 2 + (g - cc[j * 3 + 1]!) ** 2 + (b - cc[j * 3 + 2]!) ** 2);
      if (d < dF) dF = d;
    }
    if (di * ratio < dF) fg[i] = 0;
  }
}

/** Opening removes hanger hooks, strings and speckles; then keep the garment itself (its main pieces, holes filled). */
function cleanMask(mask: BinaryMask): BinaryMask {
  const { width: w, height: h } = mask;
  const r = Math.max(T.minOpeningRadius, Math.round(Math.max(w, h) * T.openingRadiusShare));
  return fillHoles(mainComponents(morph(morph(mask, r), -r), T.mainPieceShare));
}

/** Refuse a cut-out that found nothing, or that fills the photo (no backdrop around the garment). */
function checkCutout(mask: BinaryMask): void {
  const { width: w, height: h, data: fg } = mask;
  const N = w * h;
  let count = 0;
  let borderTouch = 0;
  for (let i = 0; i < N; i++) count += fg[i]!;
  for (let x = 0; x < w; x++) borderTouch += fg[x]! + fg[(h - 1) * w + x]!;
  for (let y = 0; y < h; y++) borderTouch += fg[y * w]! + fg[y * w + w - 1]!;
  const frac = count / N;
  if (frac < T.minGarmentShare) throw new GarmentSeparationError('no garment found');
  if (frac > T.maxGarmentShare || borderTouch > 2 * (w + h) * T.maxBorderTouchShare)
    throw new GarmentSeparationError('garment fills the photo');
}

/** Soft alpha at full resolution: separable bilinear upsampling of the clean mask, a 3×3 box blur. */
function softAlpha(img: RGBAImage, fg: Uint8Array, w: number, h: number, f: number, clampToAlpha: boolean): FloatMap {
  const alpha = createMap(img.width, img.height);
  const lo = T.alphaRampLow;
  const hi = T.alphaRampHigh;
  const ramp = 1 / (hi - lo);
  const xi = new Int32Array(img.width);
  const xf = new Float32Array(img.width);
  for (let x = 0; x < img.width; x++) {
    const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / f - 0.5));
    const i = Math.min(w - 2, Math.floor(sx));
    xi[x] = Math.max(0, i);
    xf[x] = w > 1 ? sx - Math.max(0, i) : 0;
  }
  const i1off = w > 1 ? 1 : 0;
  // Only the garment's bounding box (plus the interpolation reach) can be non-zero.
  let gx0 = w;
  let gx1 = -1;
  let gy0 = h;
  let gy1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++)
      if (fg[i]) {
        if (x < gx0) gx0 = x;
        if (x > gx1) gx1 = x;
        if (y < gy0) gy0 = y;
        gy1 = y;
      }
  if (gx1 < 0) return createMap(img.width, img.height);
  let X0 = img.width;
  let X1 = -1;
  for (let x = 0; x < img.width; x++)
    if (xi[x]! + i1off >= gx0 && xi[x]! <= gx1) {
      if (x < X0) X0 = x;
      X1 = x;
    }
  let Y0 = img.height;
  let Y1 = -1;
  for (let y = 0; y < img.height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const j = Math.max(0, Math.min(h - 2, Math.floor(sy)));
    if (j + (h > 1 ? 1 : 0) >= gy0 && j <= gy1) {
      if (y < Y0) Y0 = y;
      Y1 = y;
    }
  }
  for (let y = Y0; y <= Y1; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const j = Math.max(0, Math.min(h - 2, Math.floor(sy)));
    const fy = h > 1 ? sy - j : 0;
    const r0 = j * w;
    const r1 = h > 1 ? r0 + w : r0;
    const row = y * img.width;
    for (let x = X0; x <= X1; x++) {
      const i = xi[x]!;
      const fx = xf[x]!;
      const i1 = i + i1off;
      const a00 = fg[r0 + i]!;
      const a01 = fg[r0 + i1]!;
      const a10 = fg[r1 + i]!;
      const a11 = fg[r1 + i1]!;
      // Flat neighbourhoods (nearly all pixels) need no interpolation.
      if (a00 === a01 && a10 === a11 && a00 === a10) {
        alpha.data[row + x] = a00;
        continue;
      }
      const v = (a00 * (1 - fx) + a01 * fx) * (1 - fy) + (a10 * (1 - fx) + a11 * fx) * fy;
      alpha.data[row + x] = v <= lo ? 0 : v >= hi ? 1 : (v - lo) * ramp;
    }
  }
  const soft = box3(alpha, X0, X1, Y0, Y1);
  if (clampToAlpha) {
    const n = img.width * img.height;
    for (let i = 0; i < n; i++) soft.data[i] = Math.min(soft.data[i]!, img.data[i * 4 + 3]! / 255);
  }
  return soft;
}
