/**
 * Compositing: protected regions (face, hair, hands, arms in front), soft edges and
 * the person's shading carried onto the garment.
 */
import { blurMap, blurRect, createMap, type FloatMap, type RGBAImage } from './image.js';
import type { Point } from './garment.js';
import { KP, type Keypoint } from './person.js';
import type { BodyFrame } from './fit.js';

/** Paint max(value) of a filled disc / capsule into a map. */
function capsule(m: FloatMap, a: Point, b: Point, r: number, value = 1): void {
  const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - r));
  const x1 = Math.min(m.width - 1, Math.ceil(Math.max(a.x, b.x) + r));
  const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - r));
  const y1 = Math.min(m.height - 1, Math.ceil(Math.max(a.y, b.y) + r));
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy || 1e-6;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / l2));
      const d = Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
      if (d <= r) {
        const i = y * m.width + x;
        const v = value * Math.min(1, (r - d) / Math.max(1, r * 0.2));
        if (v > m.data[i]!) m.data[i] = v;
      }
    }
}

function ellipse(m: FloatMap, c: Point, rx: number, ry: number): void {
  const x0 = Math.max(0, Math.floor(c.x - rx));
  const x1 = Math.min(m.width - 1, Math.ceil(c.x + rx));
  const y0 = Math.max(0, Math.floor(c.y - ry));
  const y1 = Math.min(m.height - 1, Math.ceil(c.y + ry));
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const d = ((x - c.x) / rx) ** 2 + ((y - c.y) / ry) ** 2;
      if (d <= 1) m.data[y * m.width + x] = 1;
    }
}

export interface Protection {
  /** 1 where the garment must never be drawn (face, hair, neck, hands). */
  hard: FloatMap;
  /** 1 where bare arms are in front of the torso (the garment body goes behind them). */
  arms: FloatMap;
}

/**
 * Colours of the hair: person pixels around the top of the head, outside the face.
 * Null when the face is not in the photo or the head shows too little hair.
 */
export function sampleHairColours(img: RGBAImage, mask: FloatMap, kps: Keypoint[], sw: number): number[][] | null {
  const k = (i: number) => kps[i]!;
  const face = [KP.nose, KP.leftEye, KP.rightEye, KP.leftEar, KP.rightEar].map(k);
  if (face.some((p) => p.score < 0.5 || p.y < 0 || p.y >= img.height)) return null;
  const fx = face.reduce((s, p) => s + p.x, 0) / face.length;
  const fy = face.reduce((s, p) => s + p.y, 0) / face.length;
  const fr = Math.max(Math.abs(k(KP.leftEar).x - k(KP.rightEar).x) * 0.6, sw * 0.22);
  const samples: number[][] = [];
  const y0 = Math.max(0, Math.floor(fy - fr * 2.2));
  const y1 = Math.min(img.height - 1, Math.ceil(fy + fr * 0.6));
  const x0 = Math.max(0, Math.floor(fx - fr * 1.6));
  const x1 = Math.min(img.width - 1, Math.ceil(fx + fr * 1.6));
  for (let y = y0; y <= y1; y += 2)
    for (let x = x0; x <= x1; x += 2) {
      const i = y * img.width + x;
      if (mask.data[i]! < 0.7) continue;
      // Outside the face oval (skin).
      if (((x - fx) / (fr * 0.95)) ** 2 + ((y - fy) / (fr * 1.25)) ** 2 < 1) continue;
      samples.push([img.data[i * 4]!, img.data[i * 4 + 1]!, img.data[i * 4 + 2]!]);
    }
  if (samples.length < 40) return null;
  // Two clusters (hair in light and shadow).
  samples.sort((a, b) => a[0]! + a[1]! + a[2]! - (b[0]! + b[1]! + b[2]!));
  const mean = (arr: number[][]) => [0, 1, 2].map((c) => arr.reduce((s, v) => s + v[c]!, 0) / Math.max(1, arr.length));
  const half = Math.floor(samples.length / 2);
  return [mean(samples.slice(0, half)), mean(samples.slice(half))];
}

export function protectedRegions(
  kps: Keypoint[],
  b: BodyFrame,
  personMask: FloatMap,
  neckY: number,
  hair?: { image: RGBAImage; colours: number[][] } | null,
): Protection {
  const { width: w, height: h } = personMask;
  const hard = createMap(w, h);
  const arms = createMap(w, h);
  const k = (i: number) => kps[i]!;
  // Face: an ellipse over the face landmarks; everything of the person above the neckline (hair, neck).
  const face = [KP.nose, KP.leftEye, KP.rightEye, KP.leftEar, KP.rightEar, KP.mouthLeft, KP.mouthRight].map(k);
  const fx = face.reduce((s, p) => s + p.x, 0) / face.length;
  const fy = face.reduce((s, p) => s + p.y, 0) / face.length;
  const earSpan = Math.abs(k(KP.leftEar).x - k(KP.rightEar).x);
  const fr = Math.max(earSpan * 0.75, b.sw * 0.3);
  if (face.some((p) => p.score > 0.3 && p.y > -fr)) ellipse(hard, { x: fx, y: fy }, fr, fr * 1.3);
  // Nothing of the garment goes above the neckline (hoods and hangers hang behind the head).
  for (let y = 0; y < Math.min(h, Math.floor(neckY)); y++)
    for (let x = 0; x < w; x++) hard.data[y * w + x] = 1;
  // Long hair over the shoulders stays in front: pixels of hair colour connected to the
  // hair above the neckline, beside the neck (not over the middle of the chest).
  if (hair) {
    const img = hair.image;
    const yMax = Math.min(h, Math.ceil(Math.max(b.shoulderL.y, b.shoulderR.y) + b.sw * 0.9));
    const cx = (b.shoulderL.x + b.shoulderR.x) / 2;
    const isHair = new Uint8Array(w * h);
    let n = 0;
    for (let y = Math.max(0, Math.floor(neckY) - 2); y < yMax; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (personMask.data[i]! < 0.5 || Math.abs(x - cx) < b.sw * 0.22 || Math.abs(x - cx) > b.sw * 0.95) continue;
        const r = img.data[i * 4]!;
        const g = img.data[i * 4 + 1]!;
        const bl = img.data[i * 4 + 2]!;
        for (const c of hair.colours)
          if (Math.abs(r - c[0]!) + Math.abs(g - c[1]!) + Math.abs(bl - c[2]!) < 60) {
            isHair[i] = 1;
            n++;
            break;
          }
      }
    // Keep what hangs down from the head: flood from the rows at the neckline.
    const keep = new Uint8Array(w * h);
    const stack: number[] = [];
    const top = Math.max(0, Math.floor(neckY) - 2);
    for (let x = 0; x < w; x++)
      for (let y = top; y < Math.min(h, top + 4); y++)
        if (isHair[y * w + x]) {
          keep[y * w + x] = 1;
          stack.push(y * w + x);
        }
    let kept = 0;
    while (stack.length) {
      const p = stack.pop()!;
      kept++;
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w])
        if (q >= 0 && q < w * h && isHair[q] && !keep[q]) {
          keep[q] = 1;
          stack.push(q);
        }
    }
    // Hair the colour of the old clothes would swallow the whole shoulder area: skip then.
    const band = (yMax - top) * b.sw * 1.4;
    if (n > 0 && kept < band * 0.45) for (let i = 0; i < w * h; i++) if (keep[i]) hard.data[i] = 1;
  }
  // Hands: discs around wrist, index, pinky and thumb.
  const handR = b.sw * 0.16;
  for (const [wr, ix, pk, th] of [
    [KP.leftWrist, KP.leftIndex, KP.leftPinky, KP.leftThumb],
    [KP.rightWrist, KP.rightIndex, KP.rightPinky, KP.rightThumb],
  ] as const) {
    const pts = [k(wr), k(ix), k(pk), k(th)];
    const c = { x: pts.reduce((s, p) => s + p.x, 0) / 4, y: pts.reduce((s, p) => s + p.y, 0) / 4 };
    capsule(hard, k(wr), c, handR);
  }
  // Arms (for the garment body): forearm and the lower part of the upper arm.
  const armR = b.sw * 0.13;
  for (const [s, e, wr] of [
    [b.shoulderL, b.elbowL, b.wristL],
    [b.shoulderR, b.elbowR, b.wristR],
  ] as const) {
    const s2 = { x: s.x + (e.x - s.x) * 0.15, y: s.y + (e.y - s.y) * 0.15 };
    capsule(arms, s2, e, armR);
    capsule(arms, e, wr, armR * 0.9);
  }
  for (let i = 0; i < w * h; i++) arms.data[i] = Math.min(arms.data[i]!, personMask.data[i]! > 0.4 ? 1 : 0);
  return { hard: blurMap(hard, 2, 1), arms: blurMap(arms, 2, 1) };
}

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
  /** Above this row the garment must stay near the body (skirts below it hang free). */
  bodyClipUntilY?: number;
}

/** Returns the final alpha (what was changed) and writes the composite into a copy of the person. */
export function composite(c: CompositeInput): { image: RGBAImage; alpha: FloatMap } {
  const { person, garment, protection } = c;
  const w = person.width;
  const h = person.height;
  const alpha = createMap(w, h);
  const out: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(person.data) };
  // Everything happens where the garment has alpha: find that rectangle first.
  const ga = c.alpha.data;
  let x0 = w;
  let x1 = -1;
  let y0 = h;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let first = -1;
    for (let x = 0; x < w; x++)
      if (ga[row + x]! > 0) {
        first = x;
        break;
      }
    if (first < 0) continue;
    let last = first;
    for (let x = w - 1; x > first; x--)
      if (ga[row + x]! > 0) {
        last = x;
        break;
      }
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { image: out, alpha };
  const rw = x1 - x0 + 1;
  const mask = c.personMask.data;
  const hard = protection.hard.data;
  const arms = protection.arms.data;
  const bodyPart = c.bodyPart.data;
  const ad = alpha.data;
  // The garment stays on the body: nothing further than ~0.12 shoulder widths from the person.
  const clipRows = Math.max(0, Math.min(h, Math.round(c.bodyClipUntilY ?? h)));
  const ry1 = Math.min(y1, clipRows - 1);
  const reach = ry1 >= y0 ? blurRect(mask, w, h, Math.max(2, Math.round(c.shadingRadius * 0.12)), 1, x0, y0, x1, ry1) : null;
  for (let y = y0; y <= y1; y++) {
    const clip = reach !== null && y <= ry1;
    const rrow = (y - y0) * rw - x0;
    for (let x = x0, i = y * w + x0; x <= x1; x++, i++) {
      let a = ga[i]!;
      if (a <= 0) continue;
      if (clip) a *= Math.min(1, reach[rrow + x]! * 8);
      a *= 1 - hard[i]!;
      // Garment body goes behind arms that are in front of it; sleeves stay on top.
      a *= 1 - arms[i]! * bodyPart[i]!;
      ad[i] = a;
    }
  }
  // Luminance of the person: fine shading over broad shading (on the rectangle the
  // broad blur reaches; the fine one reaches less).
  const rf = Math.max(2, Math.round(c.shadingRadius * 0.03));
  const rb = Math.max(6, Math.round(c.shadingRadius * 0.35));
  const g = Math.max(rf, rb) * 2;
  const ex0 = Math.max(0, x0 - g);
  const ey0 = Math.max(0, y0 - g);
  const ex1 = Math.min(w - 1, x1 + g);
  const ey1 = Math.min(h - 1, y1 + g);
  const ew = ex1 - ex0 + 1;
  const lum = new Float32Array(ew * (ey1 - ey0 + 1));
  const pd = person.data;
  for (let y = ey0; y <= ey1; y++)
    for (let x = ex0, o = (y * w + ex0) * 4, j = (y - ey0) * ew; x <= ex1; x++, o += 4, j++) lum[j] = 0.299 * pd[o]! + 0.587 * pd[o + 1]! + 0.114 * pd[o + 2]! + 8;
  const lh = ey1 - ey0 + 1;
  const fine = blurRect(lum, ew, lh, rf, 2, x0 - ex0, y0 - ey0, x1 - ex0, y1 - ey0);
  const broad = blurRect(lum, ew, lh, rb, 2, x0 - ex0, y0 - ey0, x1 - ex0, y1 - ey0);
  const k = c.shading ?? 0.45;
  const gd = garment.data;
  const od = out.data;
  for (let y = y0; y <= y1; y++) {
    const rrow = (y - y0) * rw - x0;
    for (let x = x0, i = y * w + x0; x <= x1; x++, i++) {
      const a = ad[i]!;
      if (a <= 0.002) continue;
      let s = 1;
      if (mask[i]! > 0.5) {
        s = fine[rrow + x]! / broad[rrow + x]!;
        s = Math.min(1.1, Math.max(0.8, s));
        s = 1 + (s - 1) * k;
      }
      const o = i * 4;
      const b = 1 - a;
      const g0 = gd[o]! * s;
      const g1 = gd[o + 1]! * s;
      const g2 = gd[o + 2]! * s;
      od[o] = pd[o]! * b + (g0 < 255 ? g0 : 255) * a;
      od[o + 1] = pd[o + 1]! * b + (g1 < 255 ? g1 : 255) * a;
      od[o + 2] = pd[o + 2]! * b + (g2 < 255 ? g2 : 255) * a;
    }
  }
  return { image: out, alpha };
}
