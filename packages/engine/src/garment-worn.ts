/**
 * Is the garment photo a garment someone is wearing (a studio photo of a model, a shopper's own
 * photo put in the garment's place)? The engine cannot cut such a garment out: the model's arms,
 * neck and face would go onto the shopper. A refused good product photo costs a sale, so the
 * photo is refused only on evidence that a print or a skin-coloured garment cannot give:
 *
 * - a **head**: the pose model is sure of a person, and where it puts the face there is skin;
 * - the head is **on top**, not inside a garment: at the face's row the person model's mask (and
 *   the cut-out, when the photo has one) is at most a few head widths wide, where a face printed
 *   on a T-shirt sits in a row as wide as the shirt;
 * - the body has the **garment's scale**: where the shoulders are, the cut-out is at most about
 *   two and a half shoulder widths wide (a figure printed on a garment is much smaller than it);
 * - the skin of the face is **not the garment's colour**: the torso is not skin-coloured, or the
 *   skin below the face ends at a neckline (a peach or nude garment is skin-coloured throughout).
 *
 * Head widths are the pose model's ear-to-ear distance (at least 1.6 eye distances), shoulder
 * widths its shoulder joints' distance. The thresholds were chosen on part of the calibration
 * photos and are reported on the others (docs/local-engine.md, `npm run bench:checks`).
 */
import { isSkin, KP, type Keypoint, type PersonAnalysis } from './person.js';
import type { RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';

/** The rule's thresholds (docs/local-engine.md gives the figures they were chosen on). */
export const WORN_RULE = {
  /** The pose model's person score. */
  minPose: 0.85,
  /** The face may be cropped at the top, but not lie far above the photo. */
  minFaceY: -0.1,
  /** Share of skin-coloured pixels around the face. */
  minFaceSkin: 0.5,
  /** The person mask's run at the face's row, in head widths. */
  maxHeadRun: 3.5,
  /** The cut-out's run at the face's row, in head widths. */
  maxHeadCutRun: 5.5,
  /** The cut-out's width at the shoulders' row, in shoulder widths. */
  maxShoulderRowWidth: 2.6,
  /** Share of skin-coloured pixels down the torso's middle above which the garment may be skin-coloured. */
  maxTorsoSkin: 0.6,
} as const;

/** Below this share of the frame in the person model's mask, the pose model is not run on a garment photo. */
export const WORN_MIN_PERSON_SHARE = 0.01;

export interface WornEvidence {
  pose: number;
  /** The face's height in the photo (0 top, 1 bottom); negative above it. */
  faceY: number;
  faceSkin: number;
  /** Person mask's run at the face's row, in head widths (0: the face is not in the mask). */
  headRun: number;
  /** Cut-out's run at the face's row, in head widths; null without a cut-out. */
  headCutRun: number | null;
  /** Cut-out's width at the shoulders' row, in shoulder widths; null without a cut-out or shoulders. */
  shoulderRowWidth: number | null;
  torsoSkin: number;
  /** The skin below the face ends (a neckline, or the photo's edge) within three head widths. */
  necklineBelowFace: boolean;
}

const mid = (...ps: Keypoint[]) => ({
  x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
  y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
});
const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function skinAt(img: RGBAImage, x: number, y: number): boolean {
  const o = (Math.round(y) * img.width + Math.round(x)) * 4;
  return isSkin(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!);
}

/** Width of the run of `on` cells through (x, y) on row y, in cells (0 when (x, y) is off). */
function runWidth(on: (x: number, y: number) => boolean, width: number, x: number, y: number): number {
  if (!on(x, y)) return 0;
  let a = x;
  while (a > 0 && on(a - 1, y)) a--;
  let b = x;
  while (b < width - 1 && on(b + 1, y)) b++;
  return b - a + 1;
}

/** The figures the rule reads, from the garment photo, the person models' analysis of it and its cut-out. */
export function wornEvidence(
  img: RGBAImage,
  a: PersonAnalysis,
  cut: { mask: BinaryMask; scale: number } | null,
): WornEvidence {
  const { width: w, height: h } = img;
  const k = a.keypoints;
  const sw = Math.max(1e-3, dist(k[KP.leftShoulder]!, k[KP.rightShoulder]!));
  const face = mid(k[KP.nose]!, k[KP.leftEye]!, k[KP.rightEye]!);
  const head = Math.max(1e-3, dist(k[KP.leftEar]!, k[KP.rightEar]!), 1.6 * dist(k[KP.leftEye]!, k[KP.rightEye]!));
  // Skin around the face (the part of the square in the photo; a face cropped at the top shows its chin).
  const r = Math.max((1.5 * w) / 192, 0.12 * sw);
  let n = 0;
  let hit = 0;
  for (let y = Math.max(0, Math.round(face.y - r)); y <= Math.min(h - 1, Math.round(face.y + r)); y++)
    for (let x = Math.max(0, Math.round(face.x - r)); x <= Math.min(w - 1, Math.round(face.x + r)); x++) {
      n++;
      if (skinAt(img, x, y)) hit++;
    }
  const fx = Math.round(clamp(face.x, 0, w - 1));
  const fy = Math.round(clamp(face.y, 0, h - 1));
  const inMask = (x: number, y: number) => a.mask.data[y * w + x]! > 0.5;
  const headRun = runWidth(inMask, w, fx, fy) / head;
  let headCutRun: number | null = null;
  let shoulderRowWidth: number | null = null;
  const ls = k[KP.leftShoulder]!;
  const rs = k[KP.rightShoulder]!;
  const shoulders = mid(ls, rs);
  if (cut) {
    const { mask, scale } = cut;
    const cell = (x: number, y: number) =>
      mask.data[
        Math.min(mask.height - 1, Math.floor(y / scale)) * mask.width + Math.min(mask.width - 1, Math.floor(x / scale))
      ] === 1;
    headCutRun =
      (runWidth((cx, cy) => cell(cx * scale, cy * scale), mask.width, Math.floor(fx / scale), Math.floor(fy / scale)) *
        scale) /
      head;
    const inFrame = (p: Keypoint) =>
      p.score > 0.5 && p.x >= -0.02 * w && p.x <= 1.02 * w && p.y >= -0.02 * h && p.y <= 1.02 * h;
    if (inFrame(ls) && inFrame(rs)) {
      const gy = Math.min(mask.height - 1, Math.floor(clamp(shoulders.y, 0, h - 1) / scale));
      let cells = 0;
      for (let gx = 0; gx < mask.width; gx++) cells += mask.data[gy * mask.width + gx]!;
      shoulderRowWidth = (cells * scale) / sw;
    }
  }
  // Down the torso's middle, where a top covers the body: skin-coloured there, the garment may be.
  const hips = mid(k[KP.leftHip]!, k[KP.rightHip]!);
  let samples = 0;
  let inside = 0;
  let skin = 0;
  for (let i = 0; i <= 10; i++) {
    const t = 0.4 + 0.05 * i;
    for (let j = -2; j <= 2; j++) {
      const x = shoulders.x + (hips.x - shoulders.x) * t + j * 0.075 * sw;
      const y = shoulders.y + (hips.y - shoulders.y) * t;
      samples++;
      if (x < 0 || y < 0 || x > w - 1 || y > h - 1) continue;
      inside++;
      if (skinAt(img, x, y)) skin++;
    }
  }
  // Walking down from the face: a neckline (two non-skin steps) or the photo's edge within three head widths.
  let neckline = false;
  let off = 0;
  for (let t = 0.8; t < 3.0 && !neckline; t += 0.1) {
    const y = face.y + t * head;
    if (y > h - 1) neckline = true;
    else if (y >= 0) {
      off = skinAt(img, fx, y) ? 0 : off + 1;
      if (off >= 2) neckline = true;
    }
  }
  return {
    pose: a.poseScore,
    faceY: face.y / h,
    faceSkin: n ? hit / n : 0,
    headRun,
    headCutRun,
    shoulderRowWidth,
    torsoSkin: inside >= samples / 2 ? skin / inside : 0,
    necklineBelowFace: neckline,
  };
}

/** The decision: every piece of evidence must hold. */
export function isWornGarment(e: WornEvidence): boolean {
  const R = WORN_RULE;
  return (
    e.pose >= R.minPose &&
    e.faceY > R.minFaceY &&
    e.faceSkin >= R.minFaceSkin &&
    e.headRun > 0 &&
    e.headRun <= R.maxHeadRun &&
    (e.headCutRun === null || e.headCutRun <= R.maxHeadCutRun) &&
    (e.shoulderRowWidth === null || e.shoulderRowWidth <= R.maxShoulderRowWidth) &&
    (e.torsoSkin < R.maxTorsoSkin || e.necklineBelowFace)
  );
}
