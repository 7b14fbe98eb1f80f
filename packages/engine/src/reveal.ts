/**
 * What the arm repaint (reveal-arms.ts) and the chest fill (reveal-chest.ts) share: the
 * person's skin tone, their input, and the outward search along a row for the backdrop
 * beside the person.
 */
import type { Category } from '@aidressup/contract';
import type { FloatMap, RGBAImage } from './image.js';
import { isSkin, KP, type Keypoint } from './person.js';

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

/**
 * The person's lit skin: like `skinTone`, from the face and hands, but the mean of the brighter
 * part of the skin-coloured pixels only (from the 35th to the 95th percentile of brightness), so
 * that hair, shadow or a photo's edge cutting the face does not darken it. A shaded limb is
 * painted from the lit colour down.
 */
export function litSkinTone(img: RGBAImage, kps: Keypoint[], sw: number): Rgb | null {
  const spots: { ids: number[]; r: number }[] = [
    { ids: [KP.nose, KP.mouthLeft, KP.mouthRight], r: sw * 0.1 },
    { ids: [KP.leftWrist, KP.leftIndex, KP.leftPinky], r: sw * 0.07 },
    { ids: [KP.rightWrist, KP.rightIndex, KP.rightPinky], r: sw * 0.07 },
  ];
  const px: number[] = [];
  for (const s of spots) {
    if (s.ids.some((i) => kps[i]!.score < 0.5)) continue;
    const cx = s.ids.reduce((acc, i) => acc + kps[i]!.x, 0) / s.ids.length;
    const cy = s.ids.reduce((acc, i) => acc + kps[i]!.y, 0) / s.ids.length;
    const rad = Math.max(3, s.r);
    for (let y = Math.max(0, Math.round(cy - rad)); y <= Math.min(img.height - 1, Math.round(cy + rad)); y++)
      for (let x = Math.max(0, Math.round(cx - rad)); x <= Math.min(img.width - 1, Math.round(cx + rad)); x++) {
        const o = (y * img.width + x) * 4;
        if (isSkin(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!)) px.push(o);
      }
  }
  if (px.length < 40) return null;
  const lum = (o: number) => 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!;
  px.sort((a, b) => lum(a) - lum(b));
  const from = Math.floor(px.length * 0.35);
  const to = Math.ceil(px.length * 0.95);
  const sum = [0, 0, 0];
  for (let k = from; k < to; k++) for (let c = 0; c < 3; c++) sum[c]! += img.data[px[k]! + c]!;
  const n = Math.max(1, to - from);
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
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

/** backdropAlong: the new garment came first. */
export const GARMENT = -1;
/** backdropAlong: skin came first, or nothing was in reach. */
const NONE = -2;

/**
 * Outward along row y from x (step ±1, at most `reach` pixels), through the person: the first
 * backdrop pixel (person mask < 0.2), as a pixel index; GARMENT when the new garment comes
 * first; NONE when nothing is in reach or, with `skinStops`, the person's skin comes first.
 */
export function backdropAlong(
  c: RevealInput,
  x: number,
  y: number,
  step: 1 | -1,
  reach: number,
  skinStops: boolean,
): number {
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
