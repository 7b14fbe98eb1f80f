/**
 * Which cells of the warp's grid can draw the part: a summed-area table of the source pixels
 * the part can come from, a conservative test that skips whole blocks of cells the spline
 * sends away from them, and the cells whose corners land near one.
 */
import { evalInto, type TpsFast } from './tps.js';

/**
 * Summed-area table ((sw + 1) × (sh + 1)) of the source pixels a drawn pixel can come
 * from: the nearest of its four neighbours carries the part's label and has a pixel with
 * alpha > 0 within one step (without a part, id < 0: one of the four has alpha > 0).
 * Returns the number of such pixels.
 */
export function sourceTable(
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
export function blockMayDraw(
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
export function markCells(
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
