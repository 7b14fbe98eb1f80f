/**
 * Reducing the old garment where the new one leaves the body bare: an old long sleeve
 * below a new short sleeve or beside a sleeveless top or dress. Those arm parts are
 * repainted in the person's own skin tone (sampled from the face and hands), shaded as a
 * round limb is, with a little of the photo's light and folds; the old sleeve beyond the
 * arm's side becomes the backdrop beside it.
 */
import { blurRect, createMap, type FloatMap } from './image.js';
import { isSkin, KP, type Keypoint } from './person.js';
import { backdropAlong, GARMENT, type RevealInput } from './reveal.js';
import type { Point } from './types.js';

/** The box of the painted pixels (grown as they are painted; x1 < 0 while none is). */
interface PaintedBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function grow(box: PaintedBox, x: number, y: number): void {
  if (x < box.x0) box.x0 = x;
  if (x > box.x1) box.x1 = x;
  if (y < box.y0) box.y0 = y;
  if (y > box.y1) box.y1 = y;
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
  painted: PaintedBox,
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
          grow(painted, x, y);
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

/** A capsule's box in the image, and what the distance to its axis needs. */
function capsule(l: Limb, w: number, h: number) {
  const dx = l.b.x - l.a.x;
  const dy = l.b.y - l.a.y;
  return {
    x0: Math.max(0, Math.floor(Math.min(l.a.x, l.b.x) - l.r)),
    x1: Math.min(w - 1, Math.ceil(Math.max(l.a.x, l.b.x) + l.r)),
    y0: Math.max(0, Math.floor(Math.min(l.a.y, l.b.y) - l.r)),
    y1: Math.min(h - 1, Math.ceil(Math.max(l.a.y, l.b.y) + l.r)),
    dx,
    dy,
    l2: dx * dx + dy * dy || 1e-6,
    r2: l.r * l.r,
  };
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
  const luma = (o: number) => 0.299 * pd[o]! + 0.587 * pd[o + 1]! + 0.114 * pd[o + 2]! + 4;
  const painted: PaintedBox = { x0: w, y0: h, x1: -1, y1: -1 };
  for (const l of arms(c.keypoints, c.sw)) {
    const cells: number[] = [];
    const across: number[] = [];
    let skinCount = 0;
    let lum = 0;
    const sleeve = [0, 0, 0];
    // The limb's capsule, row by row (its box; a pixel within l.r of the axis).
    {
      const { x0, x1, y0, y1, dx, dy, l2, r2 } = capsule(l, w, h);
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const t = Math.max(0, Math.min(1, ((x - l.a.x) * dx + (y - l.a.y) * dy) / l2));
          const ex = x - (l.a.x + t * dx);
          const ey = y - (l.a.y + t * dy);
          const e2 = ex * ex + ey * ey;
          if (e2 > r2) continue;
          const i = y * w + x;
          if (pm[i]! < 0.25 || al[i]! > 0.3 || hd[i]! > 0.3 || inTorso(x, y)) continue;
          const o = i * 4;
          const r = pd[o]!;
          const g = pd[o + 1]!;
          const b = pd[o + 2]!;
          if (isSkin(r, g, b) || near(r, g, b)) {
            skinCount++;
            continue;
          }
          cells.push(i);
          across.push(Math.sqrt(e2) / l.r);
          lum += luma(o);
          sleeve[0]! += r;
          sleeve[1]! += g;
          sleeve[2]! += b;
        }
    }
    const total = cells.length + skinCount;
    // Too little uncovered, or already bare.
    if (cells.length < 30 || skinCount >= total * 0.5) continue;
    const mean = lum / cells.length;
    const paintAt = (i: number, t: number) => {
      paint.data[i] = 1;
      grow(painted, i % w, (i / w) | 0);
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
    fillBeyond(c, l, paint, shade, backdrop, inTorso, painted);
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
    {
      const { x0, x1, y0, y1, dx, dy, l2, r2 } = capsule(ext, w, h);
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const t = Math.max(0, Math.min(1, ((x - ext.a.x) * dx + (y - ext.a.y) * dy) / l2));
          const ex = x - (ext.a.x + t * dx);
          const ey = y - (ext.a.y + t * dy);
          const e2 = ex * ex + ey * ey;
          if (e2 > r2) continue;
          const i = y * w + x;
          if (paint.data[i] || c.personMask.data[i]! < 0.25 || c.alpha.data[i]! > 0.3) continue;
          const o = i * 4;
          if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!) || near(pd[o]!, pd[o + 1]!, pd[o + 2]!)) continue;
          if (Math.abs(pd[o]! - sr) + Math.abs(pd[o + 1]! - sg) + Math.abs(pd[o + 2]! - sb) > 50) continue;
          cuff[i] = 1;
          paintAt(i, Math.sqrt(e2) / ext.r);
        }
    }
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
  let { x0: bx0, y0: by0, x1: bx1, y1: by1 } = painted;
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
