/**
 * Person analysis: body keypoints, a person mask and the protected regions (face,
 * hair, hands) that a garment must never cover.
 */
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import { labelComponents, type ComponentBox } from './mask-ops.js';
import { runPoseModel, runSelfieModel, type Models } from './models.js';

export interface Keypoint {
  x: number;
  y: number;
  /** 0..1 visibility (in frame and not occluded). */
  score: number;
}

/** BlazePose landmark indices used by the engine. */
export const KP = {
  nose: 0,
  leftEye: 2,
  rightEye: 5,
  leftEar: 7,
  rightEar: 8,
  mouthLeft: 9,
  mouthRight: 10,
  leftShoulder: 11,
  rightShoulder: 12,
  leftElbow: 13,
  rightElbow: 14,
  leftWrist: 15,
  rightWrist: 16,
  leftPinky: 17,
  rightPinky: 18,
  leftIndex: 19,
  rightIndex: 20,
  leftThumb: 21,
  rightThumb: 22,
  leftHip: 23,
  rightHip: 24,
  leftKnee: 25,
  rightKnee: 26,
  leftAnkle: 27,
  rightAnkle: 28,
  leftHeel: 29,
  rightHeel: 30,
  leftFoot: 31,
  rightFoot: 32,
} as const;

export interface PersonAnalysis {
  width: number;
  height: number;
  /** 33 keypoints in image pixels. */
  keypoints: Keypoint[];
  poseScore: number;
  /** Person probability 0..1 at image resolution. */
  mask: FloatMap;
  /** Number of separate large person blobs found in the mask (≥ 2 → several people). */
  peopleCount: number;
  /** How many of face, left hand, right hand show skin-coloured pixels (0..3). */
  skin: number;
}

/** The YCbCr skin rule, on one pixel. */
export function isSkin(r: number, g: number, b: number): boolean {
  const cr = 128 + 0.5 * r - 0.419 * g - 0.081 * b;
  const cb = 128 - 0.169 * r - 0.331 * g + 0.5 * b;
  return cr >= 138 && cr <= 178 && cb >= 77 && cb <= 127 && r > g && r > 50;
}

/** Share of skin-coloured pixels in a square patch. */
function skinShare(img: RGBAImage, cx: number, cy: number, r: number): number {
  let n = 0;
  let hit = 0;
  for (let y = Math.max(0, Math.round(cy - r)); y <= Math.min(img.height - 1, Math.round(cy + r)); y++)
    for (let x = Math.max(0, Math.round(cx - r)); x <= Math.min(img.width - 1, Math.round(cx + r)); x++) {
      const o = (y * img.width + x) * 4;
      n++;
      if (isSkin(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!)) hit++;
    }
  return n ? hit / n : 0;
}

function skinEvidence(img: RGBAImage, k: Keypoint[]): number {
  const sw = Math.hypot(k[KP.leftShoulder]!.x - k[KP.rightShoulder]!.x, k[KP.leftShoulder]!.y - k[KP.rightShoulder]!.y);
  const r = Math.max(3, sw * 0.06);
  const at = (ids: number[]) => {
    const x = ids.reduce((acc, i) => acc + k[i]!.x, 0) / ids.length;
    const y = ids.reduce((acc, i) => acc + k[i]!.y, 0) / ids.length;
    return skinShare(img, x, y, r) > 0.3 ? 1 : 0;
  };
  // Face (or the neck just under it when the photo is cropped at the chin), and both hands.
  const face = Math.max(at([KP.nose, KP.leftEye, KP.rightEye]), at([KP.mouthLeft, KP.mouthRight]));
  return face + at([KP.leftWrist, KP.leftIndex, KP.leftPinky]) + at([KP.rightWrist, KP.rightIndex, KP.rightPinky]);
}

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

interface Roi {
  cx: number;
  cy: number;
  size: number;
}

/** Crop a square ROI (may reach outside the image; outside is black) to a 256×256×3 tensor in [0,1]. */
function roiInput(img: RGBAImage, roi: Roi): Float32Array {
  const out = new Float32Array(256 * 256 * 3);
  const { width: w, height: h, data } = img;
  const s = roi.size / 256;
  const x0 = roi.cx - roi.size / 2;
  const y0 = roi.cy - roi.size / 2;
  // Column lookups once: source index pair and weight, or -1 outside the image.
  const xa = new Int32Array(256);
  const xb = new Int32Array(256);
  const xf = new Float32Array(256);
  for (let x = 0; x < 256; x++) {
    const sx = x0 + (x + 0.5) * s - 0.5;
    if (sx < 0 || sx > w - 1) {
      xa[x] = -1;
      continue;
    }
    const i = Math.floor(sx);
    xa[x] = i * 4;
    xb[x] = Math.min(i + 1, w - 1) * 4;
    xf[x] = sx - i;
  }
  const k = 1 / 255;
  for (let y = 0; y < 256; y++) {
    const sy = y0 + (y + 0.5) * s - 0.5;
    if (sy < 0 || sy > h - 1) continue;
    const j = Math.floor(sy);
    const fy = sy - j;
    const r0 = j * w * 4;
    const r1 = Math.min(j + 1, h - 1) * w * 4;
    for (let x = 0; x < 256; x++) {
      const a = xa[x]!;
      if (a < 0) continue;
      const b = xb[x]!;
      const fx = xf[x]!;
      const w00 = (1 - fx) * (1 - fy) * k;
      const w10 = fx * (1 - fy) * k;
      const w01 = (1 - fx) * fy * k;
      const w11 = fx * fy * k;
      const o = (y * 256 + x) * 3;
      out[o] = data[r0 + a]! * w00 + data[r0 + b]! * w10 + data[r1 + a]! * w01 + data[r1 + b]! * w11;
      out[o + 1] =
        data[r0 + a + 1]! * w00 + data[r0 + b + 1]! * w10 + data[r1 + a + 1]! * w01 + data[r1 + b + 1]! * w11;
      out[o + 2] =
        data[r0 + a + 2]! * w00 + data[r0 + b + 2]! * w10 + data[r1 + a + 2]! * w01 + data[r1 + b + 2]! * w11;
    }
  }
  return out;
}

function decodeLandmarks(ld: Float32Array, roi: Roi): Keypoint[] {
  const s = roi.size / 256;
  const x0 = roi.cx - roi.size / 2;
  const y0 = roi.cy - roi.size / 2;
  const kps: Keypoint[] = [];
  for (let i = 0; i < 33; i++) {
    const x = ld[i * 5]!;
    const y = ld[i * 5 + 1]!;
    const vis = sigmoid(ld[i * 5 + 3]!);
    const pres = sigmoid(ld[i * 5 + 4]!);
    kps.push({ x: x0 + x * s, y: y0 + y * s, score: Math.min(vis, pres) });
  }
  return kps;
}

function fullRoi(img: RGBAImage): Roi {
  return { cx: img.width / 2, cy: img.height / 2, size: Math.max(img.width, img.height) };
}

/** Map a 256×256 ROI map back onto the image (outside the ROI → 0); separable bilinear. */
function roiMapToImage(src: Float32Array, roi: Roi, width: number, height: number): FloatMap {
  const out = createMap(width, height);
  const s = 256 / roi.size;
  const ox = roi.cx - roi.size / 2;
  const oy = roi.cy - roi.size / 2;
  const xi = new Int32Array(width);
  const xf = new Float32Array(width);
  const xin = new Uint8Array(width);
  for (let x = 0; x < width; x++) {
    const mx = (x + 0.5 - ox) * s - 0.5;
    xin[x] = mx >= -0.5 && mx <= 255.5 ? 1 : 0;
    const c = Math.min(255, Math.max(0, mx));
    const i = Math.min(254, Math.floor(c));
    xi[x] = i;
    xf[x] = c - i;
  }
  for (let y = 0; y < height; y++) {
    const my = (y + 0.5 - oy) * s - 0.5;
    if (my < -0.5 || my > 255.5) continue;
    const c = Math.min(255, Math.max(0, my));
    const j = Math.min(254, Math.floor(c));
    const fy = c - j;
    const r0 = j * 256;
    const r1 = r0 + 256;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!xin[x]) continue;
      const i = xi[x]!;
      const fx = xf[x]!;
      out.data[row + x] =
        (src[r0 + i]! * (1 - fx) + src[r0 + i + 1]! * fx) * (1 - fy) +
        (src[r1 + i]! * (1 - fx) + src[r1 + i + 1]! * fx) * fy;
    }
  }
  return out;
}

/** The cells of a map above `threshold`, as a mask. */
function above(m: FloatMap, threshold: number): Uint8Array {
  const on = new Uint8Array(m.width * m.height);
  for (let i = 0; i < on.length; i++) on[i] = m.data[i]! > threshold ? 1 : 0;
  return on;
}

/** Count large connected blobs in a thresholded mask (4-connected, on a coarse grid); `sizes` largest first. */
function countBlobs(mask: FloatMap, threshold = 0.5, minFraction = 0.2): { count: number; sizes: number[] } {
  const step = Math.max(1, Math.round(Math.max(mask.width, mask.height) / 128));
  const w = Math.ceil(mask.width / step);
  const h = Math.ceil(mask.height / step);
  const on = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      on[y * w + x] =
        mask.data[Math.min(mask.height - 1, y * step) * mask.width + Math.min(mask.width - 1, x * step)]! > threshold
          ? 1
          : 0;
  const sizes = labelComponents(on, w, h, { connectivity: 4 }).sizes.slice(1);
  sizes.sort((a, b) => b - a);
  const largest = sizes[0] ?? 0;
  const count = sizes.filter((s) => s >= largest * minFraction && s >= (w * h) / 200).length;
  return { count, sizes };
}

/** Bounding box (in map cells) of the largest blob above `threshold` (the first of equal ones), 4-connected. */
function largestBlobBox(m: FloatMap, threshold = 0.5): ComponentBox | null {
  const { boxes } = labelComponents(above(m, threshold), m.width, m.height, { connectivity: 4, boxes: true });
  let best: ComponentBox | null = null;
  for (let id = 1; id < boxes.length; id++) if (!best || boxes[id]!.area > best.area) best = boxes[id]!;
  return best;
}

/**
 * The pose model places hidden hips (under a long jacket, at the bottom edge of a
 * head-to-hips photo) too high with full confidence. On the full-body fixture photos a
 * frontal torso measures 1.45–1.85 shoulder widths (shoulder joints to hip joints); a torso
 * under 1.2 is moved down along the body's axis to 1.45.
 */
export function plausibleHips(kps: Keypoint[]): Keypoint[] {
  const ls = kps[KP.leftShoulder]!;
  const rs = kps[KP.rightShoulder]!;
  const lh = kps[KP.leftHip]!;
  const rh = kps[KP.rightHip]!;
  const sw = Math.hypot(ls.x - rs.x, ls.y - rs.y);
  const sx = (ls.x + rs.x) / 2;
  const sy = (ls.y + rs.y) / 2;
  const hx = (lh.x + rh.x) / 2;
  const hy = (lh.y + rh.y) / 2;
  const torso = Math.hypot(hx - sx, hy - sy);
  if (sw <= 0 || torso >= sw * 1.2 || hy <= sy) return kps;
  const k = (sw * 1.45) / torso;
  const dx = (hx - sx) * (k - 1);
  const dy = (hy - sy) * (k - 1);
  return kps.map((p, i) => (i === KP.leftHip || i === KP.rightHip ? { ...p, x: p.x + dx, y: p.y + dy } : p));
}

export interface AnalyseOptions {
  /**
   * Below this share of the frame in the person mask, the pose model is not run: the analysis
   * says no person (pose score 0, keypoints at the origin with score 0, no skin).
   */
  minPersonShare?: number;
}

/**
 * Person analysis: whole-frame selfie segmentation finds the person (and counts
 * people); the BlazePose (lite) landmark model then runs on a square crop around them.
 */
export function analysePerson(models: Models, img: RGBAImage, options: AnalyseOptions = {}): PersonAnalysis {
  const full = fullRoi(img);
  const selfie = runSelfieModel(models, roiInput(img, full));
  const selfie256: FloatMap = { width: 256, height: 256, data: selfie };
  if (options.minPersonShare !== undefined) {
    let on = 0;
    for (let i = 0; i < selfie.length; i++) if (selfie[i]! > 0.5) on++;
    if (on < selfie.length * options.minPersonShare)
      return {
        width: img.width,
        height: img.height,
        keypoints: Array.from({ length: 33 }, () => ({ x: 0, y: 0, score: 0 })),
        poseScore: 0,
        mask: roiMapToImage(selfie, full, img.width, img.height),
        peopleCount: 0,
        skin: 0,
      };
  }
  const { count } = countBlobs(selfie256, 0.6, 0.25);
  const blob = largestBlobBox(selfie256, 0.5);
  let roi = full;
  if (blob && blob.area > 256 * 256 * 0.01) {
    const cell = full.size / 256;
    const ox = full.cx - full.size / 2;
    const oy = full.cy - full.size / 2;
    const bx0 = ox + blob.x0 * cell;
    const bx1 = ox + (blob.x1 + 1) * cell;
    const by0 = oy + blob.y0 * cell;
    const by1 = oy + (blob.y1 + 1) * cell;
    roi = { cx: (bx0 + bx1) / 2, cy: (by0 + by1) / 2, size: Math.max(bx1 - bx0, by1 - by0) * 1.15 };
  }
  let pose = runPoseModel(models, roiInput(img, roi));
  let kps = decodeLandmarks(pose.landmarks, roi);
  if (pose.poseFlag < 0.75 && roi !== full) {
    // The crop may have missed: one more look at the whole frame.
    const again = runPoseModel(models, roiInput(img, full));
    if (again.poseFlag > pose.poseFlag) {
      pose = again;
      roi = full;
      kps = decodeLandmarks(again.landmarks, full);
    }
  }
  // The selfie mask is the person mask: at the working size its cells are as fine as the
  // pose model's own segmentation of the crop, which would cost another third of its time.
  const mask = roiMapToImage(selfie, full, img.width, img.height);
  kps = plausibleHips(kps);
  return {
    width: img.width,
    height: img.height,
    keypoints: kps,
    poseScore: pose.poseFlag,
    mask,
    peopleCount: count,
    skin: skinEvidence(img, kps),
  };
}

/** A segment from (ax, ay) to (bx, by). */
export type Segment = readonly [ax: number, ay: number, bx: number, by: number];

/**
 * Both arms as segments: the upper arm from `from` of the way down (shoulder → elbow), then the
 * forearm (elbow → wrist). With a radius, each is a capsule.
 */
export function armSegments(k: Keypoint[], from: number): Segment[] {
  const out: Segment[] = [];
  for (const [s, e, wr] of [
    [KP.leftShoulder, KP.leftElbow, KP.leftWrist],
    [KP.rightShoulder, KP.rightElbow, KP.rightWrist],
  ] as const) {
    const S = k[s]!;
    const E = k[e]!;
    const W = k[wr]!;
    out.push([S.x + (E.x - S.x) * from, S.y + (E.y - S.y) * from, E.x, E.y], [E.x, E.y, W.x, W.y]);
  }
  return out;
}

/** Whether (x, y) lies within √r2 of the segment. */
export function nearSegment([ax, ay, bx, by]: Segment, r2: number, x: number, y: number): boolean {
  const dx = bx - ax;
  const dy = by - ay;
  const l2 = dx * dx + dy * dy || 1e-6;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2));
  const ex = x - ax - t * dx;
  const ey = y - ay - t * dy;
  return ex * ex + ey * ey <= r2;
}
