/**
 * Protected regions for compositing: where the garment is never drawn (face, hair, neck,
 * hands), and the bare arms in front of the torso that the garment body goes behind.
 */
import { blurRect, createMap, type FloatMap, type RGBAImage } from './image.js';
import type { Point } from './types.js';
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
  const soft = Math.max(1, r * 0.2);
  const r2 = r * r;
  const d = m.data;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      let t = ((x - a.x) * dx + (y - a.y) * dy) / l2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ex = x - (a.x + t * dx);
      const ey = y - (a.y + t * dy);
      const e2 = ex * ex + ey * ey;
      if (e2 <= r2) {
        const i = y * m.width + x;
        const q = (r - Math.sqrt(e2)) / soft;
        const v = value * (q < 1 ? q : 1);
        if (v > d[i]!) d[i] = v;
      }
    }
}

function ellipse(m: FloatMap, c: Point, rx: number, ry: number): void {
  const x0 = Math.max(0, Math.floor(c.x - rx));
  const x1 = Math.min(m.width - 1, Math.ceil(c.x + rx));
  const y0 = Math.max(0, Math.floor(c.y - ry));
  const y1 = Math.min(m.height - 1, Math.ceil(c.y + ry));
  for (let y = y0; y <= y1; y++) {
    const ey = (y - c.y) / ry;
    const ey2 = ey * ey;
    const row = y * m.width;
    for (let x = x0; x <= x1; x++) {
      const ex = (x - c.x) / rx;
      if (ex * ex + ey2 <= 1) m.data[row + x] = 1;
    }
  }
}

/** Rectangle (inclusive) of a map's non-zero pixels grown by g, or null. */
export type Rect = { x0: number; y0: number; x1: number; y1: number };

/**
 * `blurMap(m, r, passes)` for a map that is zero outside the rectangles `nz`: the blur
 * is done on the rectangles it can reach only (each exactly, reading the whole map);
 * elsewhere the result is exactly zero.
 */
function blurNonZero(m: FloatMap, r: number, passes: number, nz: Rect[]): FloatMap {
  const { width: w, height: h } = m;
  const out = createMap(w, h);
  const g = r * passes;
  for (const b of nz) {
    const x0 = Math.max(0, Math.floor(b.x0) - g);
    const y0 = Math.max(0, Math.floor(b.y0) - g);
    const x1 = Math.min(w - 1, Math.ceil(b.x1) + g);
    const y1 = Math.min(h - 1, Math.ceil(b.y1) + g);
    if (x1 < x0 || y1 < y0) continue;
    const part = blurRect(m.data, w, h, r, passes, x0, y0, x1, y1);
    const rw = x1 - x0 + 1;
    for (let y = y0; y <= y1; y++) out.data.set(part.subarray((y - y0) * rw, (y - y0 + 1) * rw), y * w + x0);
  }
  return out;
}

function grow(r: Rect | null, x0: number, y0: number, x1: number, y1: number): Rect {
  if (!r) return { x0, y0, x1, y1 };
  return { x0: Math.min(r.x0, x0), y0: Math.min(r.y0, y0), x1: Math.max(r.x1, x1), y1: Math.max(r.y1, y1) };
}

/** Bounding box of what `capsule` may paint. */
function capsuleBox(a: Point, b: Point, r: number): Rect {
  return {
    x0: Math.floor(Math.min(a.x, b.x) - r),
    y0: Math.floor(Math.min(a.y, b.y) - r),
    x1: Math.ceil(Math.max(a.x, b.x) + r),
    y1: Math.ceil(Math.max(a.y, b.y) + r),
  };
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
  const y0 = Math.max(0, Math.floor(fy - fr * 2.2));
  const y1 = Math.min(img.height - 1, Math.ceil(fy + fr * 0.6));
  const x0 = Math.max(0, Math.floor(fx - fr * 1.6));
  const x1 = Math.min(img.width - 1, Math.ceil(fx + fr * 1.6));
  const cap = (Math.floor((y1 - y0) / 2) + 1) * (Math.floor((x1 - x0) / 2) + 1);
  if (cap < 40 || y1 < y0 || x1 < x0) return null;
  // Sort key: brightness, then the order of discovery (what a stable sort keeps).
  const keys = new Float64Array(cap);
  const rgb = new Uint8Array(cap * 3);
  let n = 0;
  const rx = fr * 0.95;
  const ry = fr * 1.25;
  const d = img.data;
  const md = mask.data;
  for (let y = y0; y <= y1; y += 2) {
    const ey = (y - fy) / ry;
    const ey2 = ey * ey;
    for (let x = x0; x <= x1; x += 2) {
      const i = y * img.width + x;
      if (md[i]! < 0.7) continue;
      // Outside the face oval (skin).
      const ex = (x - fx) / rx;
      if (ex * ex + ey2 < 1) continue;
      const r = d[i * 4]!;
      const g = d[i * 4 + 1]!;
      const b = d[i * 4 + 2]!;
      rgb[n * 3] = r;
      rgb[n * 3 + 1] = g;
      rgb[n * 3 + 2] = b;
      keys[n] = (r + g + b) * 4194304 + n;
      n++;
    }
  }
  if (n < 40) return null;
  // Two clusters (hair in light and shadow).
  const sorted = keys.subarray(0, n).sort();
  const half = Math.floor(n / 2);
  const mean = (from: number, to: number) => {
    let r = 0;
    let g = 0;
    let b = 0;
    for (let k = from; k < to; k++) {
      const j = sorted[k]! % 4194304;
      r += rgb[j * 3]!;
      g += rgb[j * 3 + 1]!;
      b += rgb[j * 3 + 2]!;
    }
    const c = Math.max(1, to - from);
    return [r / c, g / c, b / c];
  };
  return [mean(0, half), mean(half, n)];
}

/** Whether a hair colour is within reach of the clothes' colour in the middle of the chest. */
function hairLikeChest(hair: { image: RGBAImage; colours: number[][] }, b: BodyFrame): boolean {
  const { width: w, height: h, data } = hair.image;
  const cx = Math.round((b.shoulderL.x + b.shoulderR.x) / 2);
  const cy = Math.round((b.shoulderL.y + b.shoulderR.y) / 2 + b.sw * 0.45);
  const r = Math.max(2, Math.round(b.sw * 0.08));
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, cy - r); y <= Math.min(h - 1, cy + r); y++)
    for (let x = Math.max(0, cx - r); x <= Math.min(w - 1, cx + r); x++) {
      for (let c = 0; c < 3; c++) sum[c]! += data[(y * w + x) * 4 + c]!;
      n++;
    }
  if (!n) return false;
  return hair.colours.some(
    (col) => Math.abs(col[0]! - sum[0]! / n) + Math.abs(col[1]! - sum[1]! / n) + Math.abs(col[2]! - sum[2]! / n) < 60,
  );
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
  const hardRects: Rect[] = [];
  if (face.some((p) => p.score > 0.3 && p.y > -fr)) {
    ellipse(hard, { x: fx, y: fy }, fr, fr * 1.3);
    hardRects.push({ x0: fx - fr, y0: fy - fr * 1.3, x1: fx + fr, y1: fy + fr * 1.3 });
  }
  // Nothing of the garment goes above the neckline (hoods and hangers hang behind the head).
  const neckRows = Math.max(0, Math.min(h, Math.floor(neckY)));
  if (neckRows > 0) {
    hard.data.fill(1, 0, neckRows * w);
    hardRects.push({ x0: 0, y0: 0, x1: w - 1, y1: neckRows - 1 });
  }
  // Long hair over the shoulders stays in front: pixels of hair colour connected to the
  // hair above the neckline, beside the neck (not over the middle of the chest).
  // Hair the colour of the clothes on the chest cannot be told from them: not kept then.
  if (hair && hairLikeChest(hair, b)) hair = null;
  if (hair) {
    const img = hair.image.data;
    const pm = personMask.data;
    const yMax = Math.min(h, Math.ceil(Math.max(b.shoulderL.y, b.shoulderR.y) + b.sw * 0.9));
    const cx = (b.shoulderL.x + b.shoulderR.x) / 2;
    const top = Math.max(0, Math.floor(neckY) - 2);
    // Hair only exists in rows [top, yMax): work on that band.
    const bh = Math.max(0, yMax - top);
    const size = bh * w;
    const isHair = new Uint8Array(size);
    const cols = hair.colours;
    const nc = cols.length;
    const cr = new Float64Array(nc);
    const cg = new Float64Array(nc);
    const cb = new Float64Array(nc);
    for (let q = 0; q < nc; q++) {
      cr[q] = cols[q]![0]!;
      cg[q] = cols[q]![1]!;
      cb[q] = cols[q]![2]!;
    }
    const near = b.sw * 0.22;
    const far = b.sw * 0.95;
    let n = 0;
    for (let y = top; y < yMax; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const dx = Math.abs(x - cx);
        if (pm[i]! < 0.5 || dx < near || dx > far) continue;
        const r = img[i * 4]!;
        const g = img[i * 4 + 1]!;
        const bl = img[i * 4 + 2]!;
        for (let q = 0; q < nc; q++)
          if (Math.abs(r - cr[q]!) + Math.abs(g - cg[q]!) + Math.abs(bl - cb[q]!) < 60) {
            isHair[i - top * w] = 1;
            n++;
            break;
          }
      }
    // Keep what hangs down from the head: flood from the rows at the neckline.
    const keep = new Uint8Array(size);
    const stack = new Int32Array(size + 1);
    let sp = 0;
    for (let x = 0; x < w; x++)
      for (let y = 0; y < Math.min(bh, 4); y++)
        if (isHair[y * w + x]) {
          keep[y * w + x] = 1;
          stack[sp++] = y * w + x;
        }
    let kept = 0;
    let ky0 = bh;
    let ky1 = -1;
    while (sp > 0) {
      const p = stack[--sp]!;
      kept++;
      const y = (p / w) | 0;
      const x = p - y * w;
      if (y < ky0) ky0 = y;
      if (y > ky1) ky1 = y;
      if (x > 0 && isHair[p - 1] && !keep[p - 1]) {
        keep[p - 1] = 1;
        stack[sp++] = p - 1;
      }
      if (x < w - 1 && isHair[p + 1] && !keep[p + 1]) {
        keep[p + 1] = 1;
        stack[sp++] = p + 1;
      }
      if (p >= w && isHair[p - w] && !keep[p - w]) {
        keep[p - w] = 1;
        stack[sp++] = p - w;
      }
      if (p + w < size && isHair[p + w] && !keep[p + w]) {
        keep[p + w] = 1;
        stack[sp++] = p + w;
      }
    }
    // Hair the colour of the old clothes would swallow the whole shoulder area: skip then.
    const band = (yMax - top) * b.sw * 1.4;
    if (n > 0 && kept < band * 0.45 && kept > 0) {
      const off = top * w;
      for (let i = ky0 * w; i < (ky1 + 1) * w; i++) if (keep[i]) hard.data[off + i] = 1;
      hardRects.push({ x0: 0, y0: top + ky0, x1: w - 1, y1: top + ky1 });
    }
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
    const cb = capsuleBox(k(wr), c, handR);
    hardRects.push(cb);
  }
  // Arms (for the garment body): forearm and the lower part of the upper arm.
  const armR = b.sw * 0.13;
  let armsBox: Rect | null = null;
  const armsRects: Rect[] = [];
  for (const [s, e, wr] of [
    [b.shoulderL, b.elbowL, b.wristL],
    [b.shoulderR, b.elbowR, b.wristR],
  ] as const) {
    const s2 = { x: s.x + (e.x - s.x) * 0.15, y: s.y + (e.y - s.y) * 0.15 };
    capsule(arms, s2, e, armR);
    capsule(arms, e, wr, armR * 0.9);
    const b1 = capsuleBox(s2, e, armR);
    const b2 = capsuleBox(e, wr, armR * 0.9);
    armsBox = grow(grow(armsBox, b1.x0, b1.y0, b1.x1, b1.y1), b2.x0, b2.y0, b2.x1, b2.y1);
    armsRects.push(b1, b2);
  }
  // Arms only where the person is (arms ≤ 1, so min(arms, 1) keeps it).
  const ad = arms.data;
  const pmd = personMask.data;
  if (armsBox) {
    const ax0 = Math.max(0, armsBox.x0);
    const ax1 = Math.min(w - 1, armsBox.x1);
    for (let y = Math.max(0, armsBox.y0); y <= Math.min(h - 1, armsBox.y1); y++)
      for (let i = y * w + ax0, e = y * w + ax1; i <= e; i++) if (ad[i]! > 0 && !(pmd[i]! > 0.4)) ad[i] = 0;
  }
  return { hard: blurNonZero(hard, 2, 1, hardRects), arms: blurNonZero(arms, 2, 1, armsRects) };
}
