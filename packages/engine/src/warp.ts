/**
 * Thin-plate-spline warp. `fitTps(from, to)` returns a smooth map that sends every
 * `from` point (approximately, with regularisation) to its `to` point.
 */
import { createImage, type FloatMap, type RGBAImage } from './image.js';
import { solveSmall } from './solver.js';
import type { Point } from './types.js';

export interface Tps {
  from: Point[];
  /** Weights (n) + affine (3) for x and y. */
  wx: Float64Array;
  wy: Float64Array;
}

const U = (r2: number) => (r2 <= 1e-12 ? 0 : r2 * Math.log(r2));

/** Normalisation and flat control points kept with a fitted spline (for fast evaluation). */
interface TpsFast extends Tps {
  mx: number;
  my: number;
  scale: number;
  /** Normalised control points, flat. */
  fx: Float64Array;
  fy: Float64Array;
}

/**
 * Fit a TPS through point pairs. `lambda` (in units of the point spread squared)
 * trades exactness for smoothness; 0 interpolates exactly.
 */
export function fitTps(from: Point[], to: Point[], lambda = 0): Tps {
  const n = from.length;
  if (n !== to.length || n < 3) throw new Error('TPS needs at least 3 matching points');
  // Normalise coordinates for a well-conditioned system.
  let scale = 0;
  const mx = from.reduce((s, p) => s + p.x, 0) / n;
  const my = from.reduce((s, p) => s + p.y, 0) / n;
  for (const p of from) scale = Math.max(scale, Math.abs(p.x - mx), Math.abs(p.y - my));
  scale = scale || 1;
  const f = from.map((p) => ({ x: (p.x - mx) / scale, y: (p.y - my) / scale }));
  const size = n + 3;
  // The system (row-major): kernel values (lambda on the diagonal) and the affine terms.
  const a = new Float64Array(size * size);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++)
      a[i * size + j] = i === j ? lambda : U((f[i]!.x - f[j]!.x) ** 2 + (f[i]!.y - f[j]!.y) ** 2);
    a[i * size + n] = 1;
    a[i * size + n + 1] = f[i]!.x;
    a[i * size + n + 2] = f[i]!.y;
    a[n * size + i] = 1;
    a[(n + 1) * size + i] = f[i]!.x;
    a[(n + 2) * size + i] = f[i]!.y;
  }
  const bx = new Float64Array(size);
  const by = new Float64Array(size);
  for (let i = 0; i < n; i++) {
    bx[i] = to[i]!.x;
    by[i] = to[i]!.y;
  }
  const wx = new Float64Array(size);
  const wy = new Float64Array(size);
  solveSmall(a, bx, wx);
  solveSmall(a, by, wy);
  const stored = f.map((p) => ({ x: p.x * scale + mx, y: p.y * scale + my }));
  // The evaluation uses the control points as they come back from `from` (bit for bit
  // what the original per-call normalisation computed).
  const fx = new Float64Array(n);
  const fy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    fx[i] = (stored[i]!.x - mx) / scale;
    fy[i] = (stored[i]!.y - my) / scale;
  }
  const t: TpsFast = { from: stored, wx, wy, mx, my, scale, fx, fy };
  return t;
}

/** The flat evaluation data of a spline (built on the fly for a Tps made elsewhere). */
function fast(t: Tps): TpsFast {
  const q = t as Partial<TpsFast> & Tps;
  if (
    q.fx &&
    q.fy &&
    q.fx.length === t.from.length &&
    q.mx !== undefined &&
    q.my !== undefined &&
    q.scale !== undefined
  )
    return q as TpsFast;
  const mx = q.mx ?? 0;
  const my = q.my ?? 0;
  const scale = q.scale ?? 1;
  const n = t.from.length;
  const fx = new Float64Array(n);
  const fy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    fx[i] = (t.from[i]!.x - mx) / scale;
    fy[i] = (t.from[i]!.y - my) / scale;
  }
  return { from: t.from, wx: t.wx, wy: t.wy, mx, my, scale, fx, fy };
}

/**
 * Evaluate the spline at (x, y) into out[o] (x) and out[o + 1] (y). Same arithmetic as
 * `applyTps`, without allocating.
 */
function evalInto(t: TpsFast, x: number, y: number, out: Float64Array, o: number): void {
  const { wx, wy, fx, fy } = t;
  const n = fx.length;
  const px = (x - t.mx) / t.scale;
  const py = (y - t.my) / t.scale;
  let ox = wx[n]! + wx[n + 1]! * px + wx[n + 2]! * py;
  let oy = wy[n]! + wy[n + 1]! * px + wy[n + 2]! * py;
  for (let i = 0; i < n; i++) {
    const dx = px - fx[i]!;
    const dy = py - fy[i]!;
    const r2 = dx * dx + dy * dy;
    if (r2 <= 1e-12) continue;
    const u = r2 * Math.log(r2);
    ox += wx[i]! * u;
    oy += wy[i]! * u;
  }
  out[o] = ox;
  out[o + 1] = oy;
}

const scratch = new Float64Array(2);

export function applyTps(t: Tps, x: number, y: number): Point {
  evalInto(fast(t), x, y, scratch, 0);
  return { x: scratch[0]!, y: scratch[1]! };
}

/**
 * Evaluate the spline at many points: xy holds x0, y0, x1, y1, …; the results go to
 * `out` in the same layout (out may be xy itself).
 */
export function applyTpsInto(t: Tps, xy: ArrayLike<number>, out: Float64Array): Float64Array {
  const f = fast(t);
  for (let o = 0; o + 1 < xy.length; o += 2) evalInto(f, xy[o]!, xy[o + 1]!, out, o);
  return out;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Reusable scratch buffers (warpImage is synchronous; see image.ts). */
let satBuf = new Int32Array(0);
let gridBuf = new Float32Array(0);
let byteBuf = new Uint8Array(0);

/**
 * Summed-area table ((sw + 1) × (sh + 1)) of the source pixels a drawn pixel can come
 * from: the nearest of its four neighbours carries the part's label and has a pixel with
 * alpha > 0 within one step (without a part, id < 0: one of the four has alpha > 0).
 * Returns the number of such pixels.
 */
function sourceTable(
  sd: Uint8ClampedArray,
  ad: Float32Array,
  sw: number,
  sh: number,
  id: number,
  sat: Int32Array,
): number {
  return id >= 0 ? partTable(sd, ad, sw, sh, id, sat) : alphaTable(ad, sw, sh, sat);
}

function partTable(
  sd: Uint8ClampedArray,
  ad: Float32Array,
  sw: number,
  sh: number,
  id: number,
  sat: Int32Array,
): number {
  const sw1 = sw + 1;
  let total = 0;
  for (let y = 0; y < sh; y++) {
    let run = 0;
    const row = y * sw;
    const up = y > 0 ? row - sw : row;
    const down = y + 1 < sh ? row + sw : row;
    const o = (y + 1) * sw1;
    for (let x = 0; x < sw; x++) {
      if (sd[(row + x) * 4 + 3] === id) {
        const l = x > 0 ? x - 1 : x;
        const r = x + 1 < sw ? x + 1 : x;
        if (
          ad[row + x]! > 0 ||
          ad[row + l]! > 0 ||
          ad[row + r]! > 0 ||
          ad[up + l]! > 0 ||
          ad[up + x]! > 0 ||
          ad[up + r]! > 0 ||
          ad[down + l]! > 0 ||
          ad[down + x]! > 0 ||
          ad[down + r]! > 0
        )
          run++;
      }
      sat[o + x + 1] = sat[o - sw1 + x + 1]! + run;
    }
    total += run;
  }
  return total;
}

function alphaTable(ad: Float32Array, sw: number, sh: number, sat: Int32Array): number {
  const sw1 = sw + 1;
  let total = 0;
  for (let y = 0; y < sh; y++) {
    let run = 0;
    const row = y * sw;
    const o = (y + 1) * sw1;
    for (let x = 0; x < sw; x++) {
      if (ad[row + x]! > 0) run++;
      sat[o + x + 1] = sat[o - sw1 + x + 1]! + run;
    }
    total += run;
  }
  return total;
}

/** The spline at the grid points (x0 + i·step, y0 + j·step), i0 ≤ i ≤ i1, j0 ≤ j ≤ j1, not yet `done`. */
function evalBlock(
  t: TpsFast,
  x0: number,
  y0: number,
  step: number,
  gw: number,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  gx: Float32Array,
  gy: Float32Array,
  done: Uint8Array,
): void {
  const { wx, wy, fx, fy } = t;
  const n = fx.length;
  const mx = t.mx;
  const my = t.my;
  const scale = t.scale;
  for (let j = j0; j <= j1; j++) {
    const py = (y0 + j * step - my) / scale;
    for (let i = i0; i <= i1; i++) {
      const k = j * gw + i;
      if (done[k]) continue;
      done[k] = 1;
      const px = (x0 + i * step - mx) / scale;
      let ox = wx[n]! + wx[n + 1]! * px + wx[n + 2]! * py;
      let oy = wy[n]! + wy[n + 1]! * px + wy[n + 2]! * py;
      for (let q = 0; q < n; q++) {
        const dx = px - fx[q]!;
        const dy = py - fy[q]!;
        const r2 = dx * dx + dy * dy;
        if (r2 <= 1e-12) continue;
        const u = r2 * Math.log(r2);
        ox += wx[q]! * u;
        oy += wy[q]! * u;
      }
      gx[k] = ox;
      gy[k] = oy;
    }
  }
}

/** max of |∇ r²·ln r²| = 2r·|2 ln r + 1| over r in [rmin, rmax]. */
const R_STAR = Math.exp(-1.5);
function kernelSlope(r: number): number {
  return r > 0 ? 2 * r * Math.abs(2 * Math.log(r) + 1) : 0;
}
function maxKernelSlope(rmin: number, rmax: number): number {
  // 2r·|2 ln r + 1| rises on [0, e^-1.5], falls to 0 at e^-0.5, then rises.
  let m = Math.max(kernelSlope(rmin), kernelSlope(rmax));
  if (rmin < R_STAR && R_STAR < rmax) m = Math.max(m, kernelSlope(R_STAR));
  return m;
}

/** Any pixel of the source table in the nearest pixels of [minX, maxX] × [minY, maxY]? */
function tableHits(
  sat: Int32Array,
  sw: number,
  sh: number,
  minX: number,
  maxX: number,
  minY: number,
  maxY: number,
): boolean {
  if (maxX < 0 || minX > sw - 1 || maxY < 0 || minY > sh - 1) return false;
  const sw1 = sw + 1;
  const qx0 = minX > 0 ? Math.floor(minX) : 0;
  const qy0 = minY > 0 ? Math.floor(minY) : 0;
  const qx1 = maxX < sw - 1 ? Math.floor(maxX) + 2 : sw;
  const qy1 = maxY < sh - 1 ? Math.floor(maxY) + 2 : sh;
  return sat[qy1 * sw1 + qx1]! - sat[qy0 * sw1 + qx1]! - sat[qy1 * sw1 + qx0]! + sat[qy0 * sw1 + qx0]! !== 0;
}

/**
 * Can the spline send any point of the destination rectangle [xa, xb] × [ya, yb] near a
 * pixel of the source table? A conservative test: the value at the centre plus a bound
 * on the gradient over the disc around the rectangle (mean value theorem).
 */
function blockMayDraw(
  t: TpsFast,
  xa: number,
  xb: number,
  ya: number,
  yb: number,
  sat: Int32Array,
  sw: number,
  sh: number,
  p: Float64Array,
): boolean {
  const cx = (xa + xb) / 2;
  const cy = (ya + yb) / 2;
  evalInto(t, cx, cy, p, 0);
  const { wx, wy, fx, fy } = t;
  const n = fx.length;
  const rho = Math.hypot(xb - xa, yb - ya) / 2 / t.scale;
  const pcx = (cx - t.mx) / t.scale;
  const pcy = (cy - t.my) / t.scale;
  let gxs = Math.hypot(wx[n + 1]!, wx[n + 2]!);
  let gys = Math.hypot(wy[n + 1]!, wy[n + 2]!);
  for (let q = 0; q < n; q++) {
    const d = Math.hypot(pcx - fx[q]!, pcy - fy[q]!);
    const m = maxKernelSlope(Math.max(0, d - rho), d + rho);
    gxs += Math.abs(wx[q]!) * m;
    gys += Math.abs(wy[q]!) * m;
  }
  // Slack for rounding (the grid is stored as float32).
  const rx = gxs * rho * (1 + 1e-9) + 0.05 + Math.abs(p[0]!) * 1e-6;
  const ry = gys * rho * (1 + 1e-9) + 0.05 + Math.abs(p[1]!) * 1e-6;
  if (!(rx < Infinity && ry < Infinity)) return true;
  return tableHits(sat, sw, sh, p[0]! - rx, p[0]! + rx, p[1]! - ry, p[1]! + ry);
}

/**
 * Mark the cells (ci × cj) whose corners' bounding box (in source pixels) holds a pixel
 * of the source table. A pixel's source position is a convex combination of its cell's
 * corners, so unmarked cells draw nothing.
 */
function markCells(
  gx: Float32Array,
  gy: Float32Array,
  gw: number,
  ci: number,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  sat: Int32Array,
  sw: number,
  sh: number,
  cell: Uint8Array,
): boolean {
  const sw1 = sw + 1;
  let any = false;
  for (let j = j0; j < j1; j++)
    for (let i = i0; i < i1; i++) {
      const k = j * gw + i;
      const a = gx[k]!;
      const b = gx[k + 1]!;
      const c = gx[k + gw]!;
      const d = gx[k + gw + 1]!;
      const e = gy[k]!;
      const f = gy[k + 1]!;
      const g = gy[k + gw]!;
      const h = gy[k + gw + 1]!;
      const minX = Math.min(a, b, c, d);
      const maxX = Math.max(a, b, c, d);
      const minY = Math.min(e, f, g, h);
      const maxY = Math.max(e, f, g, h);
      if (maxX < 0 || minX > sw - 1 || maxY < 0 || minY > sh - 1) continue;
      // Nearest pixels of positions in [minX, maxX] × [minY, maxY] (inside the image).
      const qx0 = minX > 0 ? Math.floor(minX) : 0;
      const qy0 = minY > 0 ? Math.floor(minY) : 0;
      const qx1 = maxX < sw - 1 ? Math.floor(maxX) + 2 : sw;
      const qy1 = maxY < sh - 1 ? Math.floor(maxY) + 2 : sh;
      if (sat[qy1 * sw1 + qx1]! - sat[qy0 * sw1 + qx1]! - sat[qy1 * sw1 + qx0]! + sat[qy0 * sw1 + qx0]! === 0) continue;
      cell[j * ci + i] = 1;
      any = true;
    }
  return any;
}

/**
 * Where the map folds over, the garment point does not come back here: unmark cells
 * with a corner whose forward image lands further than `tol` from it.
 */
function dropFolds(
  fwd: TpsFast,
  gx: Float32Array,
  gy: Float32Array,
  gw: number,
  ci: number,
  cj: number,
  x0: number,
  y0: number,
  step: number,
  tol: number,
  cell: Uint8Array,
  state: Uint8Array,
): void {
  const tol2 = tol * tol;
  // state (gw × (cj + 1), zero on entry): 0 unchecked, 1 valid, 2 dropped.
  const p = new Float64Array(2);
  for (let j = 0; j < cj; j++)
    for (let i = 0; i < ci; i++) {
      if (!cell[j * ci + i]) continue;
      const k = j * gw + i;
      let ok = true;
      for (let c = 0; c < 4; c++) {
        const dxg = c & 1;
        const dyg = c >> 1;
        const kk = k + dxg + dyg * gw;
        let s = state[kk]!;
        if (s === 0) {
          evalInto(fwd, gx[kk]!, gy[kk]!, p, 0);
          const dx = p[0]! - (x0 + (i + dxg) * step);
          const dy = p[1]! - (y0 + (j + dyg) * step);
          s = dx * dx + dy * dy > tol2 ? 2 : 1;
          state[kk] = s;
        }
        if (s === 2) ok = false;
      }
      if (!ok) cell[j * ci + i] = 0;
    }
}

/** Bilinear sampling of the marked cells (see `warpImage`). */
function drawCells(
  sd: Uint8ClampedArray,
  ad: Float32Array,
  sw: number,
  sh: number,
  id: number,
  gx: Float32Array,
  gy: Float32Array,
  gw: number,
  ci: number,
  cj: number,
  step: number,
  cell: Uint8Array,
  width: number,
  height: number,
  od: Uint8ClampedArray,
  oa: Float32Array,
): void {
  const sxMax = sw - 1;
  const syMax = sh - 1;
  const checkId = id >= 0;
  // Fractions inside a cell, exactly as x / step − ⌊x / step⌋.
  const txs = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const f = x / step;
    txs[x] = f - Math.floor(f);
  }
  for (let j = 0; j < cj; j++) {
    const yEnd = Math.min(height, (j + 1) * step);
    for (let i = 0; i < ci; i++) {
      if (!cell[j * ci + i]) continue;
      const k = j * gw + i;
      const g00x = gx[k]!;
      const g10x = gx[k + 1]!;
      const g01x = gx[k + gw]!;
      const g11x = gx[k + gw + 1]!;
      const g00y = gy[k]!;
      const g10y = gy[k + 1]!;
      const g01y = gy[k + gw]!;
      const g11y = gy[k + gw + 1]!;
      const xStart = i * step;
      const xEnd = Math.min(width, xStart + step);
      for (let y = j * step; y < yEnd; y++) {
        const fjy = y / step;
        const ty = fjy - Math.floor(fjy);
        for (let x = xStart; x < xEnd; x++) {
          const tx = txs[x]!;
          const sx = (g00x * (1 - tx) + g10x * tx) * (1 - ty) + (g01x * (1 - tx) + g11x * tx) * ty;
          const sy = (g00y * (1 - tx) + g10y * tx) * (1 - ty) + (g01y * (1 - tx) + g11y * tx) * ty;
          if (sx < 0 || sy < 0 || sx > sxMax || sy > syMax) continue;
          const xa = sx | 0;
          const ya = sy | 0;
          const xb = xa < sxMax ? xa + 1 : xa;
          const yb = ya < syMax ? ya + 1 : ya;
          const fx = sx - xa;
          const fy = sy - ya;
          const i00 = ya * sw + xa;
          const i10 = ya * sw + xb;
          const i01 = yb * sw + xa;
          const i11 = yb * sw + xb;
          if (checkId && sd[(fx < 0.5 ? (fy < 0.5 ? i00 : i01) : fy < 0.5 ? i10 : i11) * 4 + 3] !== id) continue;
          const w00 = (1 - fx) * (1 - fy);
          const w10 = fx * (1 - fy);
          const w01 = (1 - fx) * fy;
          const w11 = fx * fy;
          const a = ad[i00]! * w00 + ad[i10]! * w10 + ad[i01]! * w01 + ad[i11]! * w11;
          if (a <= 0.003) continue;
          const di = y * width + x;
          oa[di] = a;
          const o = di * 4;
          const s00 = i00 * 4;
          const s10 = i10 * 4;
          const s01 = i01 * 4;
          const s11 = i11 * 4;
          od[o] = sd[s00]! * w00 + sd[s10]! * w10 + sd[s01]! * w01 + sd[s11]! * w11;
          od[o + 1] = sd[s00 + 1]! * w00 + sd[s10 + 1]! * w10 + sd[s01 + 1]! * w01 + sd[s11 + 1]! * w11;
          od[o + 2] = sd[s00 + 2]! * w00 + sd[s10 + 2]! * w10 + sd[s01 + 2]! * w01 + sd[s11 + 2]! * w11;
        }
      }
    }
  }
}

export interface WarpResult {
  image: RGBAImage;
  alpha: FloatMap;
  x0: number;
  y0: number;
  /**
   * Rectangle (in the returned images' pixels, inclusive) outside which alpha is 0, or
   * null when nothing was drawn. Callers can limit their per-pixel work to it.
   */
  drawn: Box | null;
}

/** Rectangle of the marked cells' pixels (inclusive), or null. */
function cellsBox(cell: Uint8Array, ci: number, cj: number, step: number, width: number, height: number): Box | null {
  let i0 = ci;
  let i1 = -1;
  let j0 = cj;
  let j1 = -1;
  for (let j = 0; j < cj; j++)
    for (let i = 0; i < ci; i++)
      if (cell[j * ci + i]) {
        if (i < i0) i0 = i;
        if (i > i1) i1 = i;
        if (j < j0) j0 = j;
        j1 = j;
      }
  if (i1 < 0) return null;
  return {
    x0: i0 * step,
    y0: j0 * step,
    x1: Math.min(width - 1, (i1 + 1) * step - 1),
    y1: Math.min(height - 1, (j1 + 1) * step - 1),
  };
}

/**
 * Backward-warp `src` (RGBA + alpha map) onto the destination rectangle `box`
 * (integer pixel bounds, inclusive): for every destination pixel `inverse` gives the
 * source position. The map is evaluated on a coarse grid and interpolated bilinearly.
 * Returns box-sized images; (x0, y0) is the box's top-left in destination pixels.
 *
 * Only grid cells that can show the part are scanned (see `markCells`); the fold check
 * with `part.forward` is done on the corners of those cells only.
 */
export function warpImage(
  src: RGBAImage,
  srcAlpha: FloatMap,
  inverse: Tps,
  box: Box,
  step = 4,
  part?: { id: number; forward?: Tps; tolerance?: number },
): WarpResult {
  const x0 = Math.floor(box.x0);
  const y0 = Math.floor(box.y0);
  const width = Math.max(1, Math.ceil(box.x1) - x0 + 1);
  const height = Math.max(1, Math.ceil(box.y1) - y0 + 1);
  const out = createImage(width, height);
  const alpha: FloatMap = { width, height, data: new Float32Array(width * height) };
  const sw = src.width;
  const sh = src.height;
  const id = part ? part.id : -1;
  const satLen = (sw + 1) * (sh + 1);
  if (satBuf.length < satLen) satBuf = new Int32Array(satLen);
  const sat = satBuf;
  // Row 0 and column 0 of the table are zero; the rest is written.
  sat.fill(0, 0, sw + 1);
  for (let y = 1; y <= sh; y++) sat[y * (sw + 1)] = 0;
  if (sourceTable(src.data, srcAlpha.data, sw, sh, id, sat) === 0) return { image: out, alpha, x0, y0, drawn: null };
  // Grid: cells (i, j) cover pixels [i·step, (i+1)·step) × [j·step, (j+1)·step).
  const ci = Math.floor((width - 1) / step) + 1;
  const cj = Math.floor((height - 1) / step) + 1;
  const gw = ci + 1;
  const gh = cj + 1;
  if (gridBuf.length < 2 * gw * gh) gridBuf = new Float32Array(2 * gw * gh);
  const gx = gridBuf.subarray(0, gw * gh);
  const gy = gridBuf.subarray(gw * gh, 2 * gw * gh);
  if (byteBuf.length < ci * cj + 2 * gw * gh) byteBuf = new Uint8Array(ci * cj + 2 * gw * gh);
  const cell = byteBuf.subarray(0, ci * cj).fill(0);
  const state = byteBuf.subarray(ci * cj, ci * cj + gw * gh).fill(0);
  const done = byteBuf.subarray(ci * cj + gw * gh, ci * cj + 2 * gw * gh).fill(0);
  // Blocks of B × B cells: skip those the spline provably sends away from the part
  // (their grid points are never evaluated), then test each cell of the others.
  const inv = fast(inverse);
  const B = 4;
  const p = new Float64Array(2);
  let any = false;
  for (let j0 = 0; j0 < cj; j0 += B)
    for (let i0 = 0; i0 < ci; i0 += B) {
      const i1 = Math.min(ci, i0 + B);
      const j1 = Math.min(cj, j0 + B);
      if (!blockMayDraw(inv, x0 + i0 * step, x0 + i1 * step, y0 + j0 * step, y0 + j1 * step, sat, sw, sh, p)) continue;
      evalBlock(inv, x0, y0, step, gw, i0, i1, j0, j1, gx, gy, done);
      if (markCells(gx, gy, gw, ci, i0, i1, j0, j1, sat, sw, sh, cell)) any = true;
    }
  if (!any) return { image: out, alpha, x0, y0, drawn: null };
  if (part?.forward) dropFolds(fast(part.forward), gx, gy, gw, ci, cj, x0, y0, step, part.tolerance ?? 8, cell, state);
  drawCells(src.data, srcAlpha.data, sw, sh, id, gx, gy, gw, ci, cj, step, cell, width, height, out.data, alpha.data);
  return { image: out, alpha, x0, y0, drawn: cellsBox(cell, ci, cj, step, width, height) };
}
