/**
 * The garment body on the person's own outline. Row by row over the torso, where the person
 * (the old clothes) reaches beyond the warped garment body's side, the garment's side is
 * stretched out to the person's outline (or to an arm in front of it): its outer band is
 * resampled wider, so the side seam moves with its own texture, and nothing of the old top is
 * left beside it. Then the garment is cut to the person's outline, except below the waist of a
 * garment that flares there (its own shape is loose).
 */
import type { FloatMap } from './image.js';
import type { Layer } from './warp-parts.js';
import { meanFilter, medianFilter } from './cover.js';

export interface TorsoFillInput {
  body: Layer;
  personMask: FloatMap;
  /** 0..1: arms in front of the torso (the garment stops at them: they are drawn over it). */
  front: Float32Array;
  hard: FloatMap;
  sw: number;
  /** The body's centre line (x at row y). */
  centreAt: (y: number) => number;
  /** Rows to stretch (inclusive). */
  y0: number;
  y1: number;
  /** The old clothes' colours: their pixels count as the person's even where its mask misses them. */
  oldCloth: ((i: number) => boolean) | null;
}

const NO = -1;

/** Stretches the garment body's sides out to the person's outline; returns the pixels added. */
export function stretchToOutline(c: TorsoFillInput): number {
  const { width: w, height: h } = c.body.image;
  const al = c.body.alpha.data;
  const id = c.body.image.data;
  const md = c.personMask.data;
  const hd = c.hard.data;
  const y0 = Math.max(0, Math.ceil(c.y0));
  const y1 = Math.min(h - 1, Math.floor(c.y1));
  if (y1 < y0) return 0;
  const n = y1 - y0 + 1;
  const cap = Math.max(2, Math.round(c.sw * 0.3));
  const solid = Math.max(3, Math.round(c.sw * 0.1));
  const L = new Int32Array(n).fill(NO);
  const R = new Int32Array(n).fill(NO);
  const extL = new Int32Array(n).fill(NO);
  const extR = new Int32Array(n).fill(NO);
  const open = (i: number) =>
    (md[i]! >= 0.5 || (md[i]! >= 0.05 && c.oldCloth !== null && c.oldCloth(i))) && c.front[i]! < 0.5 && hd[i]! < 0.5;
  for (let y = y0; y <= y1; y++) {
    const row = y * w;
    let l = -1;
    let r = -1;
    for (let x = 0; x < w; x++)
      if (al[row + x]! >= 0.5) {
        l = x;
        break;
      }
    if (l < 0) continue;
    for (let x = w - 1; x >= l; x--)
      if (al[row + x]! >= 0.5) {
        r = x;
        break;
      }
    const j = y - y0;
    L[j] = l;
    R[j] = r;
    const cx = c.centreAt(y);
    for (const dir of [-1, 1] as const) {
      const start = dir < 0 ? l : r;
      // Only a solid side facing outwards (not a strap, not a sliver).
      let run = 0;
      for (let x = start; x >= l && x <= r && run < solid && al[row + x]! >= 0.5; x -= dir) run++;
      let ext = 0;
      if (run >= solid && (start - cx) * dir >= c.sw * 0.2) {
        let k = 0;
        let ended = false;
        for (let x = start + dir; x >= 0 && x < w && k < cap; x += dir, k++)
          if (!open(row + x)) {
            ended = true;
            break;
          }
        // Old clothes much wider than the garment (a coat) are not a sliver beside it.
        ext = ended ? k : 0;
      }
      if (dir < 0) extL[j] = ext;
      else extR[j] = ext;
    }
  }
  // A smooth outline: each side's extension follows its neighbouring rows.
  const sr = Math.max(2, Math.round(c.sw * 0.04));
  const smooth = (e: Int32Array) => meanFilter(medianFilter(e, sr, NO), sr >> 1, NO);
  const sL = smooth(extL);
  const sR = smooth(extR);
  let added = 0;
  const rowRgb = new Float32Array(w * 3);
  const rowA = new Float32Array(w);
  for (let j = 0; j < n; j++) {
    const l = L[j]!;
    if (l === NO) continue;
    const r = R[j]!;
    const y = y0 + j;
    const row = y * w;
    for (let x = l; x <= r; x++) {
      rowA[x] = al[row + x]!;
      for (let ch = 0; ch < 3; ch++) rowRgb[x * 3 + ch] = id[(row + x) * 4 + ch]!;
    }
    const band = Math.max(3, Math.round((r - l) * 0.15));
    for (const [dir, e] of [
      [-1, sL[j]!],
      [1, sR[j]!],
    ] as const) {
      if (e === NO || e <= 0) continue;
      const start = dir < 0 ? l : r;
      const inner = start - dir * band;
      const target = start + dir * e;
      // Destination [target … inner] takes the source band [start … inner], stretched.
      const span = (inner - target) * -dir;
      for (let k = 0; k <= span; k++) {
        const x = target - dir * k;
        if (x < 0 || x >= w) continue;
        const i = row + x;
        if (x !== start && (x - start) * dir > 0 && !open(i)) continue;
        const sx = start - dir * ((k * band) / Math.max(1, span));
        const xa = Math.floor(sx);
        const xb = Math.min(r, xa + 1);
        const f = sx - xa;
        const a = rowA[xa]! * (1 - f) + rowA[xb]! * f;
        if ((x - start) * dir > 0) added++;
        al[i] = Math.max(al[i]!, a);
        for (let ch = 0; ch < 3; ch++) id[i * 4 + ch] = rowRgb[xa * 3 + ch]! * (1 - f) + rowRgb[xb * 3 + ch]! * f;
      }
    }
  }
  return added;
}

/**
 * The garment cut to the person's outline (its soft edge): above `looseFromY` everywhere, below
 * it only when the garment flares there, and then no further than its own shape and a little
 * beyond the person.
 */
export function clipToOutline(
  alpha: FloatMap,
  personMask: FloatMap,
  looseFromY: number,
  reach: Float32Array | null,
): void {
  const { width: w, height: h } = alpha;
  const ad = alpha.data;
  const md = personMask.data;
  const yl = Math.max(0, Math.min(h, Math.round(looseFromY)));
  for (let y = 0; y < h; y++)
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const a = ad[i]!;
      if (a <= 0) continue;
      const m = md[i]!;
      // The mask's soft edge is the outline (a pixel or two).
      let k = m >= 0.65 ? 1 : m <= 0.35 ? 0 : (m - 0.35) / 0.3;
      if (y >= yl && reach) k = Math.max(k, Math.min(1, reach[i]! * 8));
      if (k < 1) ad[i] = a * k;
    }
}
