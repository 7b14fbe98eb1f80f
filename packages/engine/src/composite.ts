/**
 * Compositing: protected regions (face, hair, hands, arms in front), soft edges and
 * the person's shading carried onto the garment.
 */
import { blurMap, createMap, type FloatMap, type RGBAImage } from './image.js';
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
  const n = w * h;
  const alpha = createMap(w, h);
  // The garment stays on the body: nothing further than ~0.12 shoulder widths from the person.
  const reach = blurMap(c.personMask, Math.max(2, Math.round(c.shadingRadius * 0.12)), 1);
  const clipEnd = Math.max(0, Math.min(h, Math.round(c.bodyClipUntilY ?? h))) * w;
  for (let i = 0; i < n; i++) {
    let a = c.alpha.data[i]!;
    if (a <= 0) continue;
    if (i < clipEnd) a *= Math.min(1, reach.data[i]! * 8);
    a *= 1 - protection.hard.data[i]!;
    // Garment body goes behind arms that are in front of it; sleeves stay on top.
    a *= 1 - protection.arms.data[i]! * c.bodyPart.data[i]!;
    alpha.data[i] = a;
  }
  // Luminance of the person: fine shading over broad shading.
  const lum = createMap(w, h);
  for (let i = 0; i < n; i++) lum.data[i] = 0.299 * person.data[i * 4]! + 0.587 * person.data[i * 4 + 1]! + 0.114 * person.data[i * 4 + 2]! + 8;
  const fine = blurMap(lum, Math.max(2, Math.round(c.shadingRadius * 0.03)), 2);
  const broad = blurMap(lum, Math.max(6, Math.round(c.shadingRadius * 0.35)), 2);
  const k = c.shading ?? 0.45;
  const out: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(person.data) };
  for (let i = 0; i < n; i++) {
    const a = alpha.data[i]!;
    if (a <= 0.002) continue;
    let s = 1;
    if (c.personMask.data[i]! > 0.5) {
      s = fine.data[i]! / broad.data[i]!;
      s = Math.min(1.1, Math.max(0.8, s));
      s = 1 + (s - 1) * k;
    }
    const o = i * 4;
    for (let ch = 0; ch < 3; ch++) {
      const g = Math.min(255, garment.data[o + ch]! * s);
      out.data[o + ch] = person.data[o + ch]! * (1 - a) + g * a;
    }
  }
  return { image: out, alpha };
}
