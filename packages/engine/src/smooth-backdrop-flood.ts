/**
 * The background flood on a smooth backdrop (see garment-segmentation.ts): edges at full
 * resolution and steps in distance to the backdrop are barriers it does not cross.
 */
import type { RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';
import { edgeMap, type GridImage } from './garment-grid.js';
import { floodFromBorder, growInto, labelComponents, morph } from './mask-ops.js';
import { SEGMENTATION_THRESHOLDS } from './segmentation-thresholds.js';

const T = SEGMENTATION_THRESHOLDS;

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
export function floodSmoothBackdrop(
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
