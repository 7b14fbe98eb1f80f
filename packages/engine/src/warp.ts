/**
 * Backward warp of a garment part through a thin-plate spline (see tps.ts): the map is
 * evaluated on a coarse grid and interpolated; only the cells that can show the part are
 * drawn (see warp-cells.ts), and where the map folds over, the pixels are dropped.
 */
import { createImage, type FloatMap, type RGBAImage } from './image.js';
import { evalBlock, evalInto, fast, type Tps, type TpsFast } from './tps.js';
import { blockMayDraw, markCells, sourceTable } from './warp-cells.js';

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
