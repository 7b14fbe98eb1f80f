/**
 * The chest fill: the old top above the new garment's neckline becomes skin, filled in from
 * the skin around it.
 */
import { blurMap, createMap } from './image.js';
import { armSegments, isSkin, KP, nearSegment } from './person.js';
import { backdropAlong, type RevealInput } from './reveal.js';
import { harmonicFill } from './harmonic-fill.js';

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
  // Small changes are the body's relief; large ones are the old top's print and seams, which
  // fade out (as the garment's folds do, composite.ts).
  const relief = (j: number) => {
    const d = lum.data[j]! / local.data[j]! - 1;
    const m = d < 0 ? -d : d;
    const keep = m <= 0.06 ? 1 : m >= 0.15 ? 0 : (0.15 - m) / 0.09;
    return Math.min(1.1, Math.max(0.88, 1 + d * keep * 0.5));
  };
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
