/**
 * Covering what is left of the old top: where the person's old clothes show beside the
 * fitted garment on the torso rows (an old top wider than the new one, at the sides and,
 * for sleeved garments, at the shoulders), the garment layer is widened row by row to the
 * old clothes' visible extent. The new pixels take the garment's own texture, mirrored at
 * its edge, so its silhouette follows the body's clothing width. The old clothes are told
 * by their colours (what the garment already covers of them); skin, arms, face, hair and
 * hands are never covered, nor other clothes (trousers beside the hem). Only a solid,
 * outward-facing edge is widened (not a strap, not a garment in pieces), only where the old
 * clothes end within 0.3 shoulder widths, and the widened outline is smoothed over rows.
 * Narrow gaps at the torso's sides that show only the old clothes (between a sleeve and
 * the body) are filled with the texture of the body's side. For trousers (`legs`), only the
 * gap between the legs is filled, where it shows only the old clothes, each half from its leg.
 */
import type { FloatMap, RGBAImage } from './image.js';
import { armSegments, isSkin, KP, nearSegment, type Keypoint } from './person.js';

export interface CoverInput {
  /** The composite (modified in place). */
  image: RGBAImage;
  /** Its final alpha (raised in place where the garment is widened). */
  alpha: FloatMap;
  /** The original photo and person mask (same frame). */
  person: RGBAImage;
  personMask: FloatMap;
  /** Face, hair, neck and hands; bare arms in front of the torso. */
  hard: FloatMap;
  arms: FloatMap;
  keypoints: Keypoint[];
  sw: number;
  /** Torso rows to work on (inclusive). */
  y0: number;
  y1: number;
  /** Above this row the garment is not widened outwards (a sleeveless top leaves the shoulders to the arms). */
  outwardFromY: number;
  /** The person's skin tone (face and hands), when known. */
  skin: [number, number, number] | null;
  /**
   * Trousers: not widened outwards (their legs are fitted to the person's width already), but
   * the gap between the legs is filled where it shows only the old clothes (a skirt or a dress
   * between the thighs), each half from its own leg.
   */
  legs?: boolean;
}

const BITS = 4;
const LEVELS = 1 << BITS;
/** A colour's bin in the old clothes' histogram (`clothColours`). */
export const bin = (r: number, g: number, b: number) =>
  (((r >> (8 - BITS)) * LEVELS + (g >> (8 - BITS))) * LEVELS + (b >> (8 - BITS))) | 0;

/**
 * The old clothes' colours: a coarse histogram of the photo under the fitted garment (what
 * it already covers there is the old top), each bin summed with its neighbours so that the
 * same cloth in light or shadow still matches. Returns the share per bin.
 */
export function clothColours(
  pd: Uint8ClampedArray,
  take: (i: number) => boolean,
  w: number,
  y0: number,
  y1: number,
): Float32Array | null {
  const hist = new Float32Array(LEVELS * LEVELS * LEVELS);
  let n = 0;
  // Every other pixel of every other row is plenty for a colour histogram.
  for (let y = y0; y <= y1; y += 2)
    for (let x = 0, i = y * w; x < w; x += 2, i += 2) {
      if (!take(i)) continue;
      const o = i * 4;
      hist[bin(pd[o]!, pd[o + 1]!, pd[o + 2]!)]!++;
      n++;
    }
  if (n < 20) return null;
  // Each bin summed with its neighbours: a 3×3×3 box, one axis at a time.
  let a = hist;
  for (const stride of [1, LEVELS, LEVELS * LEVELS]) {
    const b = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const c = ((i / stride) | 0) % LEVELS;
      b[i] = a[i]! + (c > 0 ? a[i - stride]! : 0) + (c < LEVELS - 1 ? a[i + stride]! : 0);
    }
    a = b;
  }
  const out = a;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / n;
  return out;
}

/**
 * Arm capsules (from a fifth of the way down the upper arm, then the forearm) on rows
 * y0..y1 of a w-wide frame, as a mask (row-major from y0): never covered.
 */
function armMask(k: Keypoint[], r: number, w: number, y0: number, y1: number): Uint8Array {
  const out = new Uint8Array((y1 - y0 + 1) * w);
  const r2 = r * r;
  for (const seg of armSegments(k, 0.2)) {
    const [ax, ay, bx, by] = seg;
    const ya = Math.max(y0, Math.floor(Math.min(ay, by) - r));
    const yb = Math.min(y1, Math.ceil(Math.max(ay, by) + r));
    const xa = Math.max(0, Math.floor(Math.min(ax, bx) - r));
    const xb = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + r));
    for (let y = ya; y <= yb; y++)
      for (let x = xa; x <= xb; x++) if (nearSegment(seg, r2, x, y)) out[(y - y0) * w + x] = 1;
  }
  return out;
}

const NO = -1 << 30;
/** Median of a window of an Int32Array, ignoring entries that are `none` (NO unless given); `none` where v[i] is. */
export function medianFilter(v: Int32Array, r: number, none = NO): Int32Array {
  const out = new Int32Array(v.length).fill(none);
  const buf: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if (v[i] === none) continue;
    buf.length = 0;
    for (let j = Math.max(0, i - r); j <= Math.min(v.length - 1, i + r); j++) if (v[j] !== none) buf.push(v[j]!);
    buf.sort((a, b) => a - b);
    out[i] = buf[buf.length >> 1]!;
  }
  return out;
}

/** Rounded mean of a window, ignoring `none` entries as medianFilter does: steps between rows become slopes. */
export function meanFilter(v: Int32Array, r: number, none = NO): Int32Array {
  const out = new Int32Array(v.length).fill(none);
  for (let i = 0; i < v.length; i++) {
    if (v[i] === none) continue;
    let s = 0;
    let n = 0;
    for (let j = Math.max(0, i - r); j <= Math.min(v.length - 1, i + r); j++)
      if (v[j] !== none) {
        s += v[j]!;
        n++;
      }
    out[i] = Math.round(s / n);
  }
  return out;
}

/** Returns the number of pixels covered. */
export function coverRemnant(c: CoverInput): number {
  const { width: w, height: h } = c.image;
  const y0 = Math.max(0, Math.ceil(c.y0));
  const y1 = Math.min(h - 1, Math.floor(c.y1));
  if (y1 < y0) return 0;
  const n = y1 - y0 + 1;
  const al = c.alpha.data;
  const pm = c.personMask.data;
  const hd = c.hard.data;
  const am = c.arms.data;
  const pd = c.person.data;
  const od = c.image.data;
  const arm = armMask(c.keypoints, Math.max(2, c.sw * 0.14), w, y0, y1);
  const inArm = (x: number, y: number) => arm[(y - y0) * w + x] === 1;
  const skin = c.skin;
  const skinLike = (o: number) =>
    skin
      ? Math.abs(pd[o]! - skin[0]) + Math.abs(pd[o + 1]! - skin[1]) + Math.abs(pd[o + 2]! - skin[2]) < 70
      : isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!);
  const body = (i: number) => pm[i]! >= 0.5 && hd[i]! <= 0.3 && !skinLike(i * 4);
  const cloth = clothColours(pd, (i) => al[i]! >= 0.9 && am[i]! <= 0.3 && body(i), w, y0, y1);
  if (!cloth) return 0;
  const edge = Math.max(3, Math.round(c.sw * 0.03));
  /**
   * A pixel the garment may take: the old clothes (their colours), not skin, face, hair,
   * hands or an arm. Within a few pixels of the garment's edge the arms' soft margin does
   * not count: there it only fades the garment over the old top beside a bare arm.
   */
  const open = (i: number, x: number, y: number, fromEdge: number) =>
    body(i) && (fromEdge <= edge || (am[i]! <= 0.3 && !inArm(x, y)));
  const free = (i: number, x: number, y: number, fromEdge: number) => {
    if (!open(i, x, y, fromEdge)) return false;
    const o = i * 4;
    return cloth[bin(pd[o]!, pd[o + 1]!, pd[o + 2]!)]! >= 0.01;
  };
  const maxExt = Math.max(2, Math.round(c.sw * 0.3));
  const k = c.keypoints;
  const sx = (k[KP.leftShoulder]!.x + k[KP.rightShoulder]!.x) / 2;
  const sy = (k[KP.leftShoulder]!.y + k[KP.rightShoulder]!.y) / 2;
  const hx = (k[KP.leftHip]!.x + k[KP.rightHip]!.x) / 2;
  const hy = (k[KP.leftHip]!.y + k[KP.rightHip]!.y) / 2;
  const centreAt = (y: number) => sx + ((hx - sx) * (y - sy)) / Math.max(1, hy - sy);
  // Only a solid edge is widened, not a strap or a fragment.
  const solid = Math.max(3, Math.round(c.sw * 0.1));
  const L = new Int32Array(n).fill(NO);
  const R = new Int32Array(n).fill(NO);
  const reachL = new Int32Array(n).fill(NO);
  const reachR = new Int32Array(n).fill(NO);
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
    if (y < c.outwardFromY || c.legs) {
      reachL[j] = l;
      reachR[j] = r;
      continue;
    }
    // Only a row the garment mostly fills (not two straps, not a garment in pieces), and
    // only outwards from the body's centre line.
    let filled = 0;
    for (let x = l; x <= r; x++) if (al[row + x]! >= 0.5) filled++;
    const cx = centreAt(y);
    const mostly = filled >= (r - l + 1) * 0.6;
    // Outwards through the old clothes, over at most two pixels of anything else (a soft edge).
    for (const dir of [-1, 1]) {
      const start = dir < 0 ? l : r;
      let reach = start;
      let run = 0;
      for (let x = start; x >= l && x <= r && run < solid && al[row + x]! >= 0.5; x -= dir) run++;
      // ... and solid up and down too (not a thin band of a garment that broke apart).
      const probe = start - dir * 2;
      let tall = run >= solid && probe >= 0 && probe < w;
      for (let dy = -(solid >> 1); tall && dy <= solid >> 1; dy++) {
        const yy = y + dy;
        if (yy >= 0 && yy < h && al[yy * w + probe]! < 0.5) tall = false;
      }
      if (!tall || !mostly || (start - cx) * dir < c.sw * 0.25) {
        if (dir < 0) reachL[j] = start;
        else reachR[j] = start;
        continue;
      }
      let miss = 0;
      let ended = false;
      for (let x = start + dir; x >= 0 && x < w && Math.abs(x - start) <= maxExt; x += dir) {
        if (free(row + x, x, y, Math.abs(x - start))) {
          reach = x;
          miss = 0;
        } else if (++miss > 2) {
          ended = true;
          break;
        }
      }
      // Old clothes much wider than the garment (a coat, a loose shirt) are not a sliver
      // at its edge: widening part of the way would only draw a block on them.
      if (!ended && Math.abs(reach - start) >= maxExt - 2) reach = start;
      // The old clothes must end at something the garment would not cover anyway (the
      // background, skin, an arm); ending at other clothes (trousers, a print, a bag) the
      // widened edge would stand as a block on them.
      const stop = reach + dir;
      if (ended && stop >= 0 && stop < w && reach !== start) {
        const i = row + stop;
        const other = body(i) && am[i]! <= 0.3 && !inArm(stop, y);
        if (other) reach = start;
      }
      if (dir < 0) reachL[j] = reach;
      else reachR[j] = reach;
    }
  }
  // Smooth outline: the widened edge follows the median of its neighbouring rows.
  const sr = Math.max(2, Math.round(c.sw * 0.04));
  const outline = (reach: Int32Array, edge: Int32Array, dir: number) => {
    // How far each row reaches out (0: not widened); a row is widened only where most of its
    // neighbours are too, and the widened outline is a running mean of theirs.
    const ext = new Int32Array(n).fill(NO);
    for (let j = 0; j < n; j++) if (edge[j] !== NO) ext[j] = (reach[j]! - edge[j]!) * dir;
    const m = medianFilter(ext, sr);
    const target = new Int32Array(n).fill(NO);
    for (let j = 0; j < n; j++)
      if (m[j] !== NO && m[j]! > 0) target[j] = ext[j]! > 0 ? reach[j]! : edge[j]! + dir * m[j]!;
    const out = meanFilter(target, sr >> 1);
    for (let j = 0; j < n; j++)
      if (out[j] !== NO) out[j] = edge[j]! + dir * Math.min(maxExt, Math.max(0, (out[j]! - edge[j]!) * dir));
    return out;
  };
  const edgeL = outline(reachL, L, -1);
  const edgeR = outline(reachR, R, 1);
  const gapMax = Math.max(2, Math.round(c.sw * 0.2));
  // Mark first (pixel → the garment pixel whose colour it takes), contiguous from the
  // garment's edge so that nothing lands beyond a gap.
  const from = new Int32Array(n * w).fill(-1);
  for (let y = y0; y <= y1; y++) {
    const j = y - y0;
    const l = L[j]!;
    const r = R[j]!;
    if (l === NO) continue;
    const row = y * w;
    // The garment's own texture, mirrored about a column a little inside its edge.
    const inner = (x: number, edge: number, dir: number) => {
      const pivot = edge - dir * 2;
      let xs = pivot - dir * Math.abs(x - pivot);
      xs = Math.max(l, Math.min(r, xs));
      if (al[row + xs]! < 0.9) xs = Math.max(l, Math.min(r, pivot));
      return row + xs;
    };
    const el = edgeL[j]!;
    const er = edgeR[j]!;
    if (el !== NO && el < l)
      for (let x = l - 1; x >= el; x--) {
        const i = row + x;
        if (al[i]! >= 0.5) continue;
        if (!open(i, x, y, l - x)) break;
        from[j * w + x] = inner(x, l, -1);
      }
    if (er !== NO && er > r)
      for (let x = r + 1; x <= er; x++) {
        const i = row + x;
        if (al[i]! >= 0.5) continue;
        if (!open(i, x, y, x - r)) break;
        from[j * w + x] = inner(x, r, 1);
      }
    // Narrow gaps inside the garment at the torso's sides (between a sleeve and the body):
    // filled when they show only the old clothes, with the texture of the body's side.
    if (y < c.outwardFromY) continue;
    const cx = centreAt(y);
    for (let x = l + 1; x < r; x++) {
      if (al[row + x]! >= 0.5) continue;
      let e = x;
      while (e < r && al[row + e]! < 0.5) e++;
      const g0 = x;
      const g1 = e - 1;
      x = e;
      const central = Math.min(Math.abs(g0 - cx), Math.abs(g1 - cx)) < c.sw * 0.25 || (g0 <= cx && g1 >= cx);
      if (g1 - g0 + 1 > gapMax || central !== !!c.legs) continue;
      let ok = true;
      for (let q = g0; q <= g1 && ok; q++) ok = free(row + q, q, y, Infinity) || q - g0 < 2 || g1 - q < 2;
      if (!ok) continue;
      if (central) {
        // Between the legs: each half mirrors the leg beside it.
        const m = (g0 + g1) >> 1;
        for (let q = g0; q <= g1; q++) from[j * w + q] = q <= m ? inner(q, g0 - 1, 1) : inner(q, g1 + 1, -1);
        continue;
      }
      // The body's side is the one towards the centre line.
      const toCentre = g0 < cx ? 1 : -1;
      const edgeX = toCentre > 0 ? g1 + 1 : g0 - 1;
      for (let q = g0; q <= g1; q++) from[j * w + q] = inner(q, edgeX, -toCentre);
    }
  }
  // Clean outline: a marked pixel needs the garment or a marked pixel above and below it
  // (no streaks one or two rows thick).
  const on = (j: number, x: number) => j >= 0 && j < n && (from[j * w + x]! >= 0 || al[(y0 + j) * w + x]! >= 0.5);
  const keep = new Uint8Array(n * w);
  for (let j = 0; j < n; j++)
    for (let x = 0; x < w; x++) if (from[j * w + x]! >= 0 && on(j - 1, x) && on(j + 1, x)) keep[j * w + x] = 1;
  let covered = 0;
  for (let j = 0; j < n; j++)
    for (let x = 0; x < w; x++) {
      const q = j * w + x;
      if (!keep[q]) continue;
      const i = (y0 + j) * w + x;
      // The outermost pixel of a widened edge is half covered (a soft edge).
      const rim = (x > 0 && !keep[q - 1] && al[i - 1]! < 0.5) || (x < w - 1 && !keep[q + 1] && al[i + 1]! < 0.5);
      const a = rim ? 0.6 : 1;
      const o = i * 4;
      const f = from[q]! * 4;
      const k = 1 - a;
      od[o] = od[o]! * k + od[f]! * a;
      od[o + 1] = od[o + 1]! * k + od[f + 1]! * a;
      od[o + 2] = od[o + 2]! * k + od[f + 2]! * a;
      if (a > al[i]!) al[i] = a;
      covered++;
    }
  return covered;
}
