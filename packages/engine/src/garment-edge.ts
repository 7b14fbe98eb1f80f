/**
 * The garment cut-out's edge, refined so that none of the product photo's backdrop comes with
 * it: the edge is pulled in by a pixel (the cut-out's outermost pixels are half backdrop) and
 * feathered over a pixel or two, and the colours along it are decontaminated: a pixel whose
 * colour lies between the garment's colour just inside and the backdrop's just outside is
 * given the garment's own (the backdrop's share taken out), so no light or grey rim outlines
 * the garment. A trim of another colour (not on that line) keeps its colour.
 */
import type { FloatMap, RGBAImage } from './image.js';

/** Min over 3 × 3 (a one-pixel erosion of a soft mask), then a 3 × 3 box blur (the feather). */
function erodeFeather(a: Float32Array, w: number, h: number): Float32Array {
  const er = new Float32Array(a.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let m = a[i]!;
      if (m <= 0) continue;
      for (let dy = -1; dy <= 1 && m > 0; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) {
          m = 0;
          break;
        }
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const v = xx < 0 || xx >= w ? 0 : a[yy * w + xx]!;
          if (v < m) m = v;
        }
      }
      er[i] = m;
    }
  const out = new Float32Array(a.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < w) s += er[yy * w + xx]!;
        }
      }
      out[y * w + x] = s / 9;
    }
  return out;
}

/** Summed-area table of (r, g, b, 1) over the pixels `take` accepts: (w + 1) × (h + 1) × 4. */
function sat(d: Uint8ClampedArray, w: number, h: number, take: (i: number) => boolean): Float64Array {
  const t = new Float64Array((w + 1) * (h + 1) * 4);
  const W1 = w + 1;
  for (let y = 0; y < h; y++) {
    const r0 = [0, 0, 0, 0];
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (take(i)) {
        r0[0]! += d[i * 4]!;
        r0[1]! += d[i * 4 + 1]!;
        r0[2]! += d[i * 4 + 2]!;
        r0[3]!++;
      }
      const o = ((y + 1) * W1 + x + 1) * 4;
      const u = (y * W1 + x + 1) * 4;
      for (let c = 0; c < 4; c++) t[o + c] = t[u + c]! + r0[c]!;
    }
  }
  return t;
}

/** The sums (r, g, b, count) over the square of radius r about (x, y), clipped to the image. */
function windowSum(
  t: Float64Array,
  w: number,
  h: number,
  x: number,
  y: number,
  r: number,
): [number, number, number, number] {
  const W1 = w + 1;
  const x0 = Math.max(0, x - r);
  const y0 = Math.max(0, y - r);
  const x1 = Math.min(w, x + r + 1);
  const y1 = Math.min(h, y + r + 1);
  const out: [number, number, number, number] = [0, 0, 0, 0];
  for (let c = 0; c < 4; c++)
    out[c] =
      t[(y1 * W1 + x1) * 4 + c]! - t[(y0 * W1 + x1) * 4 + c]! - t[(y1 * W1 + x0) * 4 + c]! + t[(y0 * W1 + x0) * 4 + c]!;
  return out;
}

/** Refines `alpha` and the colours along the edge of `img`, in place. */
export function refineGarmentEdge(img: RGBAImage, alpha: FloatMap): void {
  const { width: w, height: h } = img;
  const d = img.data;
  const a = erodeFeather(alpha.data, w, h);
  const R = 6;
  const RF = 9;
  const next = new Uint8ClampedArray(d);
  // Within R of the backdrop: a separable dilation of it.
  const row = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -1e9;
    for (let x = 0; x < w; x++) {
      if (alpha.data[y * w + x]! < 0.05) last = x;
      if (x - last <= R) row[y * w + x] = 1;
    }
    last = 1e9;
    for (let x = w - 1; x >= 0; x--) {
      if (alpha.data[y * w + x]! < 0.05) last = x;
      if (last - x <= R) row[y * w + x] = 1;
    }
  }
  const near = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let last = -1e9;
    for (let y = 0; y < h; y++) {
      if (row[y * w + x]) last = y;
      if (y - last <= R) near[y * w + x] = 1;
    }
    last = 1e9;
    for (let y = h - 1; y >= 0; y--) {
      if (row[y * w + x]) last = y;
      if (last - y <= R) near[y * w + x] = 1;
    }
  }
  // Summed-area tables of the colours (and counts) of the garment well inside and of the backdrop.
  const satF = sat(d, w, h, (j) => a[j]! >= 0.99 && !near[j]);
  const satB = sat(d, w, h, (j) => alpha.data[j]! < 0.05);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const ai = a[i]!;
      if (ai <= 0.02) continue;
      // Only near the edge (something clear of the garment within R).
      if (!near[i]) continue;
      // The garment's colour just inside (well within the cut-out) and the backdrop's just outside:
      // window means from the summed-area tables.
      const [fr, fg, fb, fn] = windowSum(satF, w, h, x, y, RF);
      const [br, bg, bb, bn] = windowSum(satB, w, h, x, y, R);
      if (!fn) continue;
      const F = [fr / fn, fg / fn, fb / fn];
      const o = i * 4;
      const C = [d[o]!, d[o + 1]!, d[o + 2]!];
      if (!bn) continue;
      const B = [br / bn, bg / bn, bb / bn];
      // The backdrop in the garment's shadow (grey on a white backdrop): C ≈ s B, far from F.
      const bb2 = B[0]! * B[0]! + B[1]! * B[1]! + B[2]! * B[2]!;
      const sB = bb2 > 0 ? (C[0]! * B[0]! + C[1]! * B[1]! + C[2]! * B[2]!) / bb2 : 0;
      let shadeRes = 0;
      let toF = 0;
      for (let ch = 0; ch < 3; ch++) {
        shadeRes += Math.abs(C[ch]! - sB * B[ch]!);
        toF += Math.abs(C[ch]! - F[ch]!);
      }
      if (sB > 0.5 && sB < 1.05 && shadeRes < 24 && toF > shadeRes * 2 + 30) {
        for (let ch = 0; ch < 3; ch++) next[o + ch] = F[ch]!;
        continue;
      }
      // C = F + t (B − F) + residual: the backdrop's share t, when C lies near that line.
      const v = [B[0]! - F[0]!, B[1]! - F[1]!, B[2]! - F[2]!];
      const vv = v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
      if (vv < 400) continue;
      const t = ((C[0]! - F[0]!) * v[0]! + (C[1]! - F[1]!) * v[1]! + (C[2]! - F[2]!) * v[2]!) / vv;
      if (t <= 0.05) continue;
      const tt = Math.min(0.85, t);
      let res = 0;
      for (let ch = 0; ch < 3; ch++) res += Math.abs(C[ch]! - (F[ch]! + tt * v[ch]!));
      if (res > 45) continue;
      // Take the backdrop's share out (its rest is the garment's colour here).
      for (let ch = 0; ch < 3; ch++) next[o + ch] = (C[ch]! - tt * B[ch]!) / (1 - tt);
    }
  d.set(next);
  alpha.data.set(a);
}
