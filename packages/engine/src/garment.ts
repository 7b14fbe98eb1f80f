/**
 * Garment analysis: cut the garment out of its plain background (or use the PNG
 * alpha channel), clean the mask, and find category landmarks.
 */
import type { Category } from '@aidressup/contract';
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BinaryMask, GarmentLandmarks, LowerLandmarks, Point, UpperLandmarks } from './types.js';
import { fillHoles, floodFromBorder, growInto, labelComponents, mainComponents, morph } from './mask-ops.js';
import { fitQuadraticSurface, surfaceAt } from './solver.js';
import { kmeans, median, otsu } from './stats.js';

export class GarmentSeparationError extends Error {
  constructor(reason: string) {
    super(`garment not separable: ${reason}`);
    this.name = 'GarmentSeparationError';
  }
}

/** Downscale an RGBA image by an integer box factor into float RGB (+ alpha) planes. */
function boxDown(img: RGBAImage, f: number): { w: number; h: number; rgb: Float32Array; a: Float32Array } {
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
  // Integer sums per output column of the current output row (exact, order-free).
  const acc = new Int32Array(w * 4);
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let dy = 0; dy < f; dy++) {
      let o = (y * f + dy) * W * 4;
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
function edgeMap(img: RGBAImage, f: number, w: number, h: number, need: Uint8Array): Float32Array {
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

/** Edge strength that counts as a barrier: well above the backdrop's own noise (border band, background-coloured pixels). */
function edgeThreshold(edge: Float32Array, dist: Float32Array, t: number, w: number, h: number, band: number): number {
  const v: number[] = [];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      if (x >= band && x < w - band && y >= band && y < h - band) continue;
      const i = y * w + x;
      if (dist[i]! < t) v.push(edge[i]!);
    }
  if (!v.length) return 8;
  const a = Float32Array.from(v).sort();
  const p99 = a[Math.floor(0.99 * (a.length - 1))]!;
  return Math.max(4, Math.min(16, p99 + 2));
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
  const N = w * h;
  let fg: Uint8Array = new Uint8Array(N);
  let transparent = 0;
  for (let i = 0; i < N; i++) if (a[i]! < 0.5) transparent++;
  if (useAlpha && transparent > N * 0.05) {
    for (let i = 0; i < N; i++) fg[i] = a[i]! >= 0.5 ? 1 : 0;
  } else {
    // Background colour model from a band along the border.
    const band = Math.max(2, Math.round(Math.min(w, h) * 0.03));
    let ns = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (x >= band && x < w - band && y >= band && y < h - band) continue;
        if ((x + y) % 3) continue;
        ns++;
      }
    const samples = new Float32Array(ns * 3);
    const positions = new Float64Array(ns * 2);
    ns = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (x >= band && x < w - band && y >= band && y < h - band) continue;
        if ((x + y) % 3) continue;
        const i = y * w + x;
        samples[ns * 3] = rgb[i * 3]!;
        samples[ns * 3 + 1] = rgb[i * 3 + 1]!;
        samples[ns * 3 + 2] = rgb[i * 3 + 2]!;
        positions[ns * 2] = x / w;
        positions[ns * 2 + 1] = y / h;
        ns++;
      }
    // Smooth background (studio backdrops, vignetting): a quadratic surface per channel.
    const poly = fitQuadraticSurface(positions, samples, ns, { minLimit: 6, medianFactor: 3, minInlierShare: 0.6 });
    const dist = new Float32Array(N);
    let maxD = 1;
    let spread: number;
    if (poly.spread < 6) {
      spread = poly.spread;
      const coef = poly.coef;
      for (let y = 0; y < h; y++) {
        const yy = y / h;
        for (let x = 0; x < w; x++) {
          const i = y * w + x;
          const xx = x / w;
          const d = Math.sqrt(
            (rgb[i * 3]! - surfaceAt(coef, 0, xx, yy)) ** 2 + (rgb[i * 3 + 1]! - surfaceAt(coef, 1, xx, yy)) ** 2 + (rgb[i * 3 + 2]! - surfaceAt(coef, 2, xx, yy)) ** 2,
          );
          dist[i] = d;
          if (d > maxD) maxD = d;
        }
      }
    } else {
      // Textured background (floor, wall): the nearest of a few background colours.
      const clusters = kmeans(samples, 4).filter((c) => c.share >= 0.08);
      const bgShare = clusters.reduce((acc, c) => acc + c.share, 0);
      spread = clusters.reduce((acc, c) => acc + c.spread * c.share, 0) / Math.max(bgShare, 1e-6);
      if (spread > 40) throw new GarmentSeparationError('background is not plain');
      const cc = new Float64Array(clusters.length * 3);
      clusters.forEach((c, j) => cc.set(c.c, j * 3));
      const nc = clusters.length;
      for (let i = 0; i < N; i++) {
        let best = Infinity;
        const r = rgb[i * 3]!;
        const g = rgb[i * 3 + 1]!;
        const b = rgb[i * 3 + 2]!;
        for (let j = 0; j < nc; j++) {
          const d = Math.sqrt((r - cc[j * 3]!) ** 2 + (g - cc[j * 3 + 1]!) ** 2 + (b - cc[j * 3 + 2]!) ** 2);
          if (d < best) best = d;
        }
        dist[i] = best;
        if (best > maxD) maxD = best;
      }
    }
    const floor = spread < 4 ? 7 + spread * 2 : 16 + spread * 1.5;
    const t = spread < 4 ? Math.max(floor, Math.min(otsu(dist, maxD) * 0.6, 12)) : Math.min(90, Math.max(floor, Math.min(otsu(dist, maxD) * 0.6, 60)));
    const pass = new Uint8Array(N);
    for (let i = 0; i < N; i++) pass[i] = dist[i]! < t ? 1 : 0;
    // Plain backdrop: the background is also flat, and a light garment's outline (a seam, a
    // thin shadow) is an edge at full resolution even where its colour is close to the
    // backdrop. Edges are a barrier for the background flood.
    let edge: Float32Array | null = null;
    let eT = Infinity;
    let bg: Uint8Array;
    if (spread < 6) {
      // Edges only matter next to pixels the background flood may enter.
      const near: BinaryMask = { width: w, height: h, data: new Uint8Array(N) };
      for (let i = 0; i < N; i++) near.data[i] = dist[i]! < 2 * t ? 1 : 0;
      const need = morph(near, -1).data;
      edge = edgeMap(img, f, w, h, need);
      eT = edgeThreshold(edge, dist, t, w, h, band);
      // Barrier: an edge at full resolution, or a step in colour distance to the backdrop
      // (a faint hem line on a light garment).
      const bar: BinaryMask = { width: w, height: h, data: new Uint8Array(N) };
      const dT = 5;
      for (let y = 0; y < h; y++)
        for (let x = 0, i = y * w; x < w; x++, i++) {
          if (!need[i]) continue; // no enterable pixel within reach: the barrier cannot matter
          if (edge[i]! >= eT) bar.data[i] = 1;
          else if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
            const gx = dist[i + 1]! - dist[i - 1]!;
            const gy = dist[i + w]! - dist[i - w]!;
            if ((gx < 0 ? -gx : gx) >= dT || (gy < 0 ? -gy : gy) >= dT) bar.data[i] = 1;
          }
        }
      // Flood with the barrier thickened by one pixel (no slipping through a one-pixel gap
      // or a diagonal), then give back what the thickening took.
      const thick = morph(bar, -1).data;
      const open = new Uint8Array(N);
      for (let i = 0; i < N; i++) open[i] = pass[i] && !thick[i] ? 1 : 0;
      bg = floodFromBorder(w, h, open);
      // Smooth backdrop features a little off the fitted surface (a floor line, a soft
      // shadow) belong to it as long as no edge separates them from the background.
      for (let i = 0; i < N; i++) open[i] = !thick[i] && dist[i]! < 2 * t ? 1 : 0;
      growInto(bg, open, w, h, Infinity);
      // Give back what the thickening took: clearly-background places (the floor between
      // trouser legs) whole; narrow background-coloured places (a thin gap between legs, a
      // fringe along the outline) whole even across edges; wide ones (the inside of a light
      // garment reached through a gap in its outline) only right next to the background.
      const tClear = t / 3;
      for (let i = 0; i < N; i++) open[i] = pass[i] && !bar.data[i] && dist[i]! < tClear ? 1 : 0;
      growInto(bg, open, w, h, Infinity);
      const full = bg.slice();
      growInto(full, pass, w, h, Infinity);
      const added: BinaryMask = { width: w, height: h, data: new Uint8Array(N) };
      for (let i = 0; i < N; i++) added.data[i] = full[i] && !bg[i] ? 1 : 0;
      let nAdded = 0;
      for (let i = 0; i < N; i++) nAdded += added.data[i]!;
      if (nAdded > 0) {
        const core = nAdded >= 25 ? morph(added, 2).data : new Uint8Array(N);
        const { labels: label, sizes } = labelComponents(added.data, w, h);
        const wide = new Uint8Array(sizes.length);
        for (let i = 0; i < N; i++) if (core[i]) wide[label[i]!] = 1;
        for (let i = 0; i < N; i++) if (added.data[i] && !wide[label[i]!]) bg[i] = 1;
      }
      for (let i = 0; i < N; i++) open[i] = pass[i] && !bar.data[i] ? 1 : 0;
      growInto(bg, open, w, h, 2);
      // The outline's edge reaches a pixel or two onto the backdrop: let the background
      // climb background-coloured barrier pixels up to the edge's ridge, not beyond.
      for (let i = 0; i < N; i++) open[i] = pass[i] && bar.data[i] ? 1 : 0;
      growInto(bg, open, w, h, 3, edge);
    } else bg = floodFromBorder(w, h, pass);
    let nStrong = 0;
    for (let i = 0; i < N; i++) fg[i] = bg[i] ? 0 : 1;
    // Second look with a garment colour model: pixels enclosed by the garment that look
    // like the background (the floor between trouser legs) become background.
    const t15 = t * 1.5;
    for (let i = 0; i < N; i += 5) if (fg[i] && dist[i]! > t15) nStrong++;
    if (!edge && nStrong > N / 500) {
      const strong = new Float32Array(nStrong * 3);
      for (let i = 0, j = 0; i < N; i += 5)
        if (fg[i] && dist[i]! > t15) {
          strong[j++] = rgb[i * 3]!;
          strong[j++] = rgb[i * 3 + 1]!;
          strong[j++] = rgb[i * 3 + 2]!;
        }
      const fgModel = kmeans(strong, 5).filter((c) => c.share >= 0.03);
      const nc = fgModel.length;
      const cc = new Float64Array(nc * 3);
      fgModel.forEach((c, j) => cc.set(c.c, j * 3));
      const t2 = t * 2;
      for (let i = 0; i < N; i++) {
        if (!fg[i]) continue;
        const di = dist[i]!;
        if (!(di < t2)) continue;
        if (edge && edge[i]! >= eT) continue;
        const r = rgb[i * 3]!;
        const g = rgb[i * 3 + 1]!;
        const b = rgb[i * 3 + 2]!;
        let dF = Infinity;
        for (let j = 0; j < nc; j++) {
          const d = Math.sqrt((r - cc[j * 3]!) ** 2 + (g - cc[j * 3 + 1]!) ** 2 + (b - cc[j * 3 + 2]!) ** 2);
          if (d < dF) dF = d;
        }
        if (di * 1.6 < dF) fg[i] = 0;
      }
    }
  }
  let mask: BinaryMask = { width: w, height: h, data: fg };
  // Opening removes hanger hooks, strings and speckles; then keep the garment itself.
  const r = Math.max(1, Math.round(Math.max(w, h) * 0.008));
  mask = morph(morph(mask, r), -r);
  mask = fillHoles(mainComponents(mask, 0.15));
  fg = mask.data;
  let count = 0;
  let borderTouch = 0;
  for (let i = 0; i < N; i++) count += fg[i]!;
  for (let x = 0; x < w; x++) borderTouch += fg[x]! + fg[(h - 1) * w + x]!;
  for (let y = 0; y < h; y++) borderTouch += fg[y * w]! + fg[y * w + w - 1]!;
  const frac = count / N;
  if (frac < 0.04) throw new GarmentSeparationError('no garment found');
  if (frac > 0.93 || borderTouch > 2 * (w + h) * 0.5) throw new GarmentSeparationError('garment fills the photo');
  return { alpha: softAlpha(img, fg, w, h, f, useAlpha && transparent > N * 0.05), mask, scale: f };
}

/** 3×3 box blur with clamped edges (one pass of blurMap(m, 1, 1)), in place; flat runs are copied. */
function box3(m: FloatMap, bx0 = 0, bx1 = m.width - 1, by0 = 0, by1 = m.height - 1): FloatMap {
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

/** Soft alpha at full resolution: separable bilinear upsampling of the clean mask, a 3×3 box blur. */
function softAlpha(img: RGBAImage, fg: Uint8Array, w: number, h: number, f: number, clampToAlpha: boolean): FloatMap {
  const alpha = createMap(img.width, img.height);
  const xi = new Int32Array(img.width);
  const xf = new Float32Array(img.width);
  for (let x = 0; x < img.width; x++) {
    const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / f - 0.5));
    const i = Math.min(w - 2, Math.floor(sx));
    xi[x] = Math.max(0, i);
    xf[x] = w > 1 ? sx - Math.max(0, i) : 0;
  }
  const i1off = w > 1 ? 1 : 0;
  // Only the garment's bounding box (plus the interpolation reach) can be non-zero.
  let gx0 = w;
  let gx1 = -1;
  let gy0 = h;
  let gy1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++)
      if (fg[i]) {
        if (x < gx0) gx0 = x;
        if (x > gx1) gx1 = x;
        if (y < gy0) gy0 = y;
        gy1 = y;
      }
  if (gx1 < 0) return createMap(img.width, img.height);
  let X0 = img.width;
  let X1 = -1;
  for (let x = 0; x < img.width; x++)
    if (xi[x]! + i1off >= gx0 && xi[x]! <= gx1) {
      if (x < X0) X0 = x;
      X1 = x;
    }
  let Y0 = img.height;
  let Y1 = -1;
  for (let y = 0; y < img.height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const j = Math.max(0, Math.min(h - 2, Math.floor(sy)));
    if (j + (h > 1 ? 1 : 0) >= gy0 && j <= gy1) {
      if (y < Y0) Y0 = y;
      Y1 = y;
    }
  }
  for (let y = Y0; y <= Y1; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const j = Math.max(0, Math.min(h - 2, Math.floor(sy)));
    const fy = h > 1 ? sy - j : 0;
    const r0 = j * w;
    const r1 = h > 1 ? r0 + w : r0;
    const row = y * img.width;
    for (let x = X0; x <= X1; x++) {
      const i = xi[x]!;
      const fx = xf[x]!;
      const i1 = i + i1off;
      const a00 = fg[r0 + i]!;
      const a01 = fg[r0 + i1]!;
      const a10 = fg[r1 + i]!;
      const a11 = fg[r1 + i1]!;
      // Flat neighbourhoods (nearly all pixels) need no interpolation.
      if (a00 === a01 && a10 === a11 && a00 === a10) {
        alpha.data[row + x] = a00;
        continue;
      }
      const v = (a00 * (1 - fx) + a01 * fx) * (1 - fy) + (a10 * (1 - fx) + a11 * fx) * fy;
      alpha.data[row + x] = v <= 0.25 ? 0 : v >= 0.75 ? 1 : (v - 0.25) * 2;
    }
  }
  const soft = box3(alpha, X0, X1, Y0, Y1);
  if (clampToAlpha) {
    const n = img.width * img.height;
    for (let i = 0; i < n; i++) soft.data[i] = Math.min(soft.data[i]!, img.data[i * 4 + 3]! / 255);
  }
  return soft;
}

// ---------------------------------------------------------------- landmarks

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
  // A sleeve reaches well beyond the garment body's side; the flared top corners of a
  // strap or crop top (wider at the top than at the hem) do not, and are not sleeves.
  if ((far.x - torsoEdge) * side < minLen * 0.6) return null;
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
