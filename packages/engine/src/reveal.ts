/**
 * Reducing the old garment where the new one leaves the body bare: an old long sleeve
 * below a new short sleeve or beside a sleeveless top or dress. Those arm parts are
 * repainted in the person's own skin tone (sampled from the face and hands), shaded as a
 * round limb is, with a little of the photo's light and folds; the old sleeve beyond the
 * arm's side becomes the backdrop beside it.
 */
import type { Category } from '@aidressup/contract';
import { blurMap, blurRect, createMap, type FloatMap, type RGBAImage } from './image.js';
import { armSegments, isSkin, KP, nearSegment, type Keypoint } from './person.js';
import type { Point } from './types.js';

export type Rgb = [number, number, number];

/**
 * The person's skin tone: the mean of skin-coloured pixels around the face and the hands
 * (whole working image, keypoints in its pixels). Null when too little skin shows.
 */
export function skinTone(img: RGBAImage, kps: Keypoint[], sw: number): Rgb | null {
  const spots: { ids: number[]; r: number }[] = [
    { ids: [KP.nose, KP.mouthLeft, KP.mouthRight], r: sw * 0.1 },
    { ids: [KP.leftWrist, KP.leftIndex, KP.leftPinky], r: sw * 0.07 },
    { ids: [KP.rightWrist, KP.rightIndex, KP.rightPinky], r: sw * 0.07 },
  ];
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (const s of spots) {
    if (s.ids.some((i) => kps[i]!.score < 0.5)) continue;
    const cx = s.ids.reduce((acc, i) => acc + kps[i]!.x, 0) / s.ids.length;
    const cy = s.ids.reduce((acc, i) => acc + kps[i]!.y, 0) / s.ids.length;
    const rad = Math.max(3, s.r);
    for (let y = Math.max(0, Math.round(cy - rad)); y <= Math.min(img.height - 1, Math.round(cy + rad)); y++)
      for (let x = Math.max(0, Math.round(cx - rad)); x <= Math.min(img.width - 1, Math.round(cx + rad)); x++) {
        const o = (y * img.width + x) * 4;
        const R = img.data[o]!;
        const G = img.data[o + 1]!;
        const B = img.data[o + 2]!;
        if (!isSkin(R, G, B)) continue;
        r += R;
        g += G;
        b += B;
        n++;
      }
  }
  return n >= 40 ? [r / n, g / n, b / n] : null;
}

export interface RevealInput {
  /** The composite so far (modified in place). */
  image: RGBAImage;
  /**
   * The new garment's coverage, i.e. where the composite changed the photo; raised in
   * place where limbs are repainted.
   */
  alpha: FloatMap;
  /** The original photo (same frame). */
  person: RGBAImage;
  personMask: FloatMap;
  /** Face, hair and hands: never repainted. */
  hard: FloatMap;
  /** Keypoints in this frame. */
  keypoints: Keypoint[];
  sw: number;
  category: Category;
  skin: Rgb | null;
  /** Nothing above this row is repainted (the garment's neckline line; the head is above it). */
  neckY?: number;
}

/** Old-sleeve pixels that become the backdrop: marked, in order, with their colours (RGB, flat). */
interface Backdrop {
  marked: Uint8Array;
  at: number[];
  rgb: number[];
}

interface Limb {
  a: Point;
  b: Point;
  r: number;
  forearm: boolean;
}

/**
 * Upper arms and forearms with a visible joint at each end. Only arms: repainted legs
 * (trousers under a short dress) cover too much of the photo for a flat skin tone to
 * look right.
 */
function arms(k: Keypoint[], sw: number): Limb[] {
  const out: Limb[] = [];
  for (const [i, j, r, forearm] of [
    [KP.leftShoulder, KP.leftElbow, 0.17, false],
    [KP.leftElbow, KP.leftWrist, 0.14, true],
    [KP.rightShoulder, KP.rightElbow, 0.17, false],
    [KP.rightElbow, KP.rightWrist, 0.14, true],
  ] as const) {
    if (k[i]!.score < 0.5 || k[j]!.score < 0.5) continue;
    out.push({ a: { x: k[i]!.x, y: k[i]!.y }, b: { x: k[j]!.x, y: k[j]!.y }, r: r * sw, forearm });
  }
  return out;
}

/** Inside the quadrilateral shoulders → hips (the torso: the old garment there is not a limb). */
function torsoTest(k: Keypoint[], h: number): (x: number, y: number) => boolean {
  const q = [KP.leftShoulder, KP.rightShoulder, KP.rightHip, KP.leftHip].map((i) => k[i]!);
  // The quadrilateral is convex: each row crosses it in one interval, found once per row.
  const lo = new Float64Array(h).fill(NaN);
  const hi = new Float64Array(h);
  const row = (y: number) => {
    let a = Infinity;
    let b = -Infinity;
    for (let i = 0; i < 4; i++) {
      const p = q[i]!;
      const r = q[(i + 1) % 4]!;
      if ((p.y - y) * (r.y - y) > 0 || p.y === r.y) continue;
      const x = p.x + ((r.x - p.x) * (y - p.y)) / (r.y - p.y);
      if (x < a) a = x;
      if (x > b) b = x;
    }
    lo[y] = a;
    hi[y] = b;
  };
  return (x, y) => {
    const yi = Math.round(y);
    if (yi < 0 || yi >= h) return false;
    if (Number.isNaN(lo[yi])) row(yi);
    return x >= lo[yi]! && x <= hi[yi]!;
  };
}

/**
 * The old sleeve's pixels beside a repainted arm (out to 2.2 times its radius): each takes
 * the colour of the backdrop found outward from the arm's axis along its row, within half a
 * shoulder width. One that meets the new garment first lies between arm and garment and
 * becomes the arm's shaded side; one that meets skin (another limb) stays as it is.
 */
function fillBeyond(
  c: RevealInput,
  l: Limb,
  paint: FloatMap,
  shade: FloatMap,
  backdrop: Backdrop,
  inTorso: (x: number, y: number) => boolean,
): void {
  const { width: w, height: h } = c.image;
  const pd = c.person.data;
  const pm = c.personMask.data;
  const R = l.r * 2.2;
  const dx = l.b.x - l.a.x;
  const dy = l.b.y - l.a.y;
  const l2 = dx * dx + dy * dy || 1e-6;
  const reach = Math.round(c.sw * 0.5);
  const x0 = Math.max(0, Math.floor(Math.min(l.a.x, l.b.x) - R));
  const x1 = Math.min(w - 1, Math.ceil(Math.max(l.a.x, l.b.x) + R));
  const y0 = Math.max(0, Math.floor(Math.min(l.a.y, l.b.y)));
  const y1 = Math.min(h - 1, Math.ceil(Math.max(l.a.y, l.b.y)));
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      if (paint.data[i] || backdrop.marked[i] || pm[i]! < 0.15 || c.alpha.data[i]! > 0.3 || c.hard.data[i]! > 0.3)
        continue;
      const t = Math.max(0, Math.min(1, ((x - l.a.x) * dx + (y - l.a.y) * dy) / l2));
      const ax = l.a.x + t * dx;
      const e = Math.hypot(x - ax, y - (l.a.y + t * dy));
      if (e > R) continue;
      // On the torso only the gap between arm and garment counts (the old top is the cover step's).
      const torso = inTorso(x, y);
      const o = i * 4;
      if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!)) continue;
      const step = x >= ax ? 1 : -1;
      const j = backdropAlong(c, x, y, step, reach, true);
      if (j === GARMENT) {
        // Between the arm and the new garment: the arm's shaded side.
        if (e <= l.r * 1.5 && (!torso || e <= l.r * 1.25)) {
          paint.data[i] = 1;
          shade.data[i] = 0.8;
        }
        continue;
      }
      if (j < 0 || torso) continue;
      // Two backdrop pixels further out, averaged (edges of the mask are soft).
      const j2 = y * w + Math.max(0, Math.min(w - 1, (j % w) + step * 2));
      const q = j * 4;
      const q2 = j2 * 4;
      backdrop.marked[i] = 1;
      backdrop.at.push(i);
      backdrop.rgb.push((pd[q]! + pd[q2]!) / 2, (pd[q + 1]! + pd[q2 + 1]!) / 2, (pd[q + 2]! + pd[q2 + 2]!) / 2);
    }
}

/** backdropAlong: the new garment came first. */
const GARMENT = -1;
/** backdropAlong: skin came first, or nothing was in reach. */
const NONE = -2;

/**
 * Outward along row y from x (step ±1, at most `reach` pixels), through the person: the first
 * backdrop pixel (person mask < 0.2), as a pixel index; GARMENT when the new garment comes
 * first; NONE when nothing is in reach or, with `skinStops`, the person's skin comes first.
 */
function backdropAlong(c: RevealInput, x: number, y: number, step: 1 | -1, reach: number, skinStops: boolean): number {
  const w = c.image.width;
  const pm = c.personMask.data;
  const pd = c.person.data;
  for (let k = 1, xx = x + step; k <= reach && xx >= 0 && xx < w; k++, xx += step) {
    const j = y * w + xx;
    if (c.alpha.data[j]! > 0.5) return GARMENT;
    if (pm[j]! < 0.2) return j;
    const q = j * 4;
    if (skinStops && isSkin(pd[q]!, pd[q + 1]!, pd[q + 2]!)) return NONE;
  }
  return NONE;
}

export function revealLimbs(c: RevealInput): void {
  if (!c.skin || c.category === 'lower_body') return;
  const inTorso = torsoTest(c.keypoints, c.image.height);
  const { width: w, height: h } = c.image;
  const pm = c.personMask.data;
  const al = c.alpha.data;
  const hd = c.hard.data;
  const skin = c.skin;
  const pd = c.person.data;
  const paint = createMap(w, h);
  const shade = createMap(w, h);
  const backdrop: Backdrop = { marked: new Uint8Array(w * h), at: [], rgb: [] };
  const near = (r: number, g: number, b: number) =>
    Math.abs(r - skin[0]) + Math.abs(g - skin[1]) + Math.abs(b - skin[2]) < 60;
  // Cuff pixels inside the hand zone that have the sleeve's colour are repainted too.
  const cuff = new Uint8Array(w * h);
  const scan = (l: Limb, visit: (i: number, x: number, y: number, d: number, px: number, py: number) => void) => {
    const x0 = Math.max(0, Math.floor(Math.min(l.a.x, l.b.x) - l.r));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(l.a.x, l.b.x) + l.r));
    const y0 = Math.max(0, Math.floor(Math.min(l.a.y, l.b.y) - l.r));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(l.a.y, l.b.y) + l.r));
    const dx = l.b.x - l.a.x;
    const dy = l.b.y - l.a.y;
    const l2 = dx * dx + dy * dy || 1e-6;
    const r2 = l.r * l.r;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const t = Math.max(0, Math.min(1, ((x - l.a.x) * dx + (y - l.a.y) * dy) / l2));
        const px = l.a.x + t * dx;
        const py = l.a.y + t * dy;
        const ex = x - px;
        const ey = y - py;
        const e2 = ex * ex + ey * ey;
        if (e2 <= r2) visit(y * w + x, x, y, Math.sqrt(e2), px, py);
      }
  };
  const luma = (o: number) => 0.299 * pd[o]! + 0.587 * pd[o + 1]! + 0.114 * pd[o + 2]! + 4;
  for (const l of arms(c.keypoints, c.sw)) {
    const cells: number[] = [];
    const across: number[] = [];
    let skinCount = 0;
    let lum = 0;
    const sleeve = [0, 0, 0];
    scan(l, (i, x, y, d) => {
      if (pm[i]! < 0.25 || al[i]! > 0.3 || hd[i]! > 0.3 || inTorso(x, y)) return;
      const o = i * 4;
      if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!) || near(pd[o]!, pd[o + 1]!, pd[o + 2]!)) {
        skinCount++;
        return;
      }
      cells.push(i);
      across.push(d / l.r);
      lum += luma(o);
      sleeve[0]! += pd[o]!;
      sleeve[1]! += pd[o + 1]!;
      sleeve[2]! += pd[o + 2]!;
    });
    const total = cells.length + skinCount;
    // Too little uncovered, or already bare.
    if (cells.length < 30 || skinCount >= total * 0.5) continue;
    const mean = lum / cells.length;
    const paintAt = (i: number, t: number) => {
      paint.data[i] = 1;
      // A limb is round: lit in the middle, darker towards its sides (t: 0 on the axis, 1 at
      // the rim). The old sleeve's folds and light add a little; a dark sleeve has too
      // little of either to shade an arm on its own, which painted flat bands.
      const round = 0.8 + 0.26 * Math.sqrt(Math.max(0, 1 - t * t));
      // (A dark sleeve's ratios are mostly noise and seams: no folds from it.)
      const folds = mean < 60 ? 1 : Math.min(1.1, Math.max(0.88, 1 + (luma(i * 4) / mean - 1) * 0.25));
      shade.data[i] = round * folds;
    };
    cells.forEach((i, n) => paintAt(i, across[n]!));
    // The old sleeve was wider than the arm: beyond the arm's side it becomes the backdrop
    // next to it (read outward along the row), so no dark rim of the sleeve outlines the arm.
    fillBeyond(c, l, paint, shade, backdrop, inTorso);
    if (!l.forearm) continue;
    // The cuff reaches past the wrist joint into the hand zone.
    const sr = sleeve[0]! / cells.length;
    const sg = sleeve[1]! / cells.length;
    const sb = sleeve[2]! / cells.length;
    const ext: Limb = {
      a: l.b,
      b: { x: l.b.x + (l.b.x - l.a.x) * 0.3, y: l.b.y + (l.b.y - l.a.y) * 0.3 },
      r: l.r,
      forearm: true,
    };
    scan(ext, (i, _x, _y, d) => {
      if (paint.data[i] || c.personMask.data[i]! < 0.25 || c.alpha.data[i]! > 0.3) return;
      const o = i * 4;
      if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!) || near(pd[o]!, pd[o + 1]!, pd[o + 2]!)) return;
      if (Math.abs(pd[o]! - sr) + Math.abs(pd[o + 1]! - sg) + Math.abs(pd[o + 2]! - sb) > 50) return;
      cuff[i] = 1;
      paintAt(i, d / ext.r);
    });
  }
  const out = c.image.data;
  // Sleeve beyond the arm, now backdrop (the arm's soft edge is painted over it below).
  for (let n = 0; n < backdrop.at.length; n++) {
    const i = backdrop.at[n]!;
    if (paint.data[i]) continue;
    const o = i * 4;
    const a = Math.min(1 - c.hard.data[i]!, 1 - c.alpha.data[i]!);
    for (let ch = 0; ch < 3; ch++) out[o + ch] = out[o + ch]! * (1 - a) + backdrop.rgb[n * 3 + ch]! * a;
    if (a > c.alpha.data[i]!) c.alpha.data[i] = a;
  }
  // Soft edge, and never beyond the person; only over the painted pixels' box.
  let bx0 = w;
  let by0 = h;
  let bx1 = -1;
  let by1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++)
      if (paint.data[i]) {
        if (x < bx0) bx0 = x;
        if (x > bx1) bx1 = x;
        if (y < by0) by0 = y;
        if (y > by1) by1 = y;
      }
  if (bx1 < 0) return;
  bx0 = Math.max(0, bx0 - 1);
  by0 = Math.max(0, by0 - 1);
  bx1 = Math.min(w - 1, bx1 + 1);
  by1 = Math.min(h - 1, by1 + 1);
  const soft = blurRect(paint.data, w, h, 1, 1, bx0, by0, bx1, by1);
  const rw = bx1 - bx0 + 1;
  for (let y = by0; y <= by1; y++)
    for (let x = bx0; x <= bx1; x++) {
      const i = y * w + x;
      let a = soft[(y - by0) * rw + x - bx0]!;
      if (a <= 0.01) continue;
      a = Math.min(a, c.personMask.data[i]! * 2, cuff[i] ? 1 : 1 - c.hard.data[i]!, 1 - c.alpha.data[i]!);
      if (a <= 0.01) continue;
      // Pixels on the rim of the painted area borrow the shading of their painted neighbour.
      const s = shade.data[i]! || 1;
      const o = i * 4;
      for (let ch = 0; ch < 3; ch++) out[o + ch] = out[o + ch]! * (1 - a) + Math.min(255, skin[ch]! * s) * a;
      if (a > c.alpha.data[i]!) c.alpha.data[i] = a;
    }
}

/**
 * The old top above the new garment's neckline, on the chest and the tops of the shoulders
 * (a collar above a new T-shirt, the old top between a strap top's straps): every pixel of
 * the person there that is neither skin nor protected (face, hair, hands), and that the new
 * garment's body lies below (straps do not stop the search), becomes skin. The skin is filled
 * in from the skin around it (the neck above, bare arms beside): a harmonic fill, so it takes
 * the neck's own colour and light and has no edges of its own. Without skin around, the
 * person's skin tone. Applies to tops and dresses.
 */
export function revealChest(c: RevealInput): void {
  if (!c.skin || c.category === 'lower_body') return;
  const k = c.keypoints;
  const sL = k[KP.leftShoulder]!;
  const sR = k[KP.rightShoulder]!;
  if (sL.score < 0.5 || sR.score < 0.5) return;
  const { width: w, height: h } = c.image;
  const pd = c.person.data;
  const pm = c.personMask.data;
  const al = c.alpha.data;
  const hd = c.hard.data;
  const ja = Math.min(sL.x, sR.x);
  const jb = Math.max(sL.x, sR.x);
  const sy = (sL.y + sR.y) / 2;
  const cx = (ja + jb) / 2;
  // The shoulders' tops reach a little beyond the joints.
  const xa = Math.max(1, Math.ceil(ja - c.sw * 0.3));
  const xb = Math.min(w - 2, Math.floor(jb + c.sw * 0.3));
  const yTop = Math.max(1, Math.round(sy - c.sw * 0.6), Math.ceil(c.neckY ?? sy));
  const yChest = Math.min(h - 2, Math.round(sy + c.sw * 0.9));
  const yShoulder = Math.min(h - 2, Math.round(sy + c.sw * 0.25));
  // Beyond the joints the old top's shoulder (a cap sleeve) reaches a little further down.
  const yOuter = Math.min(h - 2, Math.round(sy + c.sw * 0.45));
  if (xb <= xa || yChest <= yTop) return;
  const bw = xb - xa + 1;
  const bh = yChest - yTop + 1;
  // Each covered pixel's horizontal run of garment: a strap's is narrow, the body's wide.
  const wide = new Uint8Array(bw * bh);
  const minRun = c.sw * 0.3;
  for (let y = yTop; y <= yChest; y++) {
    let x = xa;
    while (x <= xb) {
      if (al[y * w + x]! <= 0.5) {
        x++;
        continue;
      }
      let e = x;
      while (e + 1 < w && al[y * w + e + 1]! > 0.5) e++;
      let s = x;
      while (s - 1 >= 0 && al[y * w + s - 1]! > 0.5) s--;
      if (e - s + 1 >= minRun) for (let xx = x; xx <= Math.min(e, xb); xx++) wide[(y - yTop) * bw + xx - xa] = 1;
      x = e + 1;
    }
  }
  // 1: to fill; 2: skin to fill from.
  const role = new Uint8Array(bw * bh);
  let count = 0;
  for (let x = xa; x <= xb; x++) {
    const outer = x < ja || x > jb;
    let end = outer ? yOuter : yChest;
    for (let y = yTop; y <= end; y++)
      if (wide[(y - yTop) * bw + x - xa]) {
        end = y - 1;
        break;
      }
    // A column the garment's body never reaches on the chest is filled over the shoulders only.
    if (!outer && end === yChest) end = yShoulder;
    // The shoulders slope from the neck down to a little above the joints (the person mask
    // is rounder than the shoulders there, and would take in the backdrop above them).
    const shoulderTop = sy - c.sw * 0.1;
    const t = Math.min(1, Math.max(0, (Math.abs(x - cx) - c.sw * 0.25) / Math.max(1, (jb - ja) / 2 - c.sw * 0.25)));
    const start = Math.max(yTop, Math.round(yTop + (shoulderTop - yTop) * t));
    for (let y = start; y <= end; y++) {
      const i = y * w + x;
      if (pm[i]! < 0.5 || hd[i]! > 0.3 || al[i]! > 0.9) continue;
      const o = i * 4;
      if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!)) continue;
      role[(y - yTop) * bw + x - xa] = 1;
      count++;
    }
  }
  if (count < 20) return;
  // Beyond the joints, what lies outside the upper arms is the old top's shoulder or cap
  // sleeve standing off the body: it becomes the backdrop beside it, not a padded shoulder.
  const img = c.image.data;
  const backdrop = new Map<number, number>();
  const upper = armSegments(k, 0).filter((_, n) => n % 2 === 0);
  const armR2 = (c.sw * 0.14) ** 2;
  for (let y = yTop; y <= yChest; y++)
    for (let x = xa; x <= xb; x++) {
      if (x >= ja && x <= jb) continue;
      const j = (y - yTop) * bw + x - xa;
      if (role[j] !== 1) continue;
      let onArm = false;
      for (const seg of upper) if (nearSegment(seg, armR2, x, y)) onArm = true;
      if (onArm) continue;
      const q = backdropAlong(c, x, y, x < cx ? -1 : 1, Math.ceil(c.sw * 0.4), false);
      if (q < 0) continue;
      backdrop.set(j, q * 4);
      role[j] = 0;
    }
  // Skin next to the region (in the photo, not protected by the garment) gives the values.
  const val = new Float32Array(bw * bh * 3);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) {
      const j = y * bw + x;
      if (role[j] !== 0) continue;
      const i = (y + yTop) * w + x + xa;
      const o = i * 4;
      // Skin the result shows and the new garment does not cover.
      if (pm[i]! < 0.5 || al[i]! > 0.3 || !isSkin(img[o]!, img[o + 1]!, img[o + 2]!)) continue;
      // The neighbouring region cell's direction; the value is read 3 px further away from it
      // when that is skin too (the skin right at the old garment's edge is mixed with it).
      const d =
        x > 0 && role[j - 1] === 1
          ? -1
          : x < bw - 1 && role[j + 1] === 1
            ? 1
            : y > 0 && role[j - bw] === 1
              ? -w
              : y < bh - 1 && role[j + bw] === 1
                ? w
                : 0;
      if (!d) continue;
      role[j] = 2;
      const f = i - 3 * d;
      const of = f * 4;
      const deep = f >= 0 && f < w * h && pm[f]! >= 0.5 && isSkin(img[of]!, img[of + 1]!, img[of + 2]!) ? of : o;
      val[j * 3] = img[deep]!;
      val[j * 3 + 1] = img[deep + 1]!;
      val[j * 3 + 2] = img[deep + 2]!;
    }
  harmonicFill(role, val, bw, bh, c.skin);
  // The body's own relief under the old top (collarbones, chest, the light on it): the
  // photo's light against its local mean, softened and bounded (prints do not carry over).
  const lum = createMap(bw, bh);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) {
      const o = ((y + yTop) * w + x + xa) * 4;
      lum.data[y * bw + x] = 0.299 * pd[o]! + 0.587 * pd[o + 1]! + 0.114 * pd[o + 2]! + 8;
    }
  const local = blurMap(lum, Math.max(2, Math.round(c.sw * 0.08)), 2);
  const relief = (j: number) => Math.min(1.1, Math.max(0.88, 1 + (lum.data[j]! / local.data[j]! - 1) * 0.5));
  for (const [j, q] of backdrop) {
    const i = (Math.floor(j / bw) + yTop) * w + (j % bw) + xa;
    const a = Math.min(1 - hd[i]!, 1 - al[i]!);
    for (let ch = 0; ch < 3; ch++) img[i * 4 + ch] = img[i * 4 + ch]! * (1 - a) + pd[q + ch]! * a;
    if (a > al[i]!) al[i] = a;
  }
  // Soft edge: the filled cells' 3×3 mean, over the box and a pixel around it.
  const pw = bw + 2;
  const filled = createMap(pw, bh + 2);
  for (let y = 0; y < bh; y++)
    for (let x = 0; x < bw; x++) if (role[y * bw + x] === 1) filled.data[(y + 1) * pw + x + 1] = 1;
  const soft = blurMap(filled, 1, 1);
  for (let y = Math.max(0, yTop - 1); y <= Math.min(h - 1, yChest + 1); y++)
    for (let x = Math.max(0, xa - 1); x <= Math.min(w - 1, xb + 1); x++) {
      const i = y * w + x;
      const mean = soft.data[(y - yTop + 1) * pw + x - xa + 1]!;
      if (mean <= 0) continue;
      const a = Math.min(mean, pm[i]! * 3, 1 - hd[i]!, 1 - al[i]!);
      if (a <= 0.01) continue;
      // The rim borrows its nearest filled value.
      const bx = Math.max(0, Math.min(bw - 1, x - xa));
      const by = Math.max(0, Math.min(bh - 1, y - yTop));
      let j = by * bw + bx;
      if (role[j] !== 1)
        for (let dy = -1; dy <= 1 && role[j] !== 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const qx = bx + dx;
            const qy = by + dy;
            if (qx >= 0 && qy >= 0 && qx < bw && qy < bh && role[qy * bw + qx] === 1) {
              j = qy * bw + qx;
              break;
            }
          }
      if (role[j] !== 1) continue;
      const o = i * 4;
      const r = relief(j);
      for (let ch = 0; ch < 3; ch++) img[o + ch] = img[o + ch]! * (1 - a) + Math.min(255, val[j * 3 + ch]! * r) * a;
      if (a > al[i]!) al[i] = a;
    }
}

/**
 * Fill the unknown cells (role 1) of a grid with the harmonic interpolation of the known
 * ones (role 2, values in `val`, RGB); role 0 cells are outside (the fill runs along them).
 * Nested iteration: the problem is solved on a grid half the size first, and its solution
 * starts over-relaxed Gauss–Seidel here, so a few sweeps suffice at any size. Cells with no
 * known value in reach take `fallback`.
 */
export function harmonicFill(role: Uint8Array, val: Float32Array, bw: number, bh: number, fallback: Rgb): void {
  const cells: number[] = [];
  for (let j = 0; j < bw * bh; j++) if (role[j] === 1) cells.push(j);
  if (!cells.length) return;
  if (bw > 12 && bh > 12) {
    const cw = Math.ceil(bw / 2);
    const chh = Math.ceil(bh / 2);
    const crole = new Uint8Array(cw * chh);
    const cval = new Float32Array(cw * chh * 3);
    const cn = new Uint16Array(cw * chh);
    for (let y = 0; y < bh; y++)
      for (let x = 0; x < bw; x++) {
        const j = y * bw + x;
        const q = (y >> 1) * cw + (x >> 1);
        if (role[j] === 2) {
          if (crole[q] !== 2) {
            crole[q] = 2;
            cval[q * 3] = cval[q * 3 + 1] = cval[q * 3 + 2] = 0;
            cn[q] = 0;
          }
          for (let ch = 0; ch < 3; ch++) cval[q * 3 + ch] = cval[q * 3 + ch]! + val[j * 3 + ch]!;
          cn[q] = cn[q]! + 1;
        } else if (role[j] === 1 && crole[q] === 0) crole[q] = 1;
      }
    for (let q = 0; q < cw * chh; q++)
      if (crole[q] === 2) for (let ch = 0; ch < 3; ch++) cval[q * 3 + ch] = cval[q * 3 + ch]! / cn[q]!;
    harmonicFill(crole, cval, cw, chh, fallback);
    for (const j of cells) {
      const q = (Math.floor(j / bw) >> 1) * cw + ((j % bw) >> 1);
      for (let ch = 0; ch < 3; ch++) val[j * 3 + ch] = cval[q * 3 + ch]!;
    }
  } else for (const j of cells) val.set(fallback, j * 3);
  // Which neighbours take part, once per cell (bits: left, right, up, down).
  const N = bw * bh;
  const nb = new Uint8Array(cells.length);
  for (let c = 0; c < cells.length; c++) {
    const q = cells[c]!;
    const x = q % bw;
    nb[c] =
      (x > 0 && role[q - 1] ? 1 : 0) |
      (x < bw - 1 && role[q + 1] ? 2 : 0) |
      (q >= bw && role[q - bw] ? 4 : 0) |
      (q + bw < N && role[q + bw] ? 8 : 0);
  }
  const omega = 1.7;
  for (let it = 0; it < 12; it++)
    for (let c = 0; c < cells.length; c++) {
      const m = nb[c]!;
      if (!m) continue;
      const o = cells[c]! * 3;
      let n = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      if (m & 1) {
        r += val[o - 3]!;
        g += val[o - 2]!;
        b += val[o - 1]!;
        n++;
      }
      if (m & 2) {
        r += val[o + 3]!;
        g += val[o + 4]!;
        b += val[o + 5]!;
        n++;
      }
      if (m & 4) {
        const u = o - bw * 3;
        r += val[u]!;
        g += val[u + 1]!;
        b += val[u + 2]!;
        n++;
      }
      if (m & 8) {
        const d = o + bw * 3;
        r += val[d]!;
        g += val[d + 1]!;
        b += val[d + 2]!;
        n++;
      }
      val[o] = val[o]! + omega * (r / n - val[o]!);
      val[o + 1] = val[o + 1]! + omega * (g / n - val[o + 1]!);
      val[o + 2] = val[o + 2]! + omega * (b / n - val[o + 2]!);
    }
}
