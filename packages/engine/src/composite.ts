/**
 * Compositing: the garment laid over the person with soft edges, kept on the body and out of
 * the protected regions (see protected-regions.ts), with the person's shading carried onto it.
 */
import { blurRect, createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BodyFrame } from './fit.js';
import type { Protection, Rect } from './protected-regions.js';

export interface CompositeInput {
  person: RGBAImage;
  personMask: FloatMap;
  garment: RGBAImage;
  /** Warped garment alpha. */
  alpha: FloatMap;
  /** 1 where the warped pixel is garment body (not sleeve). */
  bodyPart: FloatMap;
  protection: Protection;
  /** Shading scale (≈ the body's shoulder width). */
  shadingRadius: number;
  /** Strength of the person's shading on the garment (0..1). */
  shading?: number;
  /** Below this row the garment hangs free of the body (a skirt) and takes no shading from it. */
  shadeUntilY?: number;
  /** Above this row the garment must stay near the body (skirts below it hang free). */
  bodyClipUntilY?: number;
}

/** Rectangle of the pixels with a > 0, or null. */
export function positiveBox(a: Float32Array, w: number, h: number): Rect | null {
  let x0 = w;
  let x1 = -1;
  let y0 = h;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let first = -1;
    for (let x = 0; x < w; x++)
      if (a[row + x]! > 0) {
        first = x;
        break;
      }
    if (first < 0) continue;
    let last = first;
    for (let x = w - 1; x > first; x--)
      if (a[row + x]! > 0) {
        last = x;
        break;
      }
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/**
 * Final alpha on rectangle b: garment alpha, kept near the body above row `clipRow`
 * (reach: blurred person mask over b's rows up to clipRow, row by row), without the
 * protected regions, the garment body behind arms in front of it.
 */
function finalAlpha(
  ga: Float32Array,
  hard: Float32Array,
  arms: Float32Array,
  bodyPart: Float32Array,
  reach: Float32Array | null,
  clipRow: number,
  w: number,
  b: Rect,
  ad: Float32Array,
): void {
  const rw = b.x1 - b.x0 + 1;
  for (let y = b.y0; y <= b.y1; y++) {
    const clip = reach !== null && y <= clipRow;
    const rrow = (y - b.y0) * rw - b.x0;
    for (let x = b.x0, i = y * w + b.x0; x <= b.x1; x++, i++) {
      let a = ga[i]!;
      if (a <= 0) continue;
      if (clip) a *= Math.min(1, reach[rrow + x]! * 8);
      a *= 1 - hard[i]!;
      // Garment body goes behind arms that are in front of it; sleeves stay on top.
      a *= 1 - arms[i]! * bodyPart[i]!;
      ad[i] = a;
    }
  }
}

/** Luminance (+8) of the person on rectangle e, row by row. */
function luminance(pd: Uint8ClampedArray, w: number, e: Rect): Float32Array {
  const ew = e.x1 - e.x0 + 1;
  const lum = new Float32Array(ew * (e.y1 - e.y0 + 1));
  for (let y = e.y0; y <= e.y1; y++)
    for (let x = e.x0, o = (y * w + e.x0) * 4, j = (y - e.y0) * ew; x <= e.x1; x++, o += 4, j++)
      lum[j] = 0.299 * pd[o]! + 0.587 * pd[o + 1]! + 0.114 * pd[o + 2]! + 8;
  return lum;
}

/** Lay the shaded garment over the person where the final alpha > 0.002 (rectangle b). */
function shade(
  pd: Uint8ClampedArray,
  gd: Uint8ClampedArray,
  mask: Float32Array,
  ad: Float32Array,
  fine: Float32Array,
  broad: Float32Array,
  k: number,
  shadeRow: number,
  w: number,
  b: Rect,
  od: Uint8ClampedArray,
): void {
  const rw = b.x1 - b.x0 + 1;
  for (let y = b.y0; y <= b.y1; y++) {
    const rrow = (y - b.y0) * rw - b.x0;
    const onBody = y <= shadeRow;
    for (let x = b.x0, i = y * w + b.x0; x <= b.x1; x++, i++) {
      const a = ad[i]!;
      if (a <= 0.002) continue;
      let s = 1;
      if (onBody && mask[i]! > 0.5) {
        // Folds and soft light are small, smooth changes of the photo's luminance; the
        // edges of the old clothes and their prints are large ones, and carried over they
        // would show through the new garment. Small changes are kept, large ones fade out.
        const d = fine[rrow + x]! / broad[rrow + x]! - 1;
        const m = d < 0 ? -d : d;
        const keep = m <= 0.08 ? 1 : m >= 0.2 ? 0 : (0.2 - m) / 0.12;
        s = 1 + d * keep * k;
      }
      const o = i * 4;
      const c = 1 - a;
      const g0 = gd[o]! * s;
      const g1 = gd[o + 1]! * s;
      const g2 = gd[o + 2]! * s;
      od[o] = pd[o]! * c + (g0 < 255 ? g0 : 255) * a;
      od[o + 1] = pd[o + 1]! * c + (g1 < 255 ? g1 : 255) * a;
      od[o + 2] = pd[o + 2]! * c + (g2 < 255 ? g2 : 255) * a;
    }
  }
}

/** Returns the final alpha (what was changed) and writes the composite into a copy of the person. */
export function composite(c: CompositeInput): { image: RGBAImage; alpha: FloatMap } {
  const { person, garment, protection } = c;
  const w = person.width;
  const h = person.height;
  const alpha = createMap(w, h);
  const out: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(person.data) };
  // Everything happens where the garment has alpha.
  const b = positiveBox(c.alpha.data, w, h);
  if (!b) return { image: out, alpha };
  const mask = c.personMask.data;
  // The garment stays on the body: nothing further than ~0.12 shoulder widths from the person.
  const clipRow = Math.max(0, Math.min(h, Math.round(c.bodyClipUntilY ?? h))) - 1;
  const ry1 = Math.min(b.y1, clipRow);
  const reach =
    ry1 >= b.y0
      ? blurRect(mask, w, h, Math.max(2, Math.round(c.shadingRadius * 0.12)), 1, b.x0, b.y0, b.x1, ry1)
      : null;
  finalAlpha(
    c.alpha.data,
    protection.hard.data,
    protection.arms.data,
    c.bodyPart.data,
    reach,
    clipRow,
    w,
    b,
    alpha.data,
  );
  // Luminance of the person: fine shading over broad shading (on the rectangle the
  // broad blur reaches; the fine one reaches less).
  const rf = Math.max(2, Math.round(c.shadingRadius * 0.03));
  const rb = Math.max(6, Math.round(c.shadingRadius * 0.12));
  const g = Math.max(rf, rb) * 2;
  const e = {
    x0: Math.max(0, b.x0 - g),
    y0: Math.max(0, b.y0 - g),
    x1: Math.min(w - 1, b.x1 + g),
    y1: Math.min(h - 1, b.y1 + g),
  };
  const lum = luminance(person.data, w, e);
  const ew = e.x1 - e.x0 + 1;
  const eh = e.y1 - e.y0 + 1;
  const fine = blurRect(lum, ew, eh, rf, 2, b.x0 - e.x0, b.y0 - e.y0, b.x1 - e.x0, b.y1 - e.y0);
  const broad = blurRect(lum, ew, eh, rb, 2, b.x0 - e.x0, b.y0 - e.y0, b.x1 - e.x0, b.y1 - e.y0);
  const shadeRow = Math.min(h, Math.round(c.shadeUntilY ?? h)) - 1;
  shade(person.data, garment.data, mask, alpha.data, fine, broad, c.shading ?? 0.6, shadeRow, w, b, out.data);
  return { image: out, alpha };
}

/**
 * A sleeveless garment ends at the arms: on the rows where an arm hangs beside the torso (its
 * axis at least 0.45 shoulder widths from the body's centre line), nothing of the garment lies
 * beyond the arm's axis, away from the body; flat, it would wrap around the arm. From a little
 * below the shoulder joint (the shoulder's top stays the garment's) to the wrist. The photo
 * shows again there.
 */
export function clipBeyondArms(image: RGBAImage, person: RGBAImage, alpha: FloatMap, b: BodyFrame): void {
  const { width: w, height: h } = image;
  const sMid = { x: (b.shoulderL.x + b.shoulderR.x) / 2, y: (b.shoulderL.y + b.shoulderR.y) / 2 };
  const centreAt = (y: number) => sMid.x + ((b.hipMid.x - sMid.x) * (y - sMid.y)) / Math.max(1, b.hipMid.y - sMid.y);
  const al = alpha.data;
  for (const [s, e, wr] of [
    [b.shoulderL, b.elbowL, b.wristL],
    [b.shoulderR, b.elbowR, b.wristR],
  ] as const) {
    for (const [p, q, from] of [
      [s, e, s.y + b.sw * 0.15],
      [e, wr, e.y],
    ] as const) {
      // Only an arm hanging down (more down than across).
      if (q.y - p.y <= Math.abs(q.x - p.x)) continue;
      const ya = Math.max(0, Math.ceil(from));
      const yb = Math.min(h - 1, Math.floor(q.y));
      for (let y = ya; y <= yb; y++) {
        const axis = p.x + ((q.x - p.x) * (y - p.y)) / (q.y - p.y);
        const off = axis - centreAt(y);
        if (Math.abs(off) < b.sw * 0.45) continue;
        const dir = off < 0 ? -1 : 1;
        for (let x = Math.round(axis) + dir; x >= 0 && x < w; x += dir) {
          const i = y * w + x;
          if (al[i]! <= 0) continue;
          al[i] = 0;
          const o = i * 4;
          image.data[o] = person.data[o]!;
          image.data[o + 1] = person.data[o + 1]!;
          image.data[o + 2] = person.data[o + 2]!;
        }
      }
    }
  }
}
