/**
 * The person's arms as shapes with clean outlines: each arm is its pose keypoints' polyline
 * (shoulder → elbow → wrist) with a half-width on each side at every few pixels along it. A
 * half-width is read from the photo by walking out from the axis: to the person mask's edge
 * (the background beside the arm), and on a bare arm to the end of the arm's own skin colour;
 * on a clothed arm, whose edge against a clothed torso cannot be seen, it is the arm's usual
 * width for the body's size. Half-widths are smoothed along the arm, so the outline has no
 * steps: the arm can stand in front of a garment with a clean edge.
 */
import type { FloatMap, RGBAImage } from './image.js';
import { isSkin, KP, type Keypoint } from './person.js';
import type { Point } from './types.js';

interface ArmSample {
  /** On the pose model's arm line, and its unit normal (the same side all along the arm). */
  p: Point;
  n: Point;
  /** The arm's extent across, as signed distances along the normal (lo < hi). */
  lo: number;
  hi: number;
  /** The arm is bare skin here in the photo. */
  bare: boolean;
}

export interface Arm {
  /** Polyline shoulder → elbow (→ wrist). */
  pts: Point[];
  /** Samples every STEP pixels along the polyline, from the shoulder joint. */
  samples: ArmSample[];
  /** Arc length of the upper arm (shoulder → elbow). */
  upper: number;
  /** Share of the samples that are bare skin. */
  bareShare: number;
  /** Mean colour of the arm's bare skin (RGB), when some shows. */
  skin: [number, number, number] | null;
}

const STEP = 2;

/** The usual half-width of an arm at arc length s (upper arm, then forearm), in shoulder widths. */
function usualHalf(s: number, upper: number, total: number): number {
  if (s <= upper) return 0.12 - 0.02 * (s / Math.max(1, upper));
  const t = (s - upper) / Math.max(1, total - upper);
  return 0.09 - 0.025 * Math.min(1, t);
}

function smooth(v: Float32Array, r: number): Float32Array {
  const n = v.length;
  const med = new Float32Array(n);
  const buf: number[] = [];
  for (let i = 0; i < n; i++) {
    buf.length = 0;
    for (let j = Math.max(0, i - r); j <= Math.min(n - 1, i + r); j++) buf.push(v[j]!);
    buf.sort((a, b) => a - b);
    med[i] = buf[buf.length >> 1]!;
  }
  const out = new Float32Array(n);
  const q = Math.max(1, r >> 1);
  for (let i = 0; i < n; i++) {
    let s = 0;
    let c = 0;
    for (let j = Math.max(0, i - q); j <= Math.min(n - 1, i + q); j++) {
      s += med[j]!;
      c++;
    }
    out[i] = s / c;
  }
  return out;
}

/**
 * The path through states 0 … nS − 1 (one per sample) of least total cost, where moving by d
 * states from one sample to the next costs `step` · |d| and at most `reach` states are moved.
 */
function smoothPath(
  n: number,
  nS: number,
  cost: (k: number, s: number) => number,
  step: number,
  reach: number,
): Int32Array {
  const acc = new Float64Array(n * nS);
  const from = new Int32Array(n * nS);
  for (let s = 0; s < nS; s++) acc[s] = cost(0, s);
  for (let k = 1; k < n; k++)
    for (let s = 0; s < nS; s++) {
      let best = Infinity;
      let arg = s;
      for (let q = Math.max(0, s - reach); q <= Math.min(nS - 1, s + reach); q++) {
        const v = acc[(k - 1) * nS + q]! + step * Math.abs(s - q);
        if (v < best) {
          best = v;
          arg = q;
        }
      }
      acc[k * nS + s] = best + cost(k, s);
      from[k * nS + s] = arg;
    }
  const path = new Int32Array(n);
  let bestS = 0;
  for (let s = 1; s < nS; s++) if (acc[(n - 1) * nS + s]! < acc[(n - 1) * nS + bestS]!) bestS = s;
  for (let k = n - 1; k >= 0; k--) {
    path[k] = bestS;
    bestS = from[k * nS + bestS]!;
  }
  return path;
}

/**
 * The arms the pose model sees (elbow score ≥ 0.5; the forearm when the wrist's is too), in
 * the frame of `img` (keypoints in its pixels). The pose model's arm line is often a tenth of
 * a shoulder width off the arm: each cross-section is read from the photo around it. Where the
 * arm is the person's outline (hanging beside the body), its outer edge is the mask's edge and
 * its inner edge the background gap beside the torso, or the end of its skin, or the arm's
 * usual width; elsewhere (an arm across the torso) it is the run of skin on the line, or the
 * usual width around it.
 */
export function armModels(
  img: RGBAImage,
  mask: FloatMap,
  kps: Keypoint[],
  sw: number,
  skinTone: [number, number, number] | null,
): Arm[] {
  const { width: w, height: h } = img;
  const d = img.data;
  const md = mask.data;
  const at = (x: number, y: number) => {
    const xi = Math.round(x);
    const yi = Math.round(y);
    return xi < 0 || yi < 0 || xi >= w || yi >= h ? -1 : yi * w + xi;
  };
  const cx = (kps[KP.leftShoulder]!.x + kps[KP.rightShoulder]!.x + kps[KP.leftHip]!.x + kps[KP.rightHip]!.x) / 4;
  // The person's skin: its chroma and brightness (the face's and hands', else the generic rule).
  const tone = skinTone;
  const tSum = tone ? tone[0] + tone[1] + tone[2] + 1 : 1;
  const skinAt = (i: number) => {
    if (i < 0) return false;
    const r = d[i * 4]!;
    const g = d[i * 4 + 1]!;
    const b = d[i * 4 + 2]!;
    if (!tone) return isSkin(r, g, b);
    const t = r + g + b + 1;
    if (t < tSum * 0.4 || t > tSum * 1.7) return false;
    return Math.abs(r / t - tone[0] / tSum) + Math.abs(g / t - tone[1] / tSum) < 0.055 || isSkin(r, g, b);
  };
  const arms: Arm[] = [];
  for (const [si, ei, wi] of [
    [KP.leftShoulder, KP.leftElbow, KP.leftWrist],
    [KP.rightShoulder, KP.rightElbow, KP.rightWrist],
  ] as const) {
    const S = kps[si]!;
    const E = kps[ei]!;
    const W = kps[wi]!;
    if (S.score < 0.5 || E.score < 0.5) continue;
    const pts: Point[] = [
      { x: S.x, y: S.y },
      { x: E.x, y: E.y },
    ];
    if (W.score >= 0.5) pts.push({ x: W.x, y: W.y });
    const upper = Math.hypot(E.x - S.x, E.y - S.y);
    if (upper < sw * 0.2) continue;
    let total = 0;
    for (let i = 0; i + 1 < pts.length; i++) total += Math.hypot(pts[i + 1]!.x - pts[i]!.x, pts[i + 1]!.y - pts[i]!.y);
    // Points along the polyline, each with its segment's normal.
    const raw: { p: Point; n: Point; s: number }[] = [];
    for (let i = 0, s0 = 0; i + 1 < pts.length; i++) {
      const a = pts[i]!;
      const b = pts[i + 1]!;
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const u = { x: (b.x - a.x) / len, y: (b.y - a.y) / len };
      // Samples at arc lengths k · STEP (sample k is at k · STEP from the shoulder).
      for (let k = Math.ceil(s0 / STEP); k * STEP <= s0 + len; k++) {
        if (k < raw.length) continue;
        const s = k * STEP - s0;
        raw.push({ p: { x: a.x + u.x * s, y: a.y + u.y * s }, n: { x: -u.y, y: u.x }, s: k * STEP });
      }
      s0 += len;
    }
    if (raw.length < 4) continue;
    // Each cross-section's profile outwards from the line (away from the body's centre):
    // the mask, and the colour step at every offset.
    const T0 = -Math.round(sw * 0.16);
    const T1 = Math.round(sw * 0.34);
    const nT = T1 - T0 + 1;
    const maskP = new Float32Array(raw.length * (nT + 4));
    const edgeP = new Float32Array(raw.length * nT);
    const skinP = new Uint8Array(raw.length * nT);
    const outs = new Int8Array(raw.length);
    // Each profile's pixels, offsets T0 - 3 … T1 + 3 (index + 3; -1 outside the photo).
    const idx = new Int32Array(nT + 6);
    raw.forEach(({ p, n }, k) => {
      const out = n.x * (p.x - cx) >= 0 ? 1 : -1;
      outs[k] = out;
      for (let j = -3; j < nT + 3; j++) {
        const t = T0 + j;
        idx[j + 3] = at(p.x + n.x * t * out, p.y + n.y * t * out);
      }
      for (let j = -2; j < nT + 2; j++) {
        const i = idx[j + 3]!;
        maskP[k * (nT + 4) + j + 2] = i < 0 ? 0 : md[i]!;
      }
      for (let j = 0; j < nT; j++) {
        const i = idx[j + 3]!;
        skinP[k * nT + j] = skinAt(i) ? 1 : 0;
        let e = 0;
        for (let ch = 0; ch < 3; ch++) {
          let o = 0;
          let q = 0;
          for (let m = 1; m <= 3; m++) {
            const io = idx[j + 3 + m]!;
            const ii = idx[j + 3 - m]!;
            o += io < 0 ? 0 : d[io * 4 + ch]!;
            q += ii < 0 ? 0 : d[ii * 4 + ch]!;
          }
          e += Math.abs(o - q) / 3;
        }
        edgeP[k * nT + j] = e;
      }
    });
    const M = (k: number, j: number) => maskP[k * (nT + 4) + Math.max(-2, Math.min(nT + 1, j)) + 2]!;
    // The outer edge: where the person ends (the mask falls) or the strongest colour step, a
    // smooth path along the arm (dynamic programming: a step costs its size).
    const outerCost = (k: number, j: number) => {
      // (The person mask is coarse at thin limbs, often inside the arm: the photo's own edge
      // counts more.)
      const drop = Math.max(0, M(k, j - 2) - M(k, j + 2));
      const inside = M(k, j - 4) >= 0.3 ? 0 : 40;
      return -(Math.min(90, edgeP[k * nT + j]!) + 70 * drop) + inside;
    };
    const outer = smoothPath(raw.length, nT, outerCost, 7, 3);
    // The inner edge: the background gap beside the torso (the mask rises outwards) or the
    // strongest colour step, at a width near the arm's usual one.
    const wMin = Math.max(2, Math.round(sw * 0.035));
    const wMax = Math.round(sw * 0.34);
    const nW = wMax - wMin + 1;
    const innerCost = (k: number, q: number) => {
      const width = wMin + q;
      const j = outer[k]! - width;
      if (j < 1) return 500;
      const rise = Math.max(0, M(k, j + 2) - M(k, j - 2));
      const usual = usualHalf(raw[k]!.s, upper, total) * sw * 2;
      return -(Math.min(90, edgeP[k * nT + j]!) + 70 * rise) + Math.abs(width - usual) * 1.2;
    };
    const widths = smoothPath(raw.length, nW, innerCost, 7, 3);
    const lo = new Float32Array(raw.length);
    const hi = new Float32Array(raw.length);
    const bareF = new Float32Array(raw.length);
    raw.forEach((_, k) => {
      const b = T0 + outer[k]! + 0.5;
      const a = b - (wMin + widths[k]!);
      // Bare: most of the cross-section's middle is skin.
      let sk = 0;
      let all = 0;
      for (let t = Math.round(a + (b - a) * 0.25); t <= a + (b - a) * 0.75; t++) {
        const j = t - T0;
        if (j < 0 || j >= nT) continue;
        all++;
        sk += skinP[k * nT + j]!;
      }
      bareF[k] = all && sk >= all * 0.6 ? 1 : 0;
      if (outs[k]! > 0) {
        lo[k] = a;
        hi[k] = b;
      } else {
        lo[k] = -b;
        hi[k] = -a;
      }
    });
    const slo = smooth(lo, 2);
    const shi = smooth(hi, 2);
    // Bare or clothed by the majority of the neighbouring cross-sections (no flicker).
    const bareS = smooth(bareF, 3);
    const samples: ArmSample[] = raw.map(({ p, n }, k) => ({
      p,
      n,
      lo: Math.min(slo[k]!, shi[k]! - 2),
      hi: shi[k]!,
      bare: bareS[k]! >= 0.5,
    }));
    // The arm's own skin colour, in the middle of its bare cross-sections.
    let sr = 0;
    let sg = 0;
    let sb = 0;
    let sn = 0;
    for (const q of samples) {
      if (!q.bare) continue;
      const i = at(q.p.x + q.n.x * (q.lo + q.hi) * 0.5, q.p.y + q.n.y * (q.lo + q.hi) * 0.5);
      if (i < 0 || !skinAt(i)) continue;
      sr += d[i * 4]!;
      sg += d[i * 4 + 1]!;
      sb += d[i * 4 + 2]!;
      sn++;
    }
    const skin: [number, number, number] | null = sn >= 15 ? [sr / sn, sg / sn, sb / sn] : null;
    arms.push({ pts, samples, upper, bareShare: samples.filter((q) => q.bare).length / samples.length, skin });
  }
  return arms;
}

export interface ArmRaster {
  /** Arm coverage 0..1 from `fromUpper` of the way down the upper arm (soft at its outline). */
  alpha: FloatMap;
  /** Across the arm: −1 … 1 (the normal's side positive), where alpha > 0. */
  across: Float32Array;
  /** Which arm (index + 1) and its sample, where alpha > 0. */
  arm: Uint8Array;
  sample: Uint16Array;
  /** The box of the non-zero pixels (x1 < 0 when none). */
  box: { x0: number; y0: number; x1: number; y1: number };
}

/**
 * The arms drawn into a w×h frame: each pixel's nearest sample, its side's half-width, a
 * one-pixel soft outline. The arm starts `fromUpper` of the way down the upper arm (a ramp of
 * a few pixels: the shoulder above belongs to the torso) and ends a little past the wrist.
 */
export function rasterArms(arms: Arm[], w: number, h: number, fromUpper: number): ArmRaster {
  const alpha: FloatMap = { width: w, height: h, data: new Float32Array(w * h) };
  const across = new Float32Array(w * h);
  const armId = new Uint8Array(w * h);
  const sample = new Uint16Array(w * h);
  const box = { x0: w, y0: h, x1: -1, y1: -1 };
  arms.forEach((arm, ai) => {
    const ss = arm.samples;
    let rMax = 0;
    let bx0 = Infinity;
    let by0 = Infinity;
    let bx1 = -Infinity;
    let by1 = -Infinity;
    for (const s of ss) {
      rMax = Math.max(rMax, Math.abs(s.lo), Math.abs(s.hi));
      bx0 = Math.min(bx0, s.p.x);
      by0 = Math.min(by0, s.p.y);
      bx1 = Math.max(bx1, s.p.x);
      by1 = Math.max(by1, s.p.y);
    }
    const x0 = Math.max(0, Math.floor(bx0 - rMax - 2));
    const y0 = Math.max(0, Math.floor(by0 - rMax - 2));
    const x1 = Math.min(w - 1, Math.ceil(bx1 + rMax + 2));
    const y1 = Math.min(h - 1, Math.ceil(by1 + rMax + 2));
    const start = arm.upper * fromUpper;
    const ramp = 3;
    const last = (ss.length - 1) * STEP;
    // The polyline's segments: start, direction, length and arc length at the start (the same
    // figures for every pixel, so worked out once).
    const segs = arm.pts.length - 1;
    const seg = new Float64Array(Math.max(0, segs) * 6);
    for (let i = 0, s0 = 0; i < segs; i++) {
      const a = arm.pts[i]!;
      const b = arm.pts[i + 1]!;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      seg.set([a.x, a.y, dx, dy, len, s0], i * 6);
      s0 += len;
    }
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        // The nearest point on the polyline (its arc length and signed distance).
        let best = Infinity;
        let bs = 0;
        let bd = 0;
        for (let j = 0; j < segs * 6; j += 6) {
          const ax = seg[j]!;
          const ay = seg[j + 1]!;
          const dx = seg[j + 2]!;
          const dy = seg[j + 3]!;
          const len = seg[j + 4]!;
          let t = ((x - ax) * dx + (y - ay) * dy) / (len * len);
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ex = x - ax - t * dx;
          const ey = y - ay - t * dy;
          const e2 = ex * ex + ey * ey;
          if (e2 < best) {
            best = e2;
            bs = seg[j + 5]! + t * len;
            bd = (ex * -dy + ey * dx) / len;
          }
        }
        const k = Math.min(ss.length - 1, Math.max(0, Math.round(bs / STEP)));
        const s = ss[k]!;
        const half = (s.hi - s.lo) / 2;
        const mid = (s.hi + s.lo) / 2;
        let a: number;
        let dd = bd;
        if (bs <= 0) {
          // Above the shoulder joint the arm is round: a disc about the first cross-section's middle.
          if (start > 0) continue;
          const c = { x: s.p.x + s.n.x * mid, y: s.p.y + s.n.y * mid };
          a = half - Math.hypot(x - c.x, y - c.y) + 0.5;
          dd = mid + ((x - c.x) * s.n.x + (y - c.y) * s.n.y);
        } else {
          if (bs >= last) dd = Math.sqrt(best) * (bd < 0 ? -1 : 1);
          a = Math.min(dd - s.lo, s.hi - dd) + 0.5;
        }
        if (a <= 0) continue;
        if (a > 1) a = 1;
        if (start > 0 && bs < start + ramp) a *= Math.max(0, (bs - start) / ramp);
        // A little past the wrist (an old cuff reaches over it; the hand stays the photo's).
        if (bs > last + half * 1.6) continue;
        if (a <= 0) continue;
        const i = y * w + x;
        if (a > alpha.data[i]!) {
          alpha.data[i] = a;
          across[i] = Math.max(-1, Math.min(1, (dd - mid) / Math.max(1, half)));
          armId[i] = ai + 1;
          sample[i] = k;
          if (x < box.x0) box.x0 = x;
          if (x > box.x1) box.x1 = x;
          if (y < box.y0) box.y0 = y;
          if (y > box.y1) box.y1 = y;
        }
      }
  });
  return { alpha, across, arm: armId, sample, box };
}

/**
 * An arm's centre line as read: the middles of its cross-sections at the elbow and the end, and
 * the shoulder joint moved across as much as the upper arm's cross-section a quarter down it is
 * (the shoulder's own cross-section is the torso's as much as the arm's).
 */
export function armLine(arm: Arm): [Point, Point, Point] {
  const mid = (k: number) => {
    const q = arm.samples[Math.max(0, Math.min(arm.samples.length - 1, k))]!;
    const m = (q.lo + q.hi) / 2;
    return { q, p: { x: q.p.x + q.n.x * m, y: q.p.y + q.n.y * m } };
  };
  const e = Math.round(arm.upper / STEP);
  const quarter = mid(Math.round(e * 0.25));
  const s = arm.pts[0]!;
  const shoulder = { x: s.x + quarter.p.x - quarter.q.p.x, y: s.y + quarter.p.y - quarter.q.p.y };
  const elbow = mid(e).p;
  const wrist =
    arm.pts.length > 2
      ? mid(arm.samples.length - 1).p
      : { x: elbow.x + (elbow.x - shoulder.x) * 0.9, y: elbow.y + (elbow.y - shoulder.y) * 0.9 };
  return [shoulder, elbow, wrist];
}

/** The same arms, moved by (dx, dy) (into a crop's frame). */
export function shiftArms(arms: Arm[], dx: number, dy: number): Arm[] {
  const mv = (p: Point) => ({ x: p.x + dx, y: p.y + dy });
  return arms.map((a) => ({ ...a, pts: a.pts.map(mv), samples: a.samples.map((q) => ({ ...q, p: mv(q.p) })) }));
}
