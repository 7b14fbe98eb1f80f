/**
 * Garment analysis: cut the garment out of its plain background (or use the PNG
 * alpha channel), clean the mask, and find category landmarks.
 */
import type { Category } from '@aidressup/contract';
import { blurMap, createMap, type FloatMap, type RGBAImage } from './image.js';

export interface Point {
  x: number;
  y: number;
}

export class GarmentSeparationError extends Error {
  constructor(reason: string) {
    super(`garment not separable: ${reason}`);
    this.name = 'GarmentSeparationError';
  }
}

/** A binary mask on a (usually reduced) grid. */
export interface BinaryMask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Downscale an RGBA image by an integer box factor into float RGB (+ alpha) planes. */
function boxDown(img: RGBAImage, f: number): { w: number; h: number; rgb: Float32Array; a: Float32Array } {
  const w = Math.max(1, Math.floor(img.width / f));
  const h = Math.max(1, Math.floor(img.height / f));
  const rgb = new Float32Array(w * h * 3);
  const a = new Float32Array(w * h);
  const n = f * f;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let al = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * img.width;
        for (let dx = 0; dx < f; dx++) {
          const o = (row + x * f + dx) * 4;
          r += img.data[o]!;
          g += img.data[o + 1]!;
          b += img.data[o + 2]!;
          al += img.data[o + 3]!;
        }
      }
      const i = y * w + x;
      rgb[i * 3] = r / n;
      rgb[i * 3 + 1] = g / n;
      rgb[i * 3 + 2] = b / n;
      a[i] = al / n / 255;
    }
  return { w, h, rgb, a };
}

/** k-means on RGB samples; returns cluster centres with their share of the samples. */
function kmeans(samples: Float32Array, k: number, iters = 5): { c: number[]; share: number; spread: number }[] {
  const n = samples.length / 3;
  const centres: number[][] = [];
  for (let j = 0; j < k; j++) {
    const i = Math.floor(((j + 0.5) / k) * n);
    centres.push([samples[i * 3]!, samples[i * 3 + 1]!, samples[i * 3 + 2]!]);
  }
  const assign = new Int32Array(n);
  for (let it = 0; it < iters; it++) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bd = Infinity;
      for (let j = 0; j < k; j++) {
        const c = centres[j]!;
        const d = (samples[i * 3]! - c[0]!) ** 2 + (samples[i * 3 + 1]! - c[1]!) ** 2 + (samples[i * 3 + 2]! - c[2]!) ** 2;
        if (d < bd) {
          bd = d;
          best = j;
        }
      }
      assign[i] = best;
      const s = sums[best]!;
      s[0]! += samples[i * 3]!;
      s[1]! += samples[i * 3 + 1]!;
      s[2]! += samples[i * 3 + 2]!;
      s[3]! += 1;
    }
    for (let j = 0; j < k; j++) {
      const s = sums[j]!;
      if (s[3]! > 0) centres[j] = [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!];
    }
  }
  const counts = new Array<number>(k).fill(0);
  const spread = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const j = assign[i]!;
    const c = centres[j]!;
    counts[j]!++;
    spread[j]! += Math.sqrt((samples[i * 3]! - c[0]!) ** 2 + (samples[i * 3 + 1]! - c[1]!) ** 2 + (samples[i * 3 + 2]! - c[2]!) ** 2);
  }
  return centres.map((c, j) => ({ c, share: counts[j]! / n, spread: counts[j]! ? spread[j]! / counts[j]! : 0 }));
}

function otsu(values: Float32Array, maxV: number): number {
  const bins = 128;
  const hist = new Float64Array(bins);
  for (const v of values) hist[Math.min(bins - 1, Math.floor((v / maxV) * bins))]! += 1;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < bins; i++) sumAll += i * hist[i]!;
  let wB = 0;
  let sumB = 0;
  let best = 0;
  let bestT = 0;
  for (let t = 0; t < bins; t++) {
    wB += hist[t]!;
    if (!wB) continue;
    const wF = total - wB;
    if (!wF) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return ((bestT + 1) / bins) * maxV;
}

/** Flood-fill from every border pixel through pixels where `pass[i]` is 1; returns the reached set. */
function floodFromBorder(w: number, h: number, pass: Uint8Array): Uint8Array {
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const push = (i: number) => {
    if (!seen[i] && pass[i]) {
      seen[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < w; x++) {
    push(x);
    push((h - 1) * w + x);
  }
  for (let y = 0; y < h; y++) {
    push(y * w);
    push(y * w + w - 1);
  }
  while (stack.length) {
    const p = stack.pop()!;
    const x = p % w;
    if (x > 0) push(p - 1);
    if (x < w - 1) push(p + 1);
    if (p >= w) push(p - w);
    if (p < w * (h - 1)) push(p + w);
  }
  return seen;
}

/** Morphological erosion (r > 0) or dilation (r < 0) with a square of radius |r| (separable). */
export function morph(m: BinaryMask, r: number): BinaryMask {
  const { width: w, height: h } = m;
  const erode = r > 0;
  const k = Math.abs(r);
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = erode ? 1 : 0;
      for (let d = -k; d <= k; d++) {
        const xx = x + d;
        const s = xx < 0 || xx >= w ? (erode ? 0 : 0) : m.data[y * w + xx]!;
        if (erode ? !s : s) {
          v = erode ? 0 : 1;
          break;
        }
      }
      tmp[y * w + x] = v;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = erode ? 1 : 0;
      for (let d = -k; d <= k; d++) {
        const yy = y + d;
        const s = yy < 0 || yy >= h ? 0 : tmp[yy * w + x]!;
        if (erode ? !s : s) {
          v = erode ? 0 : 1;
          break;
        }
      }
      out[y * w + x] = v;
    }
  return { width: w, height: h, data: out };
}

/** Labels the 4-connected components of a mask: `label[i]` is 0 or a component id; `sizes[id]` its pixel count. */
export function labelComponents(m: BinaryMask): { label: Int32Array; sizes: number[] } {
  const { width: w, height: h } = m;
  const label = new Int32Array(w * h);
  const sizes: number[] = [0];
  const stack: number[] = [];
  for (let i = 0; i < w * h; i++) {
    if (!m.data[i] || label[i]) continue;
    const id = sizes.length;
    let size = 0;
    label[i] = id;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      size++;
      const x = p % w;
      if (x > 0 && m.data[p - 1] && !label[p - 1]) {
        label[p - 1] = id;
        stack.push(p - 1);
      }
      if (x < w - 1 && m.data[p + 1] && !label[p + 1]) {
        label[p + 1] = id;
        stack.push(p + 1);
      }
      if (p >= w && m.data[p - w] && !label[p - w]) {
        label[p - w] = id;
        stack.push(p - w);
      }
      if (p < w * (h - 1) && m.data[p + w] && !label[p + w]) {
        label[p + w] = id;
        stack.push(p + w);
      }
    }
    sizes.push(size);
  }
  return { label, sizes };
}

/** Keep only the largest 4-connected component. */
export function largestComponent(m: BinaryMask): BinaryMask {
  const { width: w, height: h } = m;
  const { label, sizes } = labelComponents(m);
  let bestId = 0;
  for (let id = 1; id < sizes.length; id++) if (sizes[id]! > sizes[bestId]!) bestId = id;
  const out = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) out[i] = label[i] === bestId && bestId ? 1 : 0;
  return { width: w, height: h, data: out };
}

/**
 * The largest component, plus any other large piece (≥ 15 % of it). When a background-
 * coloured band splits the garment (a white stripe on a white backdrop), the pieces are
 * joined by filling each row between its outermost garment pixels.
 */
export function mainComponents(m: BinaryMask): BinaryMask {
  const { width: w, height: h } = m;
  const { label, sizes } = labelComponents(m);
  const largest = Math.max(0, ...sizes);
  const keep = sizes.map((s) => s > 0 && s >= largest * 0.15);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) out[i] = keep[label[i]!] ? 1 : 0;
  if (keep.filter(Boolean).length > 1) {
    for (let y = 0; y < h; y++) {
      let a = -1;
      let b = -1;
      for (let x = 0; x < w; x++)
        if (out[y * w + x]) {
          if (a < 0) a = x;
          b = x;
        }
      for (let x = a; x >= 0 && x <= b; x++) out[y * w + x] = 1;
    }
    // Rows between pieces with no garment pixel at all: bridge from the rows above and below.
    let last = -1;
    for (let y = 0; y < h; y++) {
      let any = false;
      for (let x = 0; x < w && !any; x++) if (out[y * w + x]) any = true;
      if (!any) continue;
      if (last >= 0 && y - last > 1) {
        let a = w;
        let b = -1;
        for (const yy of [last, y])
          for (let x = 0; x < w; x++)
            if (out[yy * w + x]) {
              a = Math.min(a, x);
              b = Math.max(b, x);
            }
        for (let yy = last + 1; yy < y; yy++) for (let x = a; x <= b; x++) out[yy * w + x] = 1;
      }
      last = y;
    }
  }
  return { width: w, height: h, data: out };
}

/** Fill holes: background = what the border reaches through background. */
export function fillHoles(m: BinaryMask): BinaryMask {
  const inv = new Uint8Array(m.data.length);
  for (let i = 0; i < inv.length; i++) inv[i] = m.data[i] ? 0 : 1;
  const outside = floodFromBorder(m.width, m.height, inv);
  const out = new Uint8Array(inv.length);
  for (let i = 0; i < inv.length; i++) out[i] = outside[i] ? 0 : 1;
  return { width: m.width, height: m.height, data: out };
}

/** Least-squares quadratic surface through background samples (per channel), one robust refit. */
function fitBackgroundSurface(pos: number[], rgb: number[]): { at: (x: number, y: number) => [number, number, number]; spread: number } {
  const n = pos.length / 2;
  const basis = (x: number, y: number) => [1, x, y, x * x, y * y, x * y];
  let use = new Uint8Array(n).fill(1);
  let coef: number[][] = [];
  let spread = Infinity;
  for (let pass = 0; pass < 2; pass++) {
    coef = [];
    for (let c = 0; c < 3; c++) {
      const A: Float64Array[] = Array.from({ length: 6 }, () => new Float64Array(6));
      const b = new Float64Array(6);
      for (let i = 0; i < n; i++) {
        if (!use[i]) continue;
        const f = basis(pos[i * 2]!, pos[i * 2 + 1]!);
        const v = rgb[i * 3 + c]!;
        for (let r = 0; r < 6; r++) {
          b[r]! += f[r]! * v;
          for (let k = 0; k < 6; k++) A[r]![k]! += f[r]! * f[k]!;
        }
      }
      for (let r = 0; r < 6; r++) A[r]![r]! += 1e-6;
      coef.push(solveSmall(A, b));
    }
    const res: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = basis(pos[i * 2]!, pos[i * 2 + 1]!);
      let d = 0;
      for (let c = 0; c < 3; c++) {
        let p = 0;
        for (let k = 0; k < 6; k++) p += coef[c]![k]! * f[k]!;
        d += (rgb[i * 3 + c]! - p) ** 2;
      }
      res.push(Math.sqrt(d));
    }
    const sorted = res.filter((_, i) => use[i]).sort((a, b) => a - b);
    const med = sorted[Math.floor(sorted.length / 2)] ?? 0;
    // Garment pixels that touch the border are outliers: drop them and refit.
    const next = new Uint8Array(n);
    let kept = 0;
    let sum = 0;
    for (let i = 0; i < n; i++)
      if (res[i]! <= Math.max(6, med * 3)) {
        next[i] = 1;
        kept++;
        sum += res[i]!;
      }
    use = next;
    spread = kept > n * 0.6 ? sum / kept : Infinity;
  }
  return {
    at: (x, y) => {
      const f = basis(x, y);
      const out: [number, number, number] = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        let p = 0;
        for (let k = 0; k < 6; k++) p += coef[c]![k]! * f[k]!;
        out[c] = p;
      }
      return out;
    },
    spread,
  };
}

function solveSmall(a: Float64Array[], b: Float64Array): number[] {
  const n = b.length;
  const m = a.map((r) => Float64Array.from(r));
  const v = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    [v[c], v[p]] = [v[p]!, v[c]!];
    const piv = m[c]![c]! || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / piv;
      for (let k = c; k < n; k++) m[r]![k]! -= f * m[c]![k]!;
      v[r]! -= f * v[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let acc = v[r]!;
    for (let k = r + 1; k < n; k++) acc -= m[r]![k]! * x[k]!;
    x[r] = acc / (m[r]![r]! || 1e-12);
  }
  return x;
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
  const f = Math.max(1, Math.round(Math.max(img.width, img.height) / 320));
  const { w, h, rgb, a } = boxDown(img, f);
  let fg: Uint8Array = new Uint8Array(w * h);
  let transparent = 0;
  for (let i = 0; i < w * h; i++) if (a[i]! < 0.5) transparent++;
  if (useAlpha && transparent > w * h * 0.05) {
    for (let i = 0; i < w * h; i++) fg[i] = a[i]! >= 0.5 ? 1 : 0;
  } else {
    // Background colour model from a band along the border.
    const band = Math.max(2, Math.round(Math.min(w, h) * 0.03));
    const samples: number[] = [];
    const positions: number[] = [];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (x >= band && x < w - band && y >= band && y < h - band) continue;
        if ((x + y) % 3) continue;
        const i = y * w + x;
        samples.push(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!);
        positions.push(x / w, y / h);
      }
    // Smooth background (studio backdrops, vignetting): a quadratic surface per channel.
    const poly = fitBackgroundSurface(positions, samples);
    const dist = new Float32Array(w * h);
    let maxD = 1;
    let spread: number;
    if (poly.spread < 6) {
      spread = poly.spread;
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const i = y * w + x;
          const bg = poly.at(x / w, y / h);
          const d = Math.sqrt((rgb[i * 3]! - bg[0]) ** 2 + (rgb[i * 3 + 1]! - bg[1]) ** 2 + (rgb[i * 3 + 2]! - bg[2]) ** 2);
          dist[i] = d;
          if (d > maxD) maxD = d;
        }
    } else {
      // Textured background (floor, wall): the nearest of a few background colours.
      const clusters = kmeans(Float32Array.from(samples), 4).filter((c) => c.share >= 0.08);
      const bgShare = clusters.reduce((acc, c) => acc + c.share, 0);
      spread = clusters.reduce((acc, c) => acc + c.spread * c.share, 0) / Math.max(bgShare, 1e-6);
      if (spread > 40) throw new GarmentSeparationError('background is not plain');
      for (let i = 0; i < w * h; i++) {
        let best = Infinity;
        for (const c of clusters) {
          const d = Math.sqrt((rgb[i * 3]! - c.c[0]!) ** 2 + (rgb[i * 3 + 1]! - c.c[1]!) ** 2 + (rgb[i * 3 + 2]! - c.c[2]!) ** 2);
          if (d < best) best = d;
        }
        dist[i] = best;
        if (best > maxD) maxD = best;
      }
    }
    const floor = spread < 4 ? 7 + spread * 2 : 16 + spread * 1.5;
    const t = spread < 4 ? Math.max(floor, Math.min(otsu(dist, maxD) * 0.6, 12)) : Math.min(90, Math.max(floor, Math.min(otsu(dist, maxD) * 0.6, 60)));
    const pass = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) pass[i] = dist[i]! < t ? 1 : 0;
    if (spread < 4) {
      // Studio white: a light garment differs from the background mostly by its texture and
      // shading, so the background must also be flat (low local gradient).
      const lum = new Float32Array(w * h);
      for (let i = 0; i < w * h; i++) lum[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
      for (let y = 1; y < h - 1; y++)
        for (let x = 1; x < w - 1; x++) {
          const i = y * w + x;
          if (!pass[i]) continue;
          const g = Math.abs(lum[i + 1]! - lum[i - 1]!) + Math.abs(lum[i + w]! - lum[i - w]!);
          if (g > 5 + spread * 2) pass[i] = 0;
        }
    }
    const bg = floodFromBorder(w, h, pass);
    for (let i = 0; i < w * h; i++) fg[i] = bg[i] ? 0 : 1;
    // Second look with a garment colour model: pixels enclosed by the garment that look
    // like the background (the floor between trouser legs) become background.
    const strong: number[] = [];
    for (let i = 0; i < w * h; i += 5) if (fg[i] && dist[i]! > t * 1.5) strong.push(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!);
    if (strong.length / 3 > (w * h) / 500) {
      const fgModel = kmeans(Float32Array.from(strong), 5);
      for (let i = 0; i < w * h; i++) {
        if (!fg[i]) continue;
        let dF = Infinity;
        for (const c of fgModel) {
          if (c.share < 0.03) continue;
          const d = Math.sqrt((rgb[i * 3]! - c.c[0]!) ** 2 + (rgb[i * 3 + 1]! - c.c[1]!) ** 2 + (rgb[i * 3 + 2]! - c.c[2]!) ** 2);
          if (d < dF) dF = d;
        }
        if (dist[i]! < t * 2 && dist[i]! * 1.6 < dF) fg[i] = 0;
      }
    }
  }
  let mask: BinaryMask = { width: w, height: h, data: fg };
  // Opening removes hanger hooks, strings and speckles; then keep the garment itself.
  const r = Math.max(1, Math.round(Math.max(w, h) * 0.012));
  mask = morph(morph(mask, r), -r);
  mask = fillHoles(mainComponents(mask));
  fg = mask.data;
  let count = 0;
  let borderTouch = 0;
  for (let i = 0; i < w * h; i++) count += fg[i]!;
  for (let x = 0; x < w; x++) borderTouch += fg[x]! + fg[(h - 1) * w + x]!;
  for (let y = 0; y < h; y++) borderTouch += fg[y * w]! + fg[y * w + w - 1]!;
  const frac = count / (w * h);
  if (frac < 0.04) throw new GarmentSeparationError('no garment found');
  if (frac > 0.93 || borderTouch > 2 * (w + h) * 0.5) throw new GarmentSeparationError('garment fills the photo');
  // Soft alpha at full resolution (separable bilinear upsampling of the clean mask).
  const alpha = createMap(img.width, img.height);
  const xi = new Int32Array(img.width);
  const xf = new Float32Array(img.width);
  for (let x = 0; x < img.width; x++) {
    const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / f - 0.5));
    const i = Math.min(w - 2, Math.floor(sx));
    xi[x] = Math.max(0, i);
    xf[x] = w > 1 ? sx - Math.max(0, i) : 0;
  }
  for (let y = 0; y < img.height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const j = Math.max(0, Math.min(h - 2, Math.floor(sy)));
    const fy = h > 1 ? sy - j : 0;
    const r0 = j * w;
    const r1 = h > 1 ? r0 + w : r0;
    const row = y * img.width;
    for (let x = 0; x < img.width; x++) {
      const i = xi[x]!;
      const fx = xf[x]!;
      const i1 = w > 1 ? i + 1 : i;
      const v = (fg[r0 + i]! * (1 - fx) + fg[r0 + i1]! * fx) * (1 - fy) + (fg[r1 + i]! * (1 - fx) + fg[r1 + i1]! * fx) * fy;
      alpha.data[row + x] = v <= 0.25 ? 0 : v >= 0.75 ? 1 : (v - 0.25) * 2;
    }
  }
  const soft = blurMap(alpha, 1, 1);
  if (useAlpha && transparent > w * h * 0.05) {
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) soft.data[y * img.width + x] = Math.min(soft.data[y * img.width + x]!, img.data[(y * img.width + x) * 4 + 3]! / 255);
  }
  return { alpha: soft, mask, scale: f };
}

// ---------------------------------------------------------------- landmarks

export interface UpperLandmarks {
  kind: 'upper';
  neckLeft: Point;
  neckRight: Point;
  shoulderLeft: Point;
  shoulderRight: Point;
  armpitLeft: Point;
  armpitRight: Point;
  /** Sleeve ends (outer and inner cuff corners); absent for sleeveless garments. */
  sleeveLeft: { outer: Point; inner: Point; length: number } | null;
  sleeveRight: { outer: Point; inner: Point; length: number } | null;
  hemLeft: Point;
  hemRight: Point;
  /** Waist (narrowest torso row between armpits and hem) — used for dresses. */
  waistLeft: Point;
  waistRight: Point;
}

export interface LowerLandmarks {
  kind: 'lower';
  waistLeft: Point;
  waistRight: Point;
  /** Top of the gap between the legs; null for skirts. */
  crotch: Point | null;
  /** Outer edges at the crotch's height. */
  hipLeft: Point | null;
  hipRight: Point | null;
  legLeft: { outer: Point; inner: Point } | null;
  legRight: { outer: Point; inner: Point } | null;
  hemLeft: Point;
  hemRight: Point;
}

export type GarmentLandmarks = UpperLandmarks | LowerLandmarks;

interface Rows {
  top: number;
  bottom: number;
  left: Int32Array;
  right: Int32Array;
}

function rowsOf(m: BinaryMask): Rows {
  const { width: w, height: h, data } = m;
  const left = new Int32Array(h).fill(-1);
  const right = new Int32Array(h).fill(-1);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++)
      if (data[y * w + x]) {
        left[y] = x;
        break;
      }
    for (let x = w - 1; x >= 0; x--)
      if (data[y * w + x]) {
        right[y] = x;
        break;
      }
    if (left[y]! >= 0) {
      if (top < 0) top = y;
      bottom = y;
    }
  }
  return { top, bottom, left, right };
}

/** The run of foreground on row y that contains (or is nearest to) column cx. */
function runAt(m: BinaryMask, y: number, cx: number): [number, number] | null {
  const { width: w, data } = m;
  const row = y * w;
  let x = Math.round(cx);
  if (!data[row + x]) {
    let found = -1;
    for (let d = 1; d < w; d++) {
      if (x - d >= 0 && data[row + x - d]) {
        found = x - d;
        break;
      }
      if (x + d < w && data[row + x + d]) {
        found = x + d;
        break;
      }
    }
    if (found < 0) return null;
    x = found;
  }
  let a = x;
  let b = x;
  while (a > 0 && data[row + a - 1]) a--;
  while (b < w - 1 && data[row + b + 1]) b++;
  return [a, b];
}

function topAt(m: BinaryMask, x: number, from = 0): number {
  const xi = Math.round(Math.min(m.width - 1, Math.max(0, x)));
  for (let y = from; y < m.height; y++) if (m.data[y * m.width + xi]) return y;
  return -1;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const scalePt = (p: Point, s: number): Point => ({ x: (p.x + 0.5) * s, y: (p.y + 0.5) * s });

/** Sleeve cuff on one side: pixels outside the torso column, farthest from the shoulder. */
function findSleeve(m: BinaryMask, side: -1 | 1, torsoEdge: number, shoulder: Point, armpit: Point, minLen: number, cx: number): { outer: Point; inner: Point; length: number } | null {
  const { width: w, height: h } = m;
  const margin = Math.max(2, Math.round(w * 0.015));
  // Below the armpit only pixels separated from the garment body's run count as sleeve.
  const data = new Uint8Array(m.data);
  for (let y = Math.max(0, Math.round(armpit.y)); y < h; y++) {
    const run = runAt(m, y, cx);
    if (!run) continue;
    for (let x = run[0]; x <= run[1]; x++) data[y * w + x] = 0;
  }
  const root = { x: (shoulder.x + armpit.x) / 2, y: (shoulder.y + armpit.y) / 2 };
  let far: Point | null = null;
  let farD = 0;
  let count = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      count++;
      const d = Math.hypot(x - root.x, y - root.y);
      if (d > farD) {
        farD = d;
        far = { x, y };
      }
    }
  if (!far || count < (w * h) / 800 || farD < minLen) return null;
  const ax = (far.x - root.x) / farD;
  const ay = (far.y - root.y) / farD;
  // Cuff: sleeve pixels whose projection on the axis is within the last 8 %.
  let minP = Infinity;
  let maxP = -Infinity;
  let pMin: Point = far;
  let pMax: Point = far;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      const along = (x - root.x) * ax + (y - root.y) * ay;
      if (along < farD * 0.9) continue;
      const across = -(x - root.x) * ay + (y - root.y) * ax;
      if (across < minP) {
        minP = across;
        pMin = { x, y };
      }
      if (across > maxP) {
        maxP = across;
        pMax = { x, y };
      }
    }
  // "outer" is the cuff corner nearer the shoulder line (upper edge of the sleeve).
  const dMin = Math.hypot(pMin.x - shoulder.x, pMin.y - shoulder.y) - Math.hypot(pMin.x - armpit.x, pMin.y - armpit.y);
  const dMax = Math.hypot(pMax.x - shoulder.x, pMax.y - shoulder.y) - Math.hypot(pMax.x - armpit.x, pMax.y - armpit.y);
  const [outer, inner] = dMin < dMax ? [pMin, pMax] : [pMax, pMin];
  return { outer, inner, length: farD };
}

export function upperLandmarks(m: BinaryMask, scale: number): UpperLandmarks {
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top + 1;
  // Torso column from the lower rows (the run through the centre).
  let cx = 0;
  let n = 0;
  for (let y = rows.top; y <= rows.bottom; y++)
    for (let x = 0; x < m.width; x++)
      if (m.data[y * m.width + x]) {
        cx += x;
        n++;
      }
  cx /= Math.max(1, n);
  const ls: number[] = [];
  const rs: number[] = [];
  for (let y = Math.round(rows.top + H * 0.72); y <= rows.top + H * 0.92; y++) {
    const run = runAt(m, y, cx);
    if (run) {
      ls.push(run[0]);
      rs.push(run[1]);
    }
  }
  const tL = median(ls);
  const tR = median(rs);
  cx = (tL + tR) / 2;
  const tw = tR - tL;
  // Shoulders: top edge straight above the torso sides (pulled in a little).
  const sLx = tL + tw * 0.04;
  const sRx = tR - tw * 0.04;
  // Highest point of the top edge near each side (straps and halter necks included).
  const topNear = (x0: number, x1: number, fallbackX: number): Point => {
    let best = { x: fallbackX, y: topAt(m, fallbackX) };
    if (best.y < 0) best.y = m.height;
    for (let x = Math.round(Math.min(x0, x1)); x <= Math.max(x0, x1); x++) {
      const y = topAt(m, x);
      if (y >= 0 && y < best.y - 1) best = { x, y };
    }
    return best;
  };
  const sTopL = topAt(m, sLx);
  const sTopR = topAt(m, sRx);
  const H0 = rows.bottom - rows.top;
  const shoulderLeft = sTopL >= 0 && sTopL < rows.top + H0 * 0.25 ? { x: sLx, y: sTopL } : topNear(sLx, sLx + tw * 0.3, sLx);
  const shoulderRight = sTopR >= 0 && sTopR < rows.top + H0 * 0.25 ? { x: sRx, y: sTopR } : topNear(sRx, sRx - tw * 0.3, sRx);
  const nLx = cx - tw * 0.18;
  const nRx = cx + tw * 0.18;
  // Collar corners: the top edge, but never far above the shoulders (hoods, hanger bars).
  const sTop = Math.min(shoulderLeft.y, shoulderRight.y);
  const neckLeft = { x: nLx, y: Math.max(topAt(m, nLx), sTop - tw * 0.12) };
  const neckRight = { x: nRx, y: Math.max(topAt(m, nRx), sTop - tw * 0.12) };
  // Armpits: scanning up from the hem, the first row whose extent leaves the torso column.
  const margin = Math.max(2, tw * 0.06);
  let armL = -1;
  let armR = -1;
  for (let y = Math.round(rows.top + H * 0.7); y > rows.top; y--) {
    const run = runAt(m, y, cx);
    if (!run) continue;
    if (armL < 0 && run[0] < tL - margin) armL = y;
    if (armR < 0 && run[1] > tR + margin) armR = y;
    if (armL >= 0 && armR >= 0) break;
  }
  const shoulderY = (shoulderLeft.y + shoulderRight.y) / 2;
  const fallback = shoulderY + tw * 0.45;
  const armpitLeft = { x: tL, y: armL > shoulderY + tw * 0.15 ? armL : fallback };
  const armpitRight = { x: tR, y: armR > shoulderY + tw * 0.15 ? armR : fallback };
  const minSleeve = tw * 0.22;
  const sleeveLeft = findSleeve(m, -1, tL, shoulderLeft, armpitLeft, minSleeve, cx);
  const sleeveRight = findSleeve(m, 1, tR, shoulderRight, armpitRight, minSleeve, cx);
  const hemY = rows.bottom - Math.max(1, H * 0.04);
  const hemRun0 = runAt(m, Math.round(hemY), cx) ?? [tL, tR];
  const hemRun: [number, number] = [Math.max(hemRun0[0], tL - tw * 0.25), Math.min(hemRun0[1], tR + tw * 0.25)];
  // Waist: narrowest torso run between armpit and 85 % of the height.
  let waistY = Math.round(rows.top + H * 0.45);
  let waistW = Infinity;
  let waistRun: [number, number] = [tL, tR];
  const wy0 = Math.round(Math.max(armpitLeft.y, armpitRight.y) + H * 0.05);
  for (let y = wy0; y < rows.top + H * 0.75; y++) {
    const run = runAt(m, y, cx);
    if (run && run[1] - run[0] < waistW) {
      waistW = run[1] - run[0];
      waistY = y;
      waistRun = run;
    }
  }
  const s = scale;
  return {
    kind: 'upper',
    neckLeft: scalePt(neckLeft, s),
    neckRight: scalePt(neckRight, s),
    shoulderLeft: scalePt(shoulderLeft, s),
    shoulderRight: scalePt(shoulderRight, s),
    armpitLeft: scalePt(armpitLeft, s),
    armpitRight: scalePt(armpitRight, s),
    sleeveLeft: sleeveLeft && { outer: scalePt(sleeveLeft.outer, s), inner: scalePt(sleeveLeft.inner, s), length: sleeveLeft.length * s },
    sleeveRight: sleeveRight && { outer: scalePt(sleeveRight.outer, s), inner: scalePt(sleeveRight.inner, s), length: sleeveRight.length * s },
    hemLeft: scalePt({ x: hemRun[0], y: hemY }, s),
    hemRight: scalePt({ x: hemRun[1], y: hemY }, s),
    waistLeft: scalePt({ x: waistRun[0], y: waistY }, s),
    waistRight: scalePt({ x: waistRun[1], y: waistY }, s),
  };
}

export function lowerLandmarks(m: BinaryMask, scale: number): LowerLandmarks {
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top + 1;
  const wy = Math.round(rows.top + H * 0.05);
  let cx = ((rows.left[wy] ?? 0) + (rows.right[wy] ?? m.width - 1)) / 2;
  const waistRun: [number, number] = [rows.left[wy]!, rows.right[wy]!];
  cx = (waistRun[0] + waistRun[1]) / 2;
  // Crotch: the first background pixel down the centre column, scanning a small neighbourhood.
  let crotch: Point | null = null;
  const top = topAt(m, cx);
  for (let y = Math.max(top, rows.top) + 1; y <= rows.bottom; y++) {
    let gapX = -1;
    for (let d = 0; d <= Math.max(1, (waistRun[1] - waistRun[0]) * 0.08); d++) {
      if (!m.data[y * m.width + Math.round(cx - d)]) gapX = Math.round(cx - d);
      else if (!m.data[y * m.width + Math.round(cx + d)]) gapX = Math.round(cx + d);
      if (gapX >= 0) break;
    }
    if (gapX >= 0) {
      // Require the gap to continue down to the bottom (a real split between legs).
      let open = 0;
      for (let yy = y; yy <= rows.bottom; yy++) if (!m.data[yy * m.width + gapX]) open++;
      if (open > (rows.bottom - y) * 0.8 && y < rows.top + H * 0.85 && y > rows.top + H * 0.12) {
        crotch = { x: gapX, y };
        break;
      }
    }
  }
  const hemY = rows.bottom - Math.max(1, H * 0.04);
  const s = scale;
  if (crotch) {
    // Each leg's lowest run on its side of the crotch.
    const leg = (side: -1 | 1) => {
      let best: [number, number] | null = null;
      let bestY = -1;
      for (let y = rows.bottom; y > crotch!.y; y--) {
        const row = y * m.width;
        let a = -1;
        let b = -1;
        if (side < 0) {
          for (let x = 0; x < crotch!.x; x++) if (m.data[row + x]) {
            if (a < 0) a = x;
            b = x;
          }
        } else {
          for (let x = Math.round(crotch!.x) + 1; x < m.width; x++) if (m.data[row + x]) {
            if (a < 0) a = x;
            b = x;
          }
        }
        if (a >= 0 && b - a > 2) {
          best = [a, b];
          bestY = y - Math.max(1, H * 0.015);
          break;
        }
      }
      if (!best) return null;
      const run = runAt(m, Math.round(bestY), (best[0] + best[1]) / 2) ?? best;
      return side < 0
        ? { outer: scalePt({ x: run[0], y: bestY }, s), inner: scalePt({ x: run[1], y: bestY }, s) }
        : { outer: scalePt({ x: run[1], y: bestY }, s), inner: scalePt({ x: run[0], y: bestY }, s) };
    };
    const legLeft = leg(-1);
    const legRight = leg(1);
    if (legLeft && legRight) {
      return {
        kind: 'lower',
        waistLeft: scalePt({ x: waistRun[0], y: wy }, s),
        waistRight: scalePt({ x: waistRun[1], y: wy }, s),
        crotch: scalePt(crotch, s),
        hipLeft: scalePt({ x: rows.left[crotch.y]!, y: crotch.y }, s),
        hipRight: scalePt({ x: rows.right[crotch.y]!, y: crotch.y }, s),
        legLeft,
        legRight,
        hemLeft: legLeft.outer,
        hemRight: legRight.outer,
      };
    }
  }
  const hemRun: [number, number] = [rows.left[Math.round(hemY)]!, rows.right[Math.round(hemY)]!];
  return {
    kind: 'lower',
    waistLeft: scalePt({ x: waistRun[0], y: wy }, s),
    waistRight: scalePt({ x: waistRun[1], y: wy }, s),
    crotch: null,
    hipLeft: null,
    hipRight: null,
    legLeft: null,
    legRight: null,
    hemLeft: scalePt({ x: hemRun[0], y: hemY }, s),
    hemRight: scalePt({ x: hemRun[1], y: hemY }, s),
  };
}

export function garmentLandmarks(m: BinaryMask, scale: number, category: Category): GarmentLandmarks {
  return category === 'lower_body' ? lowerLandmarks(m, scale) : upperLandmarks(m, scale);
}

/** Part labels (see fit.ts PART: 255 garment body, 80 left sleeve/leg, 160 right) on the analysis grid. */
export function partLabels(m: BinaryMask, scale: number, lm: GarmentLandmarks): Uint8Array {
  const { width: w, height: h } = m;
  const labels = new Uint8Array(w * h).fill(255);
  const g = (v: number) => v / scale - 0.5;
  if (lm.kind === 'lower') {
    if (!lm.crotch || !lm.legLeft || !lm.legRight) return labels;
    const rows = rowsOf(m);
    const cy = g(lm.crotch.y) - (rows.bottom - rows.top) * 0.03;
    const cx = g(lm.crotch.x);
    for (let y = Math.max(0, Math.ceil(cy)); y < h; y++) for (let x = 0; x < w; x++) labels[y * w + x] = x < cx ? 80 : 160;
    return labels;
  }
  const tL = g(lm.armpitLeft.x);
  const tR = g(lm.armpitRight.x);
  const tw = tR - tL;
  const cx = (tL + tR) / 2;
  const overlap = tw * 0.04;
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top;
  for (let y = 0; y < h; y++) {
    const below = y > Math.max(g(lm.armpitLeft.y), g(lm.armpitRight.y)) + H * 0.02;
    const run = below ? runAt(m, y, cx) : null;
    for (let x = 0; x < w; x++) {
      let left: boolean;
      let right: boolean;
      if (!below) {
        left = x < tL + overlap;
        right = x > tR - overlap;
      } else if (run) {
        left = x < run[0];
        right = x > run[1];
      } else {
        left = right = false;
      }
      if (left && lm.sleeveLeft) labels[y * w + x] = 80;
      else if (right && lm.sleeveRight) labels[y * w + x] = 160;
    }
  }
  return labels;
}
