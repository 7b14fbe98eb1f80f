/**
 * Fit: where each garment landmark should land on the body. Produces point pairs
 * for the thin-plate-spline warp and the body geometry the compositor needs.
 */
import type { Category } from '@aidressup/contract';
import type { GarmentLandmarks, LowerLandmarks, Point, UpperLandmarks } from './garment.js';
import { KP, type Keypoint } from './person.js';
import type { FloatMap } from './image.js';

export interface BodyFrame {
  shoulderL: Point; // image-left shoulder joint
  shoulderR: Point;
  hipL: Point;
  hipR: Point;
  elbowL: Point;
  elbowR: Point;
  wristL: Point;
  wristR: Point;
  kneeL: Point;
  kneeR: Point;
  ankleL: Point;
  ankleR: Point;
  /** Shoulder joint distance. */
  sw: number;
  /** Shoulder-mid to hip-mid distance. */
  torso: number;
  neck: Point;
  hipMid: Point;
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const add = (a: Point, v: Point, k = 1): Point => ({ x: a.x + v.x * k, y: a.y + v.y * k });
const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
const norm = (v: Point): Point => {
  const l = Math.hypot(v.x, v.y) || 1;
  return { x: v.x / l, y: v.y / l };
};

/** Orient left/right pairs by image x so a back view or a mirrored pose still works. */
export function bodyFrame(kps: Keypoint[]): BodyFrame {
  const k = (i: number): Point => ({ x: kps[i]!.x, y: kps[i]!.y });
  const pair = (a: number, b: number): [Point, Point] => (k(a).x <= k(b).x ? [k(a), k(b)] : [k(b), k(a)]);
  const [shoulderL, shoulderR] = pair(KP.leftShoulder, KP.rightShoulder);
  const swapped = kps[KP.leftShoulder]!.x > kps[KP.rightShoulder]!.x;
  const side = (l: number, r: number): [Point, Point] => (swapped ? [k(r), k(l)] : [k(l), k(r)]);
  const [hipL, hipR] = side(KP.leftHip, KP.rightHip);
  const [elbowL, elbowR] = side(KP.leftElbow, KP.rightElbow);
  const [wristL, wristR] = side(KP.leftWrist, KP.rightWrist);
  const [kneeL, kneeR] = side(KP.leftKnee, KP.rightKnee);
  const [ankleL, ankleR] = side(KP.leftAnkle, KP.rightAnkle);
  const sMid = mid(shoulderL, shoulderR);
  const hipMid = mid(hipL, hipR);
  const sw = dist(shoulderL, shoulderR);
  const torso = dist(sMid, hipMid);
  const up = norm({ x: sMid.x - hipMid.x, y: sMid.y - hipMid.y });
  const neck = add(sMid, up, sw * 0.12);
  return { shoulderL, shoulderR, hipL, hipR, elbowL, elbowR, wristL, wristR, kneeL, kneeR, ankleL, ankleR, sw, torso, neck, hipMid };
}

/** Walk `len` along a polyline from its start; past the end continues along the last segment. */
function along(poly: Point[], len: number): { p: Point; dir: Point } {
  let rest = len;
  for (let i = 0; i < poly.length - 1; i++) {
    const a = poly[i]!;
    const b = poly[i + 1]!;
    const d = dist(a, b);
    if (rest <= d || i === poly.length - 2) {
      const dir = norm({ x: b.x - a.x, y: b.y - a.y });
      return { p: add(a, dir, rest), dir };
    }
    rest -= d;
  }
  return { p: poly[0]!, dir: { x: 0, y: 1 } };
}

/** Half-width of the person mask at row y around column cx, stopping at gaps. */
function maskHalfWidth(mask: FloatMap, cx: number, y: number): [number, number] {
  const yi = Math.round(Math.min(mask.height - 1, Math.max(0, y)));
  const row = yi * mask.width;
  let a = Math.round(Math.min(mask.width - 1, Math.max(0, cx)));
  let b = a;
  while (a > 0 && mask.data[row + a - 1]! > 0.5) a--;
  while (b < mask.width - 1 && mask.data[row + b + 1]! > 0.5) b++;
  return [cx - a, b - cx];
}

export interface Fit {
  /** Body points (destination) and the garment points (source) they take. */
  body: Point[];
  garment: Point[];
  /** Region of the person photo the garment may cover. */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Lowest y the garment's top edge may reach up to (neckline); pixels above are protected. */
  neckY: number;
  /** Garment-to-body scale. */
  scale: number;
  /** Sleeves reach the forearm (long sleeves) on each side. */
  longSleeves: boolean;
  sleeveless: boolean;
}

function fitUpper(g: UpperLandmarks, b: BodyFrame, mask: FloatMap, category: Category): Fit {
  const gShoulderW = dist(g.shoulderLeft, g.shoulderRight);
  // Garment shoulder seams sit a little outside the shoulder joints.
  const out = norm({ x: b.shoulderR.x - b.shoulderL.x, y: b.shoulderR.y - b.shoulderL.y });
  const upV = { x: out.y, y: -out.x };
  const targetSW = b.sw * 1.18;
  const scale = targetSW / Math.max(1, gShoulderW);
  const sL = add(add(b.shoulderL, out, -b.sw * 0.09), upV, b.sw * 0.07);
  const sR = add(add(b.shoulderR, out, b.sw * 0.09), upV, b.sw * 0.07);
  const sMid = mid(b.shoulderL, b.shoulderR);
  const down = norm({ x: b.hipMid.x - sMid.x, y: b.hipMid.y - sMid.y });
  const gCentre = mid(g.shoulderLeft, g.shoulderRight);
  // Positions down the body axis keep the garment's own proportions.
  const gDown = (p: Point) => (p.y - gCentre.y) * scale;
  const gAcross = (p: Point) => (p.x - (g.shoulderLeft.x + g.shoulderRight.x) / 2) * scale;
  const topMid = add(mid(sL, sR), down, 0);
  const place = (p: Point, widen = 1) => add(add(topMid, down, gDown(p)), out, gAcross(p) * widen);
  const body: Point[] = [];
  const garment: Point[] = [];
  const pair = (gp: Point, bp: Point) => {
    garment.push(gp);
    body.push(bp);
  };
  pair(g.shoulderLeft, sL);
  pair(g.shoulderRight, sR);
  pair(g.neckLeft, place(g.neckLeft));
  pair(g.neckRight, place(g.neckRight));
  // Torso sides follow the body: at least as wide as the person mask (+ ease) at that height.
  const bodyCentreAt = (y: number) => {
    const t = (y - sMid.y) / Math.max(1, b.hipMid.y - sMid.y);
    return sMid.x + (b.hipMid.x - sMid.x) * t;
  };
  const side = (gp: Point, leftSide: boolean, minHalf: number) => {
    const p = place(gp);
    const cx = bodyCentreAt(p.y);
    const half = Math.abs(p.x - cx);
    const target = Math.max(half * 0.85 + minHalf * 0.15, minHalf);
    return { x: cx + (leftSide ? -target : target), y: p.y };
  };
  const hipHalf = dist(b.hipL, b.hipR) * 0.85;
  const chestHalf = b.sw * 0.5;
  pair(g.armpitLeft, side(g.armpitLeft, true, chestHalf));
  pair(g.armpitRight, side(g.armpitRight, false, chestHalf));
  const hemL = side(g.hemLeft, true, hipHalf);
  const hemR = side(g.hemRight, false, hipHalf);
  pair(g.hemLeft, hemL);
  pair(g.hemRight, hemR);
  if (category === 'dresses') {
    const waistBodyY = sMid.y + (b.hipMid.y - sMid.y) * 0.62;
    const gw = place(mid(g.waistLeft, g.waistRight));
    const wy = Math.max(gw.y, waistBodyY - b.torso * 0.15);
    const [ml, mr] = maskHalfWidth(mask, bodyCentreAt(wy), wy);
    const wHalf = Math.max(Math.min(ml, mr, hipHalf * 1.1), hipHalf * 0.75);
    const gHalf = (dist(g.waistLeft, g.waistRight) * scale) / 2;
    const half = Math.max(wHalf * 1.05, gHalf * 0.8);
    pair(g.waistLeft, { x: bodyCentreAt(wy) - half, y: wy });
    pair(g.waistRight, { x: bodyCentreAt(wy) + half, y: wy });
  }
  // Sleeves go down the arms.
  let longSleeves = false;
  const sleeve = (sl: UpperLandmarks['sleeveLeft'], shoulderTarget: Point, shoulderJoint: Point, elbow: Point, wrist: Point, gShoulder: Point, gArmpit: Point, leftSide: boolean) => {
    if (!sl) return;
    const gRoot = mid(gShoulder, gArmpit);
    const gEnd = mid(sl.outer, sl.inner);
    const len = dist(gRoot, gEnd) * scale;
    const arm = [shoulderJoint, elbow, wrist];
    const upper = dist(shoulderJoint, elbow);
    const fore = dist(elbow, wrist);
    const reach = Math.min(len, upper + fore * 1.05);
    if (len > upper * 1.15) longSleeves = true;
    const end = along(arm, reach);
    const nrm = { x: -end.dir.y, y: end.dir.x }; // perpendicular
    const cuffHalf = Math.max((dist(sl.outer, sl.inner) * scale) / 2, b.sw * 0.12);
    // The outer cuff corner is on the side away from the body.
    const sgn = leftSide ? (nrm.x < 0 ? 1 : -1) : nrm.x > 0 ? 1 : -1;
    pair(sl.outer, add(end.p, nrm, cuffHalf * sgn));
    pair(sl.inner, add(end.p, nrm, -cuffHalf * sgn));
    // A mid-sleeve point keeps the sleeve on the arm when it bends at the elbow.
    if (reach > upper * 0.6) {
      const gMid = lerp(gRoot, gEnd, 0.5);
      const m = along(arm, reach * 0.5);
      pair(gMid, m.p);
    }
    void shoulderTarget;
  };
  sleeve(g.sleeveLeft, sL, b.shoulderL, b.elbowL, b.wristL, g.shoulderLeft, g.armpitLeft, true);
  sleeve(g.sleeveRight, sR, b.shoulderR, b.elbowR, b.wristR, g.shoulderRight, g.armpitRight, false);
  const xs = body.map((p) => p.x);
  const ys = body.map((p) => p.y);
  const pad = b.sw * 0.35;
  return {
    body,
    garment,
    box: { x0: Math.min(...xs) - pad, y0: Math.min(...ys) - pad, x1: Math.max(...xs) + pad, y1: Math.max(...ys) + pad },
    neckY: Math.min(sL.y, sR.y) - b.sw * 0.05,
    scale,
    longSleeves,
    sleeveless: !g.sleeveLeft && !g.sleeveRight,
  };
}

function fitLower(g: LowerLandmarks, b: BodyFrame, mask: FloatMap): Fit {
  const sMid = mid(b.shoulderL, b.shoulderR);
  const down = norm({ x: b.hipMid.x - sMid.x, y: b.hipMid.y - sMid.y });
  const out = norm({ x: b.hipR.x - b.hipL.x, y: b.hipR.y - b.hipL.y });
  const waistC = add(b.hipMid, down, -b.torso * 0.2);
  const [ml, mr] = maskHalfWidth(mask, waistC.x, waistC.y);
  const hipHalf = dist(b.hipL, b.hipR) * 0.85;
  const half = Math.max(Math.min(ml, mr, hipHalf * 1.15), hipHalf * 0.85) * 1.04;
  const wL = add(waistC, out, -half);
  const wR = add(waistC, out, half);
  const gw = dist(g.waistLeft, g.waistRight);
  const scale = (2 * half) / Math.max(1, gw);
  const body: Point[] = [wL, wR];
  const garment: Point[] = [g.waistLeft, g.waistRight];
  const gWaistMid = mid(g.waistLeft, g.waistRight);
  let bottom = waistC.y;
  if (g.crotch && g.legLeft && g.legRight) {
    const crotchDepth = (g.crotch.y - gWaistMid.y) * scale;
    const crotchB = add(waistC, down, Math.max(crotchDepth, b.torso * 0.25));
    garment.push(g.crotch);
    body.push(crotchB);
    const leg = (lg: { outer: Point; inner: Point }, hip: Point, knee: Point, ankle: Point, leftSide: boolean) => {
      const gHem = mid(lg.outer, lg.inner);
      const gLen = (gHem.y - gWaistMid.y) * scale;
      const legTop = add(hip, down, 0);
      const polyLen = dist(legTop, knee) + dist(knee, ankle);
      const reach = Math.min(gLen - (waistC.y < hip.y ? dist(waistC, b.hipMid) : 0), polyLen * 1.06);
      const end = along([legTop, knee, ankle], Math.max(reach, dist(legTop, knee) * 0.3));
      const nrm = { x: -end.dir.y, y: end.dir.x };
      const hemHalf = Math.max((dist(lg.outer, lg.inner) * scale) / 2, b.sw * 0.1);
      const sgn = leftSide ? (nrm.x < 0 ? 1 : -1) : nrm.x > 0 ? 1 : -1;
      garment.push(lg.outer, lg.inner);
      body.push(add(end.p, nrm, hemHalf * sgn), add(end.p, nrm, -hemHalf * sgn));
      // Knee-level points keep the leg on the body's leg.
      const gKneeO = lerp(leftSide ? g.waistLeft : g.waistRight, lg.outer, 0.5);
      const gKneeI = lerp(g.crotch!, lg.inner, 0.5);
      const mO = along([legTop, knee, ankle], reach * 0.5);
      const n2 = { x: -mO.dir.y, y: mO.dir.x };
      const s2 = leftSide ? (n2.x < 0 ? 1 : -1) : n2.x > 0 ? 1 : -1;
      const kneeHalf = (dist(gKneeO, gKneeI) * scale) / 2;
      garment.push(gKneeO, gKneeI);
      body.push(add(mO.p, n2, kneeHalf * s2), add(mO.p, n2, -kneeHalf * s2));
      bottom = Math.max(bottom, end.p.y);
    };
    leg(g.legLeft, b.hipL, b.kneeL, b.ankleL, true);
    leg(g.legRight, b.hipR, b.kneeR, b.ankleR, false);
  } else {
    const gLen = (mid(g.hemLeft, g.hemRight).y - gWaistMid.y) * scale;
    const hemC = add(waistC, down, gLen);
    const hemHalf = Math.max((dist(g.hemLeft, g.hemRight) * scale) / 2, hipHalf);
    garment.push(g.hemLeft, g.hemRight);
    body.push(add(hemC, out, -hemHalf), add(hemC, out, hemHalf));
    const gMidL = lerp(g.waistLeft, g.hemLeft, 0.5);
    const gMidR = lerp(g.waistRight, g.hemRight, 0.5);
    const midC = add(waistC, down, gLen * 0.5);
    const midHalf = Math.max((dist(gMidL, gMidR) * scale) / 2, hipHalf * 1.05);
    garment.push(gMidL, gMidR);
    body.push(add(midC, out, -midHalf), add(midC, out, midHalf));
    bottom = hemC.y;
  }
  const xs = body.map((p) => p.x);
  const ys = body.map((p) => p.y);
  const pad = b.sw * 0.3;
  return {
    body,
    garment,
    box: { x0: Math.min(...xs) - pad, y0: Math.min(...ys) - pad, x1: Math.max(...xs) + pad, y1: Math.max(bottom, ...ys) + pad },
    neckY: waistC.y - b.torso * 0.1,
    scale,
    longSleeves: false,
    sleeveless: true,
  };
}

export function fitGarment(g: GarmentLandmarks, b: BodyFrame, mask: FloatMap, category: Category): Fit {
  return g.kind === 'lower' ? fitLower(g, b, mask) : fitUpper(g, b, mask, category);
}
