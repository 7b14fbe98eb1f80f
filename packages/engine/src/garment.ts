/**
 * Garment analysis: cut the garment out of its plain background (or use the PNG
 * alpha channel) and clean the mask.
 */
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';
import { fillHoles, floodFromBorder, growInto, labelComponents, mainComponents, morph } from './mask-ops.js';
import { fitQuadraticSurface, surfaceAt } from './solver.js';
import { kmeans, otsu } from './stats.js';

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
