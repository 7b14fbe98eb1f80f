/**
 * The engine's one dense linear solver (for the thin-plate spline and the colour surface) and
 * the robust least-squares quadratic colour surface built on it.
 */

/** A quadratic colour surface: coefficients of [1, x, y, x², y², xy] per channel (18 numbers). */
export type Surface = Float64Array;

/** Evaluate channel c of the surface at (x, y). */
export function surfaceAt(coef: Surface, c: number, x: number, y: number): number {
  const o = c * 6;
  let p = 0;
  p += coef[o]! * 1;
  p += coef[o + 1]! * x;
  p += coef[o + 2]! * y;
  p += coef[o + 3]! * (x * x);
  p += coef[o + 4]! * (y * y);
  p += coef[o + 5]! * (x * y);
  return p;
}

/** How the surface fit drops outliers (samples that are not background) before its refit. */
export interface SurfaceOutliers {
  /** A sample is an outlier when its colour is farther from the surface than max(minLimit, medianFactor × the median residual): the floor, in RGB units. */
  minLimit: number;
  /** …and the multiple of the median residual. */
  medianFactor: number;
  /** The fit counts as smooth only when more than this share of the samples are inliers (else its spread is Infinity). */
  minInlierShare: number;
}

/**
 * Least-squares quadratic surface through colour samples at positions `pos` (x, y, x, y, …;
 * per channel), then one refit without the outliers. `spread` is the inliers' mean residual.
 */
export function fitQuadraticSurface(
  pos: Float64Array,
  rgb: Float32Array,
  n: number,
  outliers: SurfaceOutliers,
): { coef: Surface; spread: number } {
  // Basis rows of every sample, once.
  const F = new Float64Array(n * 6);
  for (let i = 0; i < n; i++) {
    const x = pos[i * 2]!;
    const y = pos[i * 2 + 1]!;
    F[i * 6] = 1;
    F[i * 6 + 1] = x;
    F[i * 6 + 2] = y;
    F[i * 6 + 3] = x * x;
    F[i * 6 + 4] = y * y;
    F[i * 6 + 5] = x * y;
  }
  let use = new Uint8Array(n).fill(1);
  const coef = new Float64Array(18);
  const res = new Float64Array(n);
  let spread = Infinity;
  const A = new Float64Array(36);
  const b = new Float64Array(18);
  for (let pass = 0; pass < 2; pass++) {
    // The normal matrix is the same for the three channels.
    A.fill(0);
    b.fill(0);
    for (let i = 0; i < n; i++) {
      if (!use[i]) continue;
      const o = i * 6;
      const v0 = rgb[i * 3]!;
      const v1 = rgb[i * 3 + 1]!;
      const v2 = rgb[i * 3 + 2]!;
      for (let r = 0; r < 6; r++) {
        const fr = F[o + r]!;
        b[r]! += fr * v0;
        b[6 + r]! += fr * v1;
        b[12 + r]! += fr * v2;
        for (let k = 0; k < 6; k++) A[r * 6 + k]! += fr * F[o + k]!;
      }
    }
    // A tiny ridge keeps the system solvable when the samples do not span every term.
    for (let r = 0; r < 6; r++) A[r * 6 + r]! += 1e-6;
    for (let c = 0; c < 3; c++) solveSmall(A, b.subarray(c * 6, c * 6 + 6), coef.subarray(c * 6, c * 6 + 6));
    let nUsed = 0;
    for (let i = 0; i < n; i++) {
      const o = i * 6;
      let d = 0;
      for (let c = 0; c < 3; c++) {
        let p = 0;
        for (let k = 0; k < 6; k++) p += coef[c * 6 + k]! * F[o + k]!;
        d += (rgb[i * 3 + c]! - p) ** 2;
      }
      res[i] = Math.sqrt(d);
      if (use[i]) nUsed++;
    }
    const sorted = new Float64Array(nUsed);
    for (let i = 0, j = 0; i < n; i++) if (use[i]) sorted[j++] = res[i]!;
    sorted.sort();
    const med = nUsed ? sorted[Math.floor(nUsed / 2)]! : 0;
    // Samples far off the surface (garment pixels that touch the border) are outliers: drop them and refit.
    const next = new Uint8Array(n);
    const lim = Math.max(outliers.minLimit, med * outliers.medianFactor);
    let kept = 0;
    let sum = 0;
    for (let i = 0; i < n; i++)
      if (res[i]! <= lim) {
        next[i] = 1;
        kept++;
        sum += res[i]!;
      }
    use = next;
    spread = kept > n * outliers.minInlierShare ? sum / kept : Infinity;
  }
  return { coef, spread };
}

/**
 * Solve the dense n×n system a·x = b (n = b.length, a row-major) into x by Gaussian
 * elimination with partial pivoting; a and b are left untouched. A column whose pivot is
 * below 1e-12 (a singular direction, such as a spline's collinear points) is skipped and its
 * unknown set to 0, rather than divided by a near-zero pivot.
 */
export function solveSmall(a: Float64Array, b: Float64Array, x: Float64Array): void {
  const n = b.length;
  const m = Float64Array.from(a);
  const v = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[p * n + c]!)) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) {
        const t = m[c * n + k]!;
        m[c * n + k] = m[p * n + k]!;
        m[p * n + k] = t;
      }
      const t = v[c]!;
      v[c] = v[p]!;
      v[p] = t;
    }
    const piv = m[c * n + c]!;
    if (Math.abs(piv) < 1e-12) continue;
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c]! / piv;
      if (!f) continue;
      for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
      v[r]! -= f * v[c]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let acc = v[r]!;
    for (let k = r + 1; k < n; k++) acc -= m[r * n + k]! * x[k]!;
    const piv = m[r * n + r]!;
    x[r] = Math.abs(piv) < 1e-12 ? 0 : acc / piv;
  }
}
