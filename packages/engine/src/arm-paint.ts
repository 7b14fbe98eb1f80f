/**
 * The arms the new garment leaves bare, where the old one covered them: painted from the
 * person's own visible skin. The colour is the arm's bare skin (the other arm's, the hands' and
 * face's when neither shows); the shading across the arm is the bare skin's own profile when an
 * arm shows one, else a round limb lit from the side the old sleeve was lit from; along the arm,
 * the old sleeve's broad light; and the skin's fine grain, so the arm is not a flat patch.
 */
import type { RGBAImage } from './image.js';
import type { Arm, ArmRaster } from './arm-model.js';

const BINS = 8;

export interface ArmPaintInput {
  /** The photo (crop) and the image being composed (same frame). */
  person: RGBAImage;
  out: RGBAImage;
  arms: Arm[];
  raster: ArmRaster;
  /** Where the photo shows old clothes on the arm (1) rather than its skin. */
  clothed: Uint8Array;
  /** 0..1: what may be painted (the arm's coverage, less hands, face and hair). */
  paint: Float32Array;
  /** The person's skin tone from the face and hands, when known. */
  skinTone: [number, number, number] | null;
  /** The photo's light factor (garment-light.ts), for the light along the arm. */
  light: Float32Array;
}

const lumOf = (d: Uint8ClampedArray, o: number) => 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;
const binOf = (u: number) => Math.min(BINS - 1, Math.max(0, Math.floor(((u + 1) / 2) * BINS)));

/** A small deterministic grain in −1 … 1 (no pattern a shopper would see). */
function grain(x: number, y: number): number {
  let v = (x * 374761393 + y * 668265263) | 0;
  v = Math.imul(v ^ (v >>> 13), 1274126177);
  return (((v ^ (v >>> 16)) >>> 0) / 4294967295) * 2 - 1;
}

/** Returns how many pixels were painted; `alpha` (what changed) is raised where they are. */
export function paintArms(c: ArmPaintInput, alpha: Float32Array): number {
  const { width: w } = c.person;
  const pd = c.person.data;
  const od = c.out.data;
  const r = c.raster;
  if (r.box.x1 < 0) return 0;
  // The bare skin's profile across each arm (luminance by position across it), and its grain.
  const prof = c.arms.map(() => ({ sum: new Float64Array(BINS), n: new Float64Array(BINS) }));
  const cloth = c.arms.map(() => ({ sum: new Float64Array(BINS), n: new Float64Array(BINS) }));
  let grainSum = 0;
  let grainN = 0;
  const { x0, y0, x1, y1 } = r.box;
  let todo = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      const a = r.arm[i]!;
      if (!a || r.alpha.data[i]! < 0.99) continue;
      const o = i * 4;
      const b = binOf(r.across[i]!);
      const L = lumOf(pd, o);
      if (c.clothed[i]) {
        cloth[a - 1]!.sum[b]! += L;
        cloth[a - 1]!.n[b]!++;
        if (c.paint[i]! > 0) todo++;
        continue;
      }
      prof[a - 1]!.sum[b]! += L;
      prof[a - 1]!.n[b]!++;
      if (x + 1 <= x1 && r.arm[i + 1] === a && !c.clothed[i + 1]) {
        grainSum += Math.abs(L - lumOf(pd, o + 4));
        grainN++;
      }
    }
  if (!todo) return 0;
  // Each arm's colour: its own bare skin as the arm model read it, else the other arm's, else
  // the person's lit skin from the face and hands.
  const armSkins = c.arms.map((a) => a.skin);
  const anyArm = armSkins.find((s) => s !== null) ?? null;
  const skinOf = (ai: number): [number, number, number] | null => armSkins[ai] ?? anyArm ?? c.skinTone;
  const skin = skinOf(0) ?? skinOf(1);
  if (!skin) return 0;
  const skinL = 0.299 * skin[0] + 0.587 * skin[1] + 0.114 * skin[2] + 1;
  // The profile of whichever arm shows more bare skin in every bin, normalised to its mean.
  const full = (p: { n: Float64Array }) => p.n.every((v) => v >= 4);
  const best = prof.reduce<{ sum: Float64Array; n: Float64Array } | null>(
    (acc, p) => (full(p) && (!acc || p.n.reduce((s, v) => s + v, 0) > acc.n.reduce((s, v) => s + v, 0)) ? p : acc),
    null,
  );
  const shapes = c.arms.map((_, ai) => {
    const shape = new Float64Array(BINS);
    if (best) {
      const m = best.sum.reduce((s, v) => s + v, 0) / best.n.reduce((s, v) => s + v, 0);
      for (let b = 0; b < BINS; b++) shape[b] = best.sum[b]! / best.n[b]! / m;
      return shape;
    }
    // A round limb, lit from the side the old sleeve is lit from.
    const cl = cloth[ai]!;
    const cm =
      cl.sum.reduce((s, v) => s + v, 0) /
      Math.max(
        1,
        cl.n.reduce((s, v) => s + v, 0),
      );
    for (let b = 0; b < BINS; b++) {
      const u = ((b + 0.5) / BINS) * 2 - 1;
      const round = 0.7 + 0.36 * Math.sqrt(Math.max(0, 1 - u * u));
      const side = cl.n[b]! >= 4 && cm > 30 ? Math.pow(cl.sum[b]! / cl.n[b]! / cm, 0.6) : 1;
      shape[b] = round * Math.min(1.15, Math.max(0.85, side));
    }
    const m = shape.reduce((s, v) => s + v, 0) / BINS;
    for (let b = 0; b < BINS; b++) shape[b] = shape[b]! / m;
    return shape;
  });
  // The skin's grain: the mean step between neighbours, as a share of its brightness.
  const grainAmp = grainN >= 40 ? Math.min(0.06, (grainSum / grainN / skinL) * 0.8) : 0.015;
  let painted = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      const a = c.paint[i]!;
      if (a <= 0.01 || !c.clothed[i]) continue;
      const arm = r.arm[i]!;
      if (!arm) continue;
      const u = r.across[i]!;
      // Linear between the bins' centres.
      const f = ((u + 1) / 2) * BINS - 0.5;
      const b0 = Math.max(0, Math.min(BINS - 1, Math.floor(f)));
      const b1 = Math.min(BINS - 1, b0 + 1);
      const t = Math.max(0, Math.min(1, f - b0));
      const sh = shapes[arm - 1]!;
      const across = sh[b0]! * (1 - t) + sh[b1]! * t;
      // The old sleeve's broad light along the arm (softened: cloth and skin take light alike, but
      // the old sleeve's own darker seams must not print onto the skin).
      const along = Math.pow(c.light[i]!, 0.7);
      const g = 1 + grain(x, y) * grainAmp;
      const k = across * along * g;
      const o = i * 4;
      const sk = skinOf(arm - 1) ?? skin;
      for (let ch = 0; ch < 3; ch++) {
        const v = sk[ch]! * k;
        od[o + ch] = od[o + ch]! * (1 - a) + (v < 255 ? v : 255) * a;
      }
      if (a > alpha[i]!) alpha[i] = a;
      painted++;
    }
  return painted;
}

/**
 * Where the arms' coverage shows old clothes rather than the arm's skin: the cross-sections the
 * arm model found clothed (whole cross-sections, so the painted skin ends in a clean line where
 * the old sleeve ended).
 */
export function clothedArm(raster: ArmRaster, arms: Arm[], w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const { x0, y0, x1, y1 } = raster.box;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      const a = raster.arm[i]!;
      if (a && raster.alpha.data[i]! > 0 && !arms[a - 1]!.samples[raster.sample[i]!]!.bare) out[i] = 1;
    }
  return out;
}
