/**
 * The person's light for a garment laid over them: a factor per pixel by which the garment's
 * own colour is multiplied. It is read from the old clothes' main colour only (their print,
 * their other colours, skin and the background say nothing of the light): the broad luminance
 * there (folds of the body, the darker side away from the light) relative to its mean over the
 * garment, and the small folds on top of it. The old clothes' edges and prints are large
 * changes and are not carried.
 */
import { blurRect, type FloatMap, type RGBAImage } from './image.js';
import { isSkin } from './person.js';

export interface LightInput {
  person: RGBAImage;
  personMask: FloatMap;
  /** Where the garment will be (its alpha): the colour is read under it, the mean over it. */
  cover: FloatMap;
  /** Face, hair and hands: not clothes. */
  hard: FloatMap;
  /** The body's size (shoulder width). */
  sw: number;
}

/** Strength of the broad light and its limits, and of the small folds. */
const BROAD = 0.85;
const BROAD_MIN = 0.62;
const BROAD_MAX = 1.2;
const FOLDS = 0.6;

/**
 * The old clothes' main colour under the garment: the mean of the fullest bin of a coarse
 * chroma histogram (shading moves luminance, not chroma), or null without clothes there.
 */
function mainColour(c: LightInput): [number, number, number] | null {
  const pd = c.person.data;
  const md = c.personMask.data;
  const cd = c.cover.data;
  const hd = c.hard.data;
  const B = 24;
  const count = new Float32Array(B * B);
  const sum = new Float32Array(B * B * 3);
  const n = md.length;
  for (let i = 0; i < n; i += 3) {
    if (cd[i]! < 0.5 || md[i]! < 0.5 || hd[i]! > 0.3) continue;
    const o = i * 4;
    const r = pd[o]!;
    const g = pd[o + 1]!;
    const b = pd[o + 2]!;
    if (isSkin(r, g, b)) continue;
    const t = r + g + b + 1;
    const k = Math.min(B - 1, Math.floor((r / t) * B)) * B + Math.min(B - 1, Math.floor((g / t) * B));
    count[k]!++;
    sum[k * 3]! += r;
    sum[k * 3 + 1]! += g;
    sum[k * 3 + 2]! += b;
  }
  let best = -1;
  let bestN = 0;
  for (let k = 0; k < B * B; k++)
    if (count[k]! > bestN) {
      bestN = count[k]!;
      best = k;
    }
  if (best < 0 || bestN < 30) return null;
  return [sum[best * 3]! / bestN, sum[best * 3 + 1]! / bestN, sum[best * 3 + 2]! / bestN];
}

/** The light factor on the whole frame of `c.person` (1 where nothing is known). */
export function garmentLight(c: LightInput): Float32Array {
  const { width: w, height: h } = c.person;
  const n = w * h;
  const out = new Float32Array(n).fill(1);
  const main = mainColour(c);
  if (!main) return out;
  const pd = c.person.data;
  const md = c.personMask.data;
  const hd = c.hard.data;
  const mt = main[0] + main[1] + main[2] + 1;
  const mr = main[0] / mt;
  const mg = main[1] / mt;
  // Dark cloth has noisy chroma: a wider tolerance.
  const tol = mt < 150 ? 0.1 : 0.045;
  const logL = new Float32Array(n);
  const wgt = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (md[i]! < 0.5 || hd[i]! > 0.3) continue;
    const o = i * 4;
    const r = pd[o]!;
    const g = pd[o + 1]!;
    const b = pd[o + 2]!;
    const t = r + g + b + 1;
    // Within the light's own range of the main colour (a print of its hue, darker or lighter, is not light).
    if (t < mt * 0.6 || t > mt * 1.6) continue;
    if (Math.abs(r / t - mr) + Math.abs(g / t - mg) > tol) continue;
    logL[i] = Math.log(0.299 * r + 0.587 * g + 0.114 * b + 8);
    wgt[i] = 1;
  }
  const rb = Math.max(4, Math.round(c.sw * 0.12));
  const rf = Math.max(1, Math.round(c.sw * 0.025));
  const bw = blurRect(wgt, w, h, rb, 2, 0, 0, w - 1, h - 1);
  const bl = blurRect(logL, w, h, rb, 2, 0, 0, w - 1, h - 1);
  const fw = blurRect(wgt, w, h, rf, 2, 0, 0, w - 1, h - 1);
  const fl = blurRect(logL, w, h, rf, 2, 0, 0, w - 1, h - 1);
  // The broad luminance's mean over the garment.
  let s = 0;
  let sn = 0;
  const cd = c.cover.data;
  for (let i = 0; i < n; i += 2)
    if (cd[i]! > 0.5 && bw[i]! > 0.15) {
      s += bl[i]! / bw[i]!;
      sn++;
    }
  if (!sn) return out;
  const mean = s / sn;
  for (let i = 0; i < n; i++) {
    const wb = bw[i]!;
    if (wb < 0.05) continue;
    // Far from any of the main colour, the light fades to none.
    const trust = Math.min(1, wb / 0.25);
    const broad = bl[i]! / wb;
    let f = Math.exp((broad - mean) * BROAD * trust);
    f = f < BROAD_MIN ? BROAD_MIN : f > BROAD_MAX ? BROAD_MAX : f;
    const wf = fw[i]!;
    if (wf > 0.3) {
      const d = fl[i]! / wf - broad;
      const m = d < 0 ? -d : d;
      // Small changes are folds; large ones are the old clothes' edges and prints.
      const keep = m <= 0.08 ? 1 : m >= 0.2 ? 0 : (0.2 - m) / 0.12;
      f *= Math.exp(d * keep * FOLDS);
    }
    out[i] = f;
  }
  return out;
}
