/**
 * Reducing the old garment where the new one leaves the body bare: an old long sleeve
 * below a new short sleeve or beside a sleeveless top or dress. Those arm parts are
 * repainted in the person's own skin tone (sampled from the face and hands), shaded as a
 * round limb is, with a little of the photo's light and folds; the old sleeve beyond the
 * arm's side becomes the backdrop beside it.
 */
import type { Category } from '@aidressup/contract';
import { blurMap, createMap, type FloatMap, type RGBAImage } from './image.js';
import { isSkin, KP, type Keypoint } from './person.js';
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
function torsoTest(k: Keypoint[]): (x: number, y: number) => boolean {
  const q = [KP.leftShoulder, KP.rightShoulder, KP.rightHip, KP.leftHip].map((i) => k[i]!);
  return (x, y) => {
    let sign = 0;
    for (let i = 0; i < 4; i++) {
      const a = q[i]!;
      const b = q[(i + 1) % 4]!;
      const cr = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
      if (cr === 0) continue;
      const s = cr > 0 ? 1 : -1;
      if (sign && s !== sign) return false;
      sign = s;
    }
    return true;
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
  backdrop: Map<number, Rgb>,
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
      if (paint.data[i] || backdrop.has(i) || pm[i]! < 0.15 || c.alpha.data[i]! > 0.3 || c.hard.data[i]! > 0.3)
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
      for (let k = 1, xx = x + step; k <= reach && xx >= 0 && xx < w; k++, xx += step) {
        const j = y * w + xx;
        if (c.alpha.data[j]! > 0.5) {
          // Between the arm and the new garment: the arm's shaded side.
          if (e <= l.r * 1.5 && (!torso || e <= l.r * 1.25)) {
            paint.data[i] = 1;
            shade.data[i] = 0.8;
          }
          break;
        }
        if (torso && pm[j]! < 0.2) break;
        if (pm[j]! >= 0.2) {
          const q = j * 4;
          if (isSkin(pd[q]!, pd[q + 1]!, pd[q + 2]!)) break;
          continue;
        }
        // Two backdrop pixels further out, averaged (edges of the mask are soft).
        const j2 = y * w + Math.max(0, Math.min(w - 1, xx + step * 2));
        const q = j * 4;
        const q2 = j2 * 4;
        backdrop.set(i, [(pd[q]! + pd[q2]!) / 2, (pd[q + 1]! + pd[q2 + 1]!) / 2, (pd[q + 2]! + pd[q2 + 2]!) / 2]);
        break;
      }
    }
}

export function revealLimbs(c: RevealInput): void {
  if (!c.skin || c.category === 'lower_body') return;
  const inTorso = torsoTest(c.keypoints);
  const { width: w, height: h } = c.image;
  const skin = c.skin;
  const pd = c.person.data;
  const paint = createMap(w, h);
  const shade = createMap(w, h);
  const backdrop = new Map<number, Rgb>();
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
      if (c.personMask.data[i]! < 0.25 || c.alpha.data[i]! > 0.3 || c.hard.data[i]! > 0.3 || inTorso(x, y)) return;
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
      const folds = Math.min(1.1, Math.max(0.88, 1 + (luma(i * 4) / mean - 1) * 0.25));
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
  // Soft edge, and never beyond the person.
  const soft = blurMap(paint, 1, 1);
  const out = c.image.data;
  for (let i = 0; i < w * h; i++) {
    const bg = backdrop.get(i);
    if (bg && !paint.data[i]) {
      // Sleeve beyond the arm, now backdrop (the arm's soft edge is painted over it below).
      const o = i * 4;
      const a = Math.min(1 - c.hard.data[i]!, 1 - c.alpha.data[i]!);
      for (let ch = 0; ch < 3; ch++) out[o + ch] = out[o + ch]! * (1 - a) + bg[ch]! * a;
      if (a > c.alpha.data[i]!) c.alpha.data[i] = a;
    }
    let a = soft.data[i]!;
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
