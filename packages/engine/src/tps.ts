/**
 * Thin-plate spline. `fitTps(from, to)` returns a smooth map that sends every `from` point
 * (approximately, with regularisation) to its `to` point; the evaluation at one point, many
 * points, or a block of grid points (for the warp).
 */
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
export interface TpsFast extends Tps {
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
export function fast(t: Tps): TpsFast {
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
export function evalInto(t: TpsFast, x: number, y: number, out: Float64Array, o: number): void {
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

/** The spline at the grid points (x0 + i·step, y0 + j·step), i0 ≤ i ≤ i1, j0 ≤ j ≤ j1, not yet `done`. */
export function evalBlock(
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
