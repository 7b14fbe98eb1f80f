/**
 * Garment segmentation: cut the garment out of its plain background (or use the PNG
 * alpha channel) on a reduced analysis grid, clean the mask, and give it a soft edge at
 * the photo's own resolution.
 */
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';
import { boxDown, box3, edgeMap, type GridImage } from './garment-grid.js';
import { fillHoles, floodFromBorder, growInto, labelComponents, mainComponents, morph } from './mask-ops.js';
import { fitQuadraticSurface, surfaceAt } from './solver.js';
import { kmeans, otsu } from './stats.js';

/**
 * Every threshold of the cut-out. "Distance" is the Euclidean RGB distance (0..255 per
 * channel) of a grid cell's colour to the backdrop model; `t` is the distance threshold
 * chosen per photo (cells nearer than `t` to the backdrop may be background).
 */
export const SEGMENTATION_THRESHOLDS = {
  /** Long side of the analysis grid: the box-downscale factor is the photo's long side over this, rounded (cells). */
  gridLongSide: 320,
  /** A grid cell with a lower mean alpha is transparent (alpha 0..1). */
  transparentAlpha: 0.5,
  /** With more transparent cells than this share of the grid, the photo's own alpha is the cut-out (share of grid cells). */
  minTransparentShare: 0.05,

  // Backdrop model
  /** Width of the border band the backdrop is sampled from (share of the grid's short side). */
  borderBandShare: 0.03,
  /** The border band is at least this wide (cells). */
  minBorderBand: 2,
  /** One border-band cell in this many (on diagonals: (x + y) mod n = 0) is a backdrop sample (cells). */
  borderSampleStep: 3,
  /** Quadratic backdrop surface: a sample farther than this from it is always an outlier (RGB distance). */
  surfaceOutlierFloor: 6,
  /** …and so is one farther than this multiple of the median residual (× median residual). */
  surfaceOutlierMedianFactor: 3,
  /** The surface describes the backdrop only when more than this share of the samples are inliers (share of samples). */
  surfaceMinInlierShare: 0.6,
  /** A backdrop whose samples lie closer than this to their model (mean residual) is smooth: edges then act as barriers (RGB distance). */
  smoothBackdropSpread: 6,
  /** Colour clusters fitted to the samples of a backdrop the surface does not describe (k-means k). */
  backdropClusters: 4,
  /** Backdrop clusters with a smaller share of the samples are left out of the model (share of samples). */
  minBackdropClusterShare: 0.08,
  /** A backdrop whose clusters spread more than this is not plain: the garment is refused (RGB distance). */
  maxBackdropSpread: 40,

  // Distance threshold t
  /** Backdrops spreading less than this are flat: lower floor and cap for t (RGB distance). */
  flatBackdropSpread: 4,
  /** Floor of t on a flat backdrop: this plus flatFloorPerSpread × spread (RGB distance). */
  flatFloorBase: 7,
  /** …per unit of spread (× spread). */
  flatFloorPerSpread: 2,
  /** Floor of t on other backdrops: this plus floorPerSpread × spread (RGB distance). */
  floorBase: 16,
  /** …per unit of spread (× spread). */
  floorPerSpread: 1.5,
  /** t is this share of Otsu's threshold of the distances, then clamped (× Otsu's threshold). */
  otsuShare: 0.6,
  /** Cap on Otsu's share on a flat backdrop (RGB distance). */
  flatOtsuCap: 12,
  /** Cap on Otsu's share on other backdrops (RGB distance). */
  otsuCap: 60,
  /** Cap on t on other backdrops, above its floor too (RGB distance). */
  thresholdCap: 90,

  // Smooth backdrop: edges as barriers for the background flood
  /** Cells nearer than this multiple of t may be backdrop features (a floor line, a soft shadow); edges matter only next to them (× t). */
  nearBackdropFactor: 2,
  /** Edges are computed up to this far from such cells (cells). */
  edgeReach: 1,
  /** Barrier edge strength when the border band has no background-coloured cell (luminance gradient, 0..255-ish). */
  defaultEdgeThreshold: 8,
  /** The barrier edge strength sits above this percentile of the backdrop's own edges (0..1)… */
  backdropEdgePercentile: 0.99,
  /** …by this margin (luminance gradient). */
  edgeMargin: 2,
  /** Lowest barrier edge strength (luminance gradient). */
  minEdgeThreshold: 4,
  /** Highest barrier edge strength (luminance gradient). */
  maxEdgeThreshold: 16,
  /** A step of at least this in distance between a cell's neighbours is a barrier too: a faint hem line (RGB distance). */
  distanceStep: 5,
  /** The barrier is thickened by this before the flood, so it cannot slip through a one-cell gap or a diagonal (cells). */
  barrierThickening: 1,
  /** Cells nearer than t divided by this are clearly backdrop and get back what the thickening took whole (÷ t). */
  clearBackdropDivisor: 3,
  /** Background-coloured places enclosed by barriers are checked for a wide core only from this many cells on (cells). */
  minEnclosedArea: 25,
  /** A wide enclosed place keeps a core after eroding by this; it stays garment except right next to the background (cells). */
  wideCoreErosion: 2,
  /** Background-coloured cells right next to the background join it across barriers this many cells deep (cells). */
  backdropFringe: 2,
  /** The background climbs background-coloured barrier cells up to the edge's ridge, at most this many cells (cells). */
  edgeClimb: 3,

  // Textured backdrop: a second look with a garment colour model
  /** Garment cells farther than this multiple of t from the backdrop are surely garment and train the garment model (× t). */
  strongFactor: 1.5,
  /** One grid cell in this many is looked at for strong garment samples (cells). */
  strongSampleStep: 5,
  /** The garment model needs more strong samples than the grid's cell count divided by this (÷ grid cells). */
  strongSamplesDivisor: 500,
  /** Colour clusters of the garment model (k-means k). */
  garmentClusters: 5,
  /** Garment clusters with a smaller share of the samples are left out (share of samples). */
  minGarmentClusterShare: 0.03,
  /** Garment cells nearer than this multiple of t to the backdrop may become background (× t)… */
  reclassifyFactor: 2,
  /** …when their distance to the backdrop times this is still below their distance to the garment model (ratio). */
  reclassifyRatio: 1.6,

  // Cleaning and checks
  /** Radius of the opening that removes hanger hooks, strings and speckles (share of the grid's long side). */
  openingRadiusShare: 0.008,
  /** The opening's radius is at least this (cells). */
  minOpeningRadius: 1,
  /** Pieces besides the largest are kept when at least this share of its size (share of the largest piece). */
  mainPieceShare: 0.15,
  /** A cut-out smaller than this share of the grid is no garment found (share of grid cells). */
  minGarmentShare: 0.04,
  /** A cut-out larger than this share of the grid fills the photo (share of grid cells). */
  maxGarmentShare: 0.93,
  /** A cut-out touching more than this share of the grid's border fills the photo (share of border cells, 2 × (w + h)). */
  maxBorderTouchShare: 0.5,

  // Soft alpha
  /** Upsampled mask values at or below this become alpha 0 (0..1). */
  alphaRampLow: 0.25,
  /** Upsampled mask values at or above this become alpha 1; linear in between (0..1). */
  alphaRampHigh: 0.75,
} as const;

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

/** Edge strength that counts as a barrier: well above the backdrop's own noise (border band, background-coloured cells). */
function edgeThreshold(edge: Float32Array, dist: Float32Array, t: number, w: number, h: number, band: number): number {
  const v: number[] = [];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      if (x >= band && x < w - band && y >= band && y < h - band) continue;
      const i = y * w + x;
      if (dist[i]! < t) v.push(edge[i]!);
    }
  if (!v.length) return T.defaultEdgeThreshold;
  const a = Float32Array.from(v).sort();
  const p = a[Math.floor(T.backdropEdgePercentile * (a.length - 1))]!;
  return Math.max(T.minEdgeThreshold, Math.min(T.maxEdgeThreshold, p + T.edgeMargin));
}

/**
 * Barrier cells for the background flood: an edge at full resolution, or a step in
 * distance to the backdrop (a faint hem line on a light garment); only where `need` is 1
 * (no enterable cell within reach elsewhere: the barrier cannot matter there).
 */
function barrierCells(
  edge: Float32Array,
  eT: number,
  dist: Float32Array,
  need: Uint8Array,
  w: number,
  h: number,
): BinaryMask {
  const bar: BinaryMask = { width: w, height: h, data: new Uint8Array(w * h) };
  const dT = T.distanceStep;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++) {
      if (!need[i]) continue;
      if (edge[i]! >= eT) bar.data[i] = 1;
      else if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
        const gx = dist[i + 1]! - dist[i - 1]!;
        const gy = dist[i + w]! - dist[i - w]!;
        if ((gx < 0 ? -gx : gx) >= dT || (gy < 0 ? -gy : gy) >= dT) bar.data[i] = 1;
      }
    }
  return bar;
}

/**
 * Background cells on a smooth backdrop. The background is flat there, and a light
 * garment's outline (a seam, a thin shadow) is an edge at full resolution even where its
 * colour is close to the backdrop: edges are a barrier for the background flood.
 */
function floodSmoothBackdrop(
  img: RGBAImage,
  f: number,
  grid: GridImage,
  dist: Float32Array,
  t: number,
  pass: Uint8Array,
  band: number,
): Uint8Array {
  const { w, h } = grid;
  const N = w * h;
  // Edges only matter next to cells the background flood may enter.
  const nearT = T.nearBackdropFactor * t;
  const near: BinaryMask = { width: w, height: h, data: new Uint8Array(N) };
  for (let i = 0; i < N; i++) near.data[i] = dist[i]! < nearT ? 1 : 0;
  const need = morph(near, -T.edgeReach).data;
  const edge = edgeMap(img, f, w, h, need);
  const eT = edgeThreshold(edge, dist, t, w, h, band);
  const bar = barrierCells(edge, eT, dist, need, w, h);
  // Flood with the barrier thickened (no slipping through a one-cell gap or a diagonal),
  // then give back what the thickening took.
  const thick = morph(bar, -T.barrierThickening).data;
  const open = new Uint8Array(N);
  for (let i = 0; i < N; i++) open[i] = pass[i] && !thick[i] ? 1 : 0;
  const bg = floodFromBorder(w, h, open);
  // Smooth backdrop features a little off the fitted surface (a floor line, a soft
  // shadow) belong to it as long as no edge separates them from the background.
  for (let i = 0; i < N; i++) open[i] = !thick[i] && dist[i]! < nearT ? 1 : 0;
  growInto(bg, open, w, h, Infinity);
  giveBackThickening(bg, pass, bar.data, dist, t, w, h);
  // The outline's edge reaches a cell or two onto the backdrop: let the background
  // climb background-coloured barrier cells up to the edge's ridge, not beyond.
  for (let i = 0; i < N; i++) open[i] = pass[i] && bar.data[i] ? 1 : 0;
  growInto(bg, open, w, h, T.edgeClimb, edge);
  return bg;
}

/**
 * Give back what the barrier's thickening took: clearly-background places (the floor
 * between trouser legs) whole; narrow background-coloured places (a thin gap between legs,
 * a fringe along the outline) whole even across edges; wide ones (the inside of a light
 * garment reached through a gap in its outline) only right next to the background.
 */
function giveBackThickening(
  bg: Uint8Array,
  pass: Uint8Array,
  bar: Uint8Array,
  dist: Float32Array,
  t: number,
  w: number,
  h: number,
): void {
  const N = w * h;
  const open = new Uint8Array(N);
  const tClear = t / T.clearBackdropDivisor;
  for (let i = 0; i < N; i++) open[i] = pass[i] && !bar[i] && dist[i]! < tClear ? 1 : 0;
  growInto(bg, open, w, h, Infinity);
  const full = bg.slice();
  growInto(full, pass, w, h, Infinity);
  const added: BinaryMask = { width: w, height: h, data: new Uint8Array(N) };
  for (let i = 0; i < N; i++) added.data[i] = full[i] && !bg[i] ? 1 : 0;
  let nAdded = 0;
  for (let i = 0; i < N; i++) nAdded += added.data[i]!;
  if (nAdded > 0) {
    const core = nAdded >= T.minEnclosedArea ? morph(added, T.wideCoreErosion).data : new Uint8Array(N);
    const { labels, sizes } = labelComponents(added.data, w, h, { connectivity: 4 });
    const wide = new Uint8Array(sizes.length);
    for (let i = 0; i < N; i++) if (core[i]) wide[labels[i]!] = 1;
    for (let i = 0; i < N; i++) if (added.data[i] && !wide[labels[i]!]) bg[i] = 1;
  }
  for (let i = 0; i < N; i++) open[i] = pass[i] && !bar[i] ? 1 : 0;
  growInto(bg, open, w, h, T.backdropFringe);
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
