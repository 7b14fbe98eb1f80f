/** Small RGBA image type and the sharp-based decode / encode around it. */
import sharp from 'sharp';

export interface RGBAImage {
  width: number;
  height: number;
  /** width × height × 4 bytes. */
  data: Uint8ClampedArray;
}

/** A single-channel float map (masks, probabilities) of width × height. */
export interface FloatMap {
  width: number;
  height: number;
  data: Float32Array;
}

export function createImage(width: number, height: number): RGBAImage {
  return { width, height, data: new Uint8ClampedArray(width * height * 4) };
}

export function createMap(width: number, height: number, fill = 0): FloatMap {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { width, height, data };
}

const MAX_SIDE = 1024;

export interface Decoded {
  image: RGBAImage;
  /** Size of the (EXIF-rotated) original. */
  originalWidth: number;
  originalHeight: number;
  /** True when the source carried a real alpha channel. */
  hasAlpha: boolean;
}

/** Decode, apply EXIF orientation, shrink to at most `maxSide` on the long side. */
export async function decodeImage(bytes: Uint8Array, maxSide = MAX_SIDE): Promise<Decoded> {
  const base = sharp(bytes, { failOn: 'error' }).rotate();
  const meta = await sharp(bytes).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const ow = (swap ? meta.height : meta.width) ?? 0;
  const oh = (swap ? meta.width : meta.height) ?? 0;
  if (!ow || !oh) throw new Error('image has no size');
  const scale = Math.min(1, maxSide / Math.max(ow, oh));
  const w = Math.max(1, Math.round(ow * scale));
  const h = Math.max(1, Math.round(oh * scale));
  const { data, info } = await base
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image: RGBAImage = {
    width: info.width,
    height: info.height,
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
  };
  return { image, originalWidth: ow, originalHeight: oh, hasAlpha: meta.hasAlpha === true };
}

/**
 * Reusable scratch buffers (the engine is synchronous: a buffer is only used inside one
 * call). Avoids allocating and collecting full-size typed arrays on every call.
 */
const scratchF32: Float32Array[] = [];
const scratchF64: Float64Array[] = [];
function f32(slot: number, n: number): Float32Array {
  let b = scratchF32[slot];
  if (!b || b.length < n) scratchF32[slot] = b = new Float32Array(Math.max(n, Math.ceil((b?.length ?? 0) * 1.25)));
  return b.subarray(0, n);
}
function f64(slot: number, n: number): Float64Array {
  let b = scratchF64[slot];
  if (!b || b.length < n) scratchF64[slot] = b = new Float64Array(Math.max(n, Math.ceil((b?.length ?? 0) * 1.25)));
  return b.subarray(0, n);
}

/**
 * Box blur (radius r, `passes` times, edges clamp) of the w×h array `src` into `dst`
 * (both w×h; they may be the same array). `tmp` is w×h scratch, `acc` ≥ w.
 */
function boxBlur(
  src: Float32Array,
  dst: Float32Array,
  w: number,
  h: number,
  r: number,
  passes: number,
  tmp: Float32Array,
  acc: Float64Array,
): void {
  const inv = 1 / (2 * r + 1);
  // Where the window leaves the row on either side.
  const left = Math.min(w, r); // x < left: the outgoing index x − r is < 0
  const right = Math.max(left, w - r - 1); // x ≥ right: the incoming index x + r + 1 is ≥ w
  let from = src;
  for (let p = 0; p < passes; p++) {
    // Horizontal: from → tmp.
    for (let y = 0; y < h; y++) {
      const row = y * w;
      const first = from[row]!;
      const last = from[row + w - 1]!;
      let a = first * (r + 1);
      for (let k = 1; k <= r; k++) a += k < w ? from[row + k]! : last;
      let x = 0;
      for (; x < left; x++) {
        tmp[row + x] = a * inv;
        const ai = x + r + 1;
        a += (ai < w ? from[row + ai]! : last) - first;
      }
      for (; x < right; x++) {
        tmp[row + x] = a * inv;
        a += from[row + x + r + 1]! - from[row + x - r]!;
      }
      for (; x < w; x++) {
        tmp[row + x] = a * inv;
        const si = x - r;
        a += last - (si >= 0 ? from[row + si]! : first);
      }
    }
    // Vertical, row by row with a running column sum: tmp → dst.
    for (let x = 0; x < w; x++) acc[x] = tmp[x]! * (r + 1);
    for (let k = 1; k <= r; k++) {
      const row = (k < h - 1 ? k : h - 1) * w;
      for (let x = 0; x < w; x++) acc[x]! += tmp[row + x]!;
    }
    for (let y = 0; y < h; y++) {
      const row = y * w;
      const addRow = (y + r + 1 < h - 1 ? y + r + 1 : h - 1) * w;
      const subRow = (y - r > 0 ? y - r : 0) * w;
      for (let x = 0; x < w; x++) {
        dst[row + x] = acc[x]! * inv;
        acc[x]! += tmp[addRow + x]! - tmp[subRow + x]!;
      }
    }
    from = dst;
  }
}

/** Separable box blur of a float map (radius r), repeated `passes` times (≈ Gaussian). Edges clamp. */
export function blurMap(m: FloatMap, r: number, passes = 2): FloatMap {
  const { width: w, height: h } = m;
  if (r < 1 || passes < 1) return { width: w, height: h, data: m.data.slice() };
  const out = new Float32Array(w * h);
  boxBlur(m.data, out, w, h, r, passes, f32(0, w * h), f64(0, w));
  return { width: w, height: h, data: out };
}

/**
 * Box blur of `buf` (bw × bh, edges clamp) in place, computed only where it is needed:
 * after the last pass on [nx0, nx1] × [ny0, ny1], after pass k on that rectangle grown
 * by r·(passes − k) (a box pass reaches r pixels). Values elsewhere are left stale.
 */
function boxBlurShrinking(
  buf: Float32Array,
  bw: number,
  bh: number,
  r: number,
  passes: number,
  nx0: number,
  ny0: number,
  nx1: number,
  ny1: number,
  tmp: Float32Array,
  acc: Float64Array,
): void {
  const inv = 1 / (2 * r + 1);
  for (let p = 1; p <= passes; p++) {
    const grow = r * (passes - p);
    const x0 = Math.max(0, nx0 - grow);
    const x1 = Math.min(bw - 1, nx1 + grow);
    const y0 = Math.max(0, ny0 - grow);
    const y1 = Math.min(bh - 1, ny1 + grow);
    // Horizontal on the rows the vertical pass reads: buf → tmp.
    const hy0 = Math.max(0, y0 - r);
    const hy1 = Math.min(bh - 1, y1 + r);
    hPass(buf, tmp, bw, r, inv, x0, x1, hy0, hy1);
    // Vertical: tmp → buf.
    vPass(tmp, buf, bw, bh, r, inv, x0, x1, y0, y1, acc);
  }
}

function clampTo(v: number, n: number): number {
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

function hPass(
  from: Float32Array,
  to: Float32Array,
  bw: number,
  r: number,
  inv: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): void {
  // Columns where the window stays inside the row.
  const m0 = Math.max(x0, r);
  const m1 = Math.min(x1 + 1, bw - r - 1);
  for (let y = y0; y <= y1; y++) {
    const row = y * bw;
    let a = 0;
    for (let k = -r; k <= r; k++) a += from[row + clampTo(x0 + k, bw)]!;
    let x = x0;
    for (; x < m0 && x <= x1; x++) {
      to[row + x] = a * inv;
      a += from[row + clampTo(x + r + 1, bw)]! - from[row + clampTo(x - r, bw)]!;
    }
    for (; x < m1; x++) {
      to[row + x] = a * inv;
      a += from[row + x + r + 1]! - from[row + x - r]!;
    }
    for (; x <= x1; x++) {
      to[row + x] = a * inv;
      a += from[row + clampTo(x + r + 1, bw)]! - from[row + clampTo(x - r, bw)]!;
    }
  }
}

function vPass(
  from: Float32Array,
  to: Float32Array,
  bw: number,
  bh: number,
  r: number,
  inv: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  acc: Float64Array,
): void {
  for (let x = x0; x <= x1; x++) acc[x] = 0;
  for (let k = -r; k <= r; k++) {
    const yy = y0 + k;
    const row = (yy < 0 ? 0 : yy >= bh ? bh - 1 : yy) * bw;
    for (let x = x0; x <= x1; x++) acc[x]! += from[row + x]!;
  }
  for (let y = y0; y <= y1; y++) {
    const row = y * bw;
    const addRow = (y + r + 1 < bh - 1 ? y + r + 1 : bh - 1) * bw;
    const subRow = (y - r > 0 ? y - r : 0) * bw;
    for (let x = x0; x <= x1; x++) {
      to[row + x] = acc[x]! * inv;
      acc[x]! += from[addRow + x]! - from[subRow + x]!;
    }
  }
}

/**
 * `blurMap` evaluated only on the rectangle [x0, x1] × [y0, y1] (inclusive) of the
 * w×h array `data`: returns the blurred values of that rectangle, row by row
 * ((x1 − x0 + 1) × (y1 − y0 + 1)). A box blur only reaches r·passes pixels, so the
 * work is done on the rectangle grown by that much (clamped at the array's edges, which
 * must be the image's edges there), shrinking by r each pass. Equal to `blurMap` up to
 * float rounding (~1e-6 relative).
 */
export function blurRect(
  data: Float32Array,
  w: number,
  h: number,
  r: number,
  passes: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): Float32Array {
  const rw = x1 - x0 + 1;
  const rh = y1 - y0 + 1;
  const out = new Float32Array(Math.max(0, rw) * Math.max(0, rh));
  if (rw <= 0 || rh <= 0) return out;
  if (r < 1 || passes < 1) {
    for (let y = 0; y < rh; y++) out.set(data.subarray((y0 + y) * w + x0, (y0 + y) * w + x1 + 1), y * rw);
    return out;
  }
  const g = r * passes;
  const ex0 = Math.max(0, x0 - g);
  const ey0 = Math.max(0, y0 - g);
  const ex1 = Math.min(w - 1, x1 + g);
  const ey1 = Math.min(h - 1, y1 + g);
  const ew = ex1 - ex0 + 1;
  const eh = ey1 - ey0 + 1;
  const buf = f32(1, ew * eh);
  for (let y = 0; y < eh; y++) buf.set(data.subarray((ey0 + y) * w + ex0, (ey0 + y) * w + ex1 + 1), y * ew);
  boxBlurShrinking(buf, ew, eh, r, passes, x0 - ex0, y0 - ey0, x1 - ex0, y1 - ey0, f32(0, ew * eh), f64(0, ew));
  for (let y = 0; y < rh; y++) {
    const o = (y0 - ey0 + y) * ew + (x0 - ex0);
    out.set(buf.subarray(o, o + rw), y * rw);
  }
  return out;
}

/** Copy of the rectangle [x0, x0+w) × [y0, y0+h) of an image (must lie inside). */
export function cropImage(img: RGBAImage, x0: number, y0: number, w: number, h: number): RGBAImage {
  const out = createImage(w, h);
  for (let y = 0; y < h; y++)
    out.data.set(img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x0 + w) * 4), y * w * 4);
  return out;
}

export function cropMap(m: FloatMap, x0: number, y0: number, w: number, h: number): FloatMap {
  const out = createMap(w, h);
  for (let y = 0; y < h; y++)
    out.data.set(m.data.subarray((y0 + y) * m.width + x0, (y0 + y) * m.width + x0 + w), y * w);
  return out;
}

/** Write `part` into `img` at (x0, y0). */
export function pasteImage(img: RGBAImage, part: RGBAImage, x0: number, y0: number): void {
  for (let y = 0; y < part.height; y++)
    img.data.set(part.data.subarray(y * part.width * 4, (y + 1) * part.width * 4), ((y0 + y) * img.width + x0) * 4);
}

export function pasteMap(m: FloatMap, part: FloatMap, x0: number, y0: number): void {
  for (let y = 0; y < part.height; y++)
    m.data.set(part.data.subarray(y * part.width, (y + 1) * part.width), (y0 + y) * m.width + x0);
}
