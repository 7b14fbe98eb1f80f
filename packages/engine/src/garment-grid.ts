/**
 * The garment photo's analysis grid: the photo box-downscaled onto it, the full-resolution
 * luminance edges pooled onto it, and the 3×3 blur the soft alpha gets at full resolution.
 */
import type { FloatMap, RGBAImage } from './image.js';

/** The photo on the analysis grid: mean RGB (0..255) and alpha (0..1) of each f×f block. */
export interface GridImage {
  w: number;
  h: number;
  rgb: Float32Array;
  a: Float32Array;
}

/**
 * Integer RGBA sums of the f×f blocks of output row `y` (blocks `0..w-1`), into `acc`
 * (4 entries per block, cleared first): exact and order-free, for box downscales.
 */
export function sumBlockRow(
  src: ArrayLike<number>,
  srcWidth: number,
  f: number,
  w: number,
  y: number,
  acc: Int32Array | Uint32Array,
): void {
  acc.fill(0);
  for (let dy = 0; dy < f; dy++) {
    let o = (y * f + dy) * srcWidth * 4;
    for (let x = 0; x < w; x++) {
      const j = x * 4;
      for (let dx = 0; dx < f; dx++, o += 4) {
        acc[j]! += src[o]!;
        acc[j + 1]! += src[o + 1]!;
        acc[j + 2]! += src[o + 2]!;
        acc[j + 3]! += src[o + 3]!;
      }
    }
  }
}

/** Downscale an RGBA image by an integer box factor into float RGB (+ alpha) planes. */
export function boxDown(img: RGBAImage, f: number): GridImage {
  const w = Math.max(1, Math.floor(img.width / f));
  const h = Math.max(1, Math.floor(img.height / f));
  const rgb = new Float32Array(w * h * 3);
  const a = new Float32Array(w * h);
  const n = f * f;
  const src = img.data;
  const W = img.width;
  if (f === 2) {
    for (let y = 0; y < h; y++) {
      let o0 = y * 2 * W * 4;
      let o1 = o0 + W * 4;
      for (let x = 0, i = y * w; x < w; x++, i++, o0 += 8, o1 += 8) {
        rgb[i * 3] = (src[o0]! + src[o0 + 4]! + src[o1]! + src[o1 + 4]!) / 4;
        rgb[i * 3 + 1] = (src[o0 + 1]! + src[o0 + 5]! + src[o1 + 1]! + src[o1 + 5]!) / 4;
        rgb[i * 3 + 2] = (src[o0 + 2]! + src[o0 + 6]! + src[o1 + 2]! + src[o1 + 6]!) / 4;
        a[i] = (src[o0 + 3]! + src[o0 + 7]! + src[o1 + 3]! + src[o1 + 7]!) / 4 / 255;
      }
    }
    return { w, h, rgb, a };
  }
  const acc = new Int32Array(w * 4);
  for (let y = 0; y < h; y++) {
    sumBlockRow(src, W, f, w, y, acc);
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const j = x * 4;
      rgb[i * 3] = acc[j]! / n;
      rgb[i * 3 + 1] = acc[j + 1]! / n;
      rgb[i * 3 + 2] = acc[j + 2]! / n;
      a[i] = acc[j + 3]! / n / 255;
    }
  }
  return { w, h, rgb, a };
}

/**
 * Luminance gradient at full resolution (|∂x| + |∂y|, central differences), max-pooled
 * onto the f×f analysis grid (w×h); only on the cells where `need` is 1 (0 elsewhere).
 */
export function edgeMap(img: RGBAImage, f: number, w: number, h: number, need: Uint8Array): Float32Array {
  const W = img.width;
  const H = img.height;
  const d = img.data;
  const lum = new Uint16Array(W * H);
  if (d.byteOffset % 4 === 0 && new Uint8Array(new Uint32Array([1]).buffer)[0] === 1) {
    // One 32-bit read per pixel (little-endian RGBA).
    const u = new Uint32Array(d.buffer, d.byteOffset, W * H);
    for (let i = 0; i < W * H; i++) {
      const v = u[i]!;
      lum[i] = 77 * (v & 255) + 150 * ((v >>> 8) & 255) + 29 * ((v >>> 16) & 255);
    }
  } else for (let i = 0, o = 0; i < W * H; i++, o += 4) lum[i] = 77 * d[o]! + 150 * d[o + 1]! + 29 * d[o + 2]!;
  const e = new Float32Array(w * h);
  if (f === 2 && W >= 2 * w + 1 && H >= 2 * h + 1) {
    // Every cell's 2×2 pixels, the image's outer pixel ring excluded.
    for (let gy = 0; gy < h; gy++) {
      const y0 = gy * 2;
      for (let gx = 0; gx < w; gx++) {
        const j = gy * w + gx;
        if (!need[j]) continue;
        let best = 0;
        for (let y = y0 === 0 ? 1 : y0; y <= y0 + 1; y++) {
          const x0 = gx === 0 ? 1 : gx * 2;
          for (let i = y * W + x0, end = y * W + gx * 2 + 1; i <= end; i++) {
            const gxv = lum[i + 1]! - lum[i - 1]!;
            const gyv = lum[i + W]! - lum[i - W]!;
            const g = (gxv < 0 ? -gxv : gxv) + (gyv < 0 ? -gyv : gyv);
            if (g > best) best = g;
          }
        }
        e[j] = best / 256;
      }
    }
    return e;
  }
  for (let gy = 0; gy < h; gy++) {
    const ya = Math.max(1, gy * f);
    const yb = Math.min(H - 2, gy * f + f - 1);
    for (let gx = 0; gx < w; gx++) {
      const j = gy * w + gx;
      if (!need[j]) continue;
      const xa = Math.max(1, gx * f);
      const xb = Math.min(W - 2, gx * f + f - 1);
      let best = 0;
      for (let y = ya; y <= yb; y++)
        for (let x = xa, i = y * W + xa; x <= xb; x++, i++) {
          const gxv = lum[i + 1]! - lum[i - 1]!;
          const gyv = lum[i + W]! - lum[i - W]!;
          const g = (gxv < 0 ? -gxv : gxv) + (gyv < 0 ? -gyv : gyv);
          if (g > best) best = g;
        }
      e[j] = best / 256;
    }
  }
  return e;
}

/** 3×3 box blur with clamped edges (one pass of blurMap(m, 1, 1)), in place; flat runs are copied. */
export function box3(m: FloatMap, bx0 = 0, bx1 = m.width - 1, by0 = 0, by1 = m.height - 1): FloatMap {
  // Outside [bx0, bx1] × [by0, by1] the map is 0 (and stays 0 one pixel beyond).
  const { width: w, height: h } = m;
  const src = m.data;
  const tmp = new Float32Array(w * h);
  const out = src; // the vertical pass reads only tmp
  const third = 1 / 3;
  const x0 = Math.max(0, bx0 - 1);
  const x1 = Math.min(w - 1, bx1 + 1);
  const y0 = Math.max(0, by0 - 1);
  const y1 = Math.min(h - 1, by1 + 1);
  for (let y = y0; y <= y1; y++) {
    const row = y * w;
    for (let x = x0; x <= x1; x++) {
      const l = src[row + (x > 0 ? x - 1 : 0)]!;
      const c = src[row + x]!;
      const r = src[row + (x < w - 1 ? x + 1 : x)]!;
      tmp[row + x] = l === c && c === r ? c : (l + c + r) * third;
    }
  }
  for (let y = y0; y <= y1; y++) {
    const row = y * w;
    const up = (y > 0 ? y - 1 : 0) * w;
    const dn = (y < h - 1 ? y + 1 : y) * w;
    for (let x = x0; x <= x1; x++) {
      const a = tmp[up + x]!;
      const c = tmp[row + x]!;
      const b = tmp[dn + x]!;
      out[row + x] = a === c && c === b ? c : (a + c + b) * third;
    }
  }
  return { width: w, height: h, data: out };
}
