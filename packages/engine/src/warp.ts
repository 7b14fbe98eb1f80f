/**
 * Thin-plate-spline warp. `fitTps(from, to)` returns a smooth map that sends every
 * `from` point (approximately, with regularisation) to its `to` point.
 */
import { createImage, type FloatMap, type RGBAImage } from './image.js';
import type { Point } from './garment.js';

export interface Tps {
  from: Point[];
  /** Weights (n) + affine (3) for x and y. */
  wx: Float64Array;
  wy: Float64Array;
}

const U = (r2: number) => (r2 <= 1e-12 ? 0 : r2 * Math.log(r2));

/** Solve A·x = b in place (Gaussian elimination with partial pivoting). */
function solve(a: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    [b[c], b[p]] = [b[p]!, b[c]!];
    const piv = a[c]![c]!;
    if (Math.abs(piv) < 1e-12) continue;
    for (let r = c + 1; r < n; r++) {
      const f = a[r]![c]! / piv;
      if (!f) continue;
      for (let k = c; k < n; k++) a[r]![k]! -= f * a[c]![k]!;
      b[r]! -= f * b[c]!;
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < n; k++) s -= a[r]![k]! * x[k]!;
    const piv = a[r]![r]!;
    x[r] = Math.abs(piv) < 1e-12 ? 0 : s / piv;
  }
  return x;
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
  const build = () => {
    const a: Float64Array[] = [];
    for (let i = 0; i < size; i++) a.push(new Float64Array(size));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i]![j] = i === j ? lambda : U((f[i]!.x - f[j]!.x) ** 2 + (f[i]!.y - f[j]!.y) ** 2);
      a[i]![n] = 1;
      a[i]![n + 1] = f[i]!.x;
      a[i]![n + 2] = f[i]!.y;
      a[n]![i] = 1;
      a[n + 1]![i] = f[i]!.x;
      a[n + 2]![i] = f[i]!.y;
    }
    return a;
  };
  const bx = new Float64Array(size);
  const by = new Float64Array(size);
  for (let i = 0; i < n; i++) {
    bx[i] = to[i]!.x;
    by[i] = to[i]!.y;
  }
  const wx = solve(build(), bx);
  const wy = solve(build(), by);
  return { from: f.map((p) => ({ x: p.x * scale + mx, y: p.y * scale + my })), wx, wy, ...{ mx, my, scale } } as Tps & { mx: number; my: number; scale: number };
}

export function applyTps(t: Tps, x: number, y: number): Point {
  const { mx, my, scale } = t as Tps & { mx: number; my: number; scale: number };
  const px = (x - mx) / scale;
  const py = (y - my) / scale;
  const n = t.from.length;
  let ox = t.wx[n]! + t.wx[n + 1]! * px + t.wx[n + 2]! * py;
  let oy = t.wy[n]! + t.wy[n + 1]! * px + t.wy[n + 2]! * py;
  for (let i = 0; i < n; i++) {
    const fx = (t.from[i]!.x - mx) / scale;
    const fy = (t.from[i]!.y - my) / scale;
    const u = U((px - fx) ** 2 + (py - fy) ** 2);
    ox += t.wx[i]! * u;
    oy += t.wy[i]! * u;
  }
  return { x: ox, y: oy };
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Backward-warp `src` (RGBA + alpha map) onto the destination rectangle `box`
 * (integer pixel bounds, inclusive): for every destination pixel `inverse` gives the
 * source position. The map is evaluated on a coarse grid and interpolated bilinearly.
 * Returns box-sized images; (x0, y0) is the box's top-left in destination pixels.
 */
export function warpImage(
  src: RGBAImage,
  srcAlpha: FloatMap,
  inverse: Tps,
  box: Box,
  step = 4,
  part?: { id: number; forward?: Tps; tolerance?: number },
): { image: RGBAImage; alpha: FloatMap; x0: number; y0: number } {
  const x0 = Math.floor(box.x0);
  const y0 = Math.floor(box.y0);
  const width = Math.max(1, Math.ceil(box.x1) - x0 + 1);
  const height = Math.max(1, Math.ceil(box.y1) - y0 + 1);
  const out = createImage(width, height);
  const alpha: FloatMap = { width, height, data: new Float32Array(width * height) };
  const gw = Math.ceil(width / step) + 2;
  const gh = Math.ceil(height / step) + 2;
  const gx = new Float32Array(gw * gh);
  const gy = new Float32Array(gw * gh);
  for (let j = 0; j < gh; j++)
    for (let i = 0; i < gw; i++) {
      const bx = x0 + i * step;
      const by = y0 + j * step;
      const p = applyTps(inverse, bx, by);
      gx[j * gw + i] = p.x;
      gy[j * gw + i] = p.y;
      if (part?.forward) {
        // Where the map folds over, the garment point does not come back here: drop it.
        const q = applyTps(part.forward, p.x, p.y);
        if (Math.hypot(q.x - bx, q.y - by) > (part.tolerance ?? 8)) {
          gx[j * gw + i] = -1e9;
          gy[j * gw + i] = -1e9;
        }
      }
    }
  const sw = src.width;
  const sh = src.height;
  const sd = src.data;
  const ad = srcAlpha.data;
  for (let y = 0; y < height; y++) {
    const fj = y / step;
    const j = Math.floor(fj);
    const ty = fj - j;
    for (let x = 0; x < width; x++) {
      const fi = x / step;
      const i = Math.floor(fi);
      const tx = fi - i;
      const k = j * gw + i;
      if (gx[k]! < -1e8 || gx[k + 1]! < -1e8 || gx[k + gw]! < -1e8 || gx[k + gw + 1]! < -1e8) continue;
      const sx = (gx[k]! * (1 - tx) + gx[k + 1]! * tx) * (1 - ty) + (gx[k + gw]! * (1 - tx) + gx[k + gw + 1]! * tx) * ty;
      const sy = (gy[k]! * (1 - tx) + gy[k + 1]! * tx) * (1 - ty) + (gy[k + gw]! * (1 - tx) + gy[k + gw + 1]! * tx) * ty;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const xa = Math.floor(sx);
      const ya = Math.floor(sy);
      const xb = xa + 1 < sw ? xa + 1 : xa;
      const yb = ya + 1 < sh ? ya + 1 : ya;
      const fx = sx - xa;
      const fy = sy - ya;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      const i00 = ya * sw + xa;
      const i10 = ya * sw + xb;
      const i01 = yb * sw + xa;
      const i11 = yb * sw + xb;
      if (part && sd[(fx < 0.5 ? (fy < 0.5 ? i00 : i01) : fy < 0.5 ? i10 : i11) * 4 + 3] !== part.id) continue;
      const a = ad[i00]! * w00 + ad[i10]! * w10 + ad[i01]! * w01 + ad[i11]! * w11;
      if (a <= 0.003) continue;
      const o = (y * width + x) * 4;
      alpha.data[y * width + x] = a;
      for (let c = 0; c < 3; c++) out.data[o + c] = sd[i00 * 4 + c]! * w00 + sd[i10 * 4 + c]! * w10 + sd[i01 * 4 + c]! * w01 + sd[i11 * 4 + c]! * w11;
    }
  }
  return { image: out, alpha, x0, y0 };
}
