/**
 * Fit: where each garment landmark should land on the body. Produces point pairs
 * for the thin-plate-spline warp and the body geometry the compositor needs.
 */
import type { Category } from '@aidressup/contract';
import type { GarmentLandmarks, LowerLandmarks, Point, UpperLandmarks } from './types.js';
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
  return {
    shoulderL,
    shoulderR,
    hipL,
    hipR,
    elbowL,
    elbowR,
    wristL,
    wristR,
    kneeL,
    kneeR,
    ankleL,
    ankleR,
    sw,
    torso,
    neck,
    hipMid,
  };
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

/** One separately warped piece of the garment (garment body, a sleeve, a trouser leg). */
interface FitPart {
  /** Part label in the garment's part channel. */
  id: number;
  /** Body points (destination) and the garment points (source) they take. */
  body: Point[];
  garment: Point[];
  /** Garment body (1) or sleeve/leg (0): the garment body goes behind arms in front of it. */
  isBody: boolean;
  /**
   * Draw every part of the garment with this part's map, down to this row only (trousers:
   * the hips reach below the crotch under the legs, so hips and legs meet without a seam).
   */
  allUntilY?: number;
}

/** Part labels written into the garment's part channel. */
const PART = { body: 255, left: 80, right: 160 } as const;

export interface Fit {
  parts: FitPart[];
  /** Region of the person photo the garment may cover. */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Nothing of the garment goes above this line (neckline / waistband). */
  neckY: number;
  /** Garment-to-body scale. */
  scale: number;
  longSleeves: boolean;
  sleeveless: boolean;
  /** Row of the garment body's armpits (tops and dresses; the waistband for bottoms). */
  armpitY: number;
}

function boxOf(parts: FitPart[], pad: number, extraBottom = -Infinity) {
  const pts = parts.flatMap((p) => p.body);
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  return {
    x0: Math.min(...xs) - pad,
    y0: Math.min(...ys) - pad,
    x1: Math.max(...xs) + pad,
    y1: Math.max(extraBottom, ...ys) + pad,
  };
}

function fitUpper(g: UpperLandmarks, b: BodyFrame, mask: FloatMap, category: Category, arms: ArmLines): Fit {
  const gShoulderW = dist(g.shoulderLeft, g.shoulderRight);
  // Garment shoulder seams sit a little outside the shoulder joints.
  const out = norm({ x: b.shoulderR.x - b.shoulderL.x, y: b.shoulderR.y - b.shoulderL.y });
  const upV = { x: out.y, y: -out.x };
  const targetSW = b.sw * 1.22;
  // Straps and halter necks: the garment's top points are much closer together than its
  // armpits. Sized by those they would balloon the garment, so it is sized by its chest
  // (armpit to armpit ≈ the body's chest plus ease) and the straps keep their own places.
  const gArmpitW = dist(g.armpitLeft, g.armpitRight);
  const straps = !!g.straps;
  const narrowTop = straps || gShoulderW < gArmpitW * 0.8;
  // A flat strap top's width is half its round: about 1.3 shoulder-joint widths at the chest.
  const scale0 = narrowTop
    ? (b.sw * (straps ? 1.3 : 1.15)) / Math.max(1, gArmpitW)
    : targetSW / Math.max(1, gShoulderW);
  // A dress reaches the ankles at most: one whose photo is long for its width (a maxi dress
  // with a narrow bodice) is sized by its length instead, or it would fall past the feet.
  const gDressDrop = Math.max(g.hemLeft.y, g.hemRight.y) - Math.min(g.shoulderLeft.y, g.shoulderRight.y);
  const toAnkles = dist(mid(b.shoulderL, b.shoulderR), mid(b.ankleL, b.ankleR));
  const scale = category === 'dresses' && gDressDrop * scale0 > toAnkles ? toAnkles / Math.max(1, gDressDrop) : scale0;
  // The seams sit on top of the shoulders: the shoulder joint is inside the body, as far
  // below the shoulder's outline as the person mask shows (within 0.04–0.15 shoulder widths:
  // long hair on the shoulders is in the mask too).
  const topAbove = (p: Point) => {
    let d = 0;
    const step = Math.max(1, b.sw * 0.01);
    while (d < b.sw * 0.15) {
      const q = add(p, upV, d + step);
      const xi = Math.round(q.x);
      const yi = Math.round(q.y);
      if (xi < 0 || yi < 0 || xi >= mask.width || yi >= mask.height || mask.data[yi * mask.width + xi]! < 0.5) break;
      d += step;
    }
    return Math.max(b.sw * 0.04, d);
  };
  const sL = add(add(b.shoulderL, out, -b.sw * 0.11), upV, topAbove(b.shoulderL));
  const sR = add(add(b.shoulderR, out, b.sw * 0.11), upV, topAbove(b.shoulderR));
  const sMid = mid(b.shoulderL, b.shoulderR);
  const down = norm({ x: b.hipMid.x - sMid.x, y: b.hipMid.y - sMid.y });
  const gCentre = mid(g.shoulderLeft, g.shoulderRight);
  // Positions down the body axis keep the garment's own proportions.
  // Tops end around the hips: a garment longer than hip + 0.45 torso is shortened (flat-lay
  // photos and loose shoulders make some look longer than they are worn).
  const gHemDrop = (Math.max(g.hemLeft.y, g.hemRight.y) - gCentre.y) * scale;
  const torsoLen = Math.max(b.torso, b.sw);
  const maxDrop = torsoLen * 1.45;
  const sv = category === 'upper_body' && gHemDrop > maxDrop ? maxDrop / gHemDrop : 1;
  const gDown = (p: Point) => (p.y - gCentre.y) * scale * sv;
  const gAcross = (p: Point) => (p.x - gCentre.x) * scale;
  const topMid = mid(sL, sR);
  // A strap top hangs from its straps, whose length says little about where its body sits
  // (they are adjustable, and flat they splay out to the body's corners): its armpit line
  // goes to the body's armpits, below the shoulder joints, and the straps onto the shoulders.
  const gArmMid = mid(g.armpitLeft, g.armpitRight);
  const bArmMid = add(sMid, down, b.sw * 0.45);
  const place = straps
    ? (p: Point) => add(add(bArmMid, down, (p.y - gArmMid.y) * scale * sv), out, (p.x - gArmMid.x) * scale)
    : (p: Point) => add(add(topMid, down, gDown(p)), out, gAcross(p));
  const strapLift = (topAbove(b.shoulderL) + topAbove(b.shoulderR)) / 2;
  const strapL = add(add(sMid, out, -b.sw * 0.3), upV, strapLift);
  const strapR = add(add(sMid, out, b.sw * 0.3), upV, strapLift);
  const torso: FitPart = { id: PART.body, body: [], garment: [], isBody: true };
  // Landmarks can coincide (a strap top is both shoulder and neckline): a second point
  // within a few pixels of one already paired would make the spline ill-conditioned.
  const pair = (part: FitPart, gp: Point, bp: Point) => {
    if (part.garment.some((q) => dist(q, gp) < gShoulderW * 0.06 + 3)) return;
    part.garment.push(gp);
    part.body.push(bp);
  };
  pair(torso, g.shoulderLeft, straps ? strapL : narrowTop ? place(g.shoulderLeft) : sL);
  pair(torso, g.shoulderRight, straps ? strapR : narrowTop ? place(g.shoulderRight) : sR);
  pair(torso, g.neckLeft, place(g.neckLeft));
  pair(torso, g.neckRight, place(g.neckRight));
  const bodyCentreAt = (y: number) => {
    const t = (y - sMid.y) / Math.max(1, b.hipMid.y - sMid.y);
    return sMid.x + (b.hipMid.x - sMid.x) * t;
  };
  // Torso sides follow the body: never narrower than the body (+ ease) at that height.
  const side = (gp: Point, leftSide: boolean, minHalf: number) => {
    const p = place(gp);
    const cx = bodyCentreAt(p.y);
    const half = Math.abs(p.x - cx);
    const target = Math.max(half * 0.8 + minHalf * 0.2, minHalf);
    return { x: cx + (leftSide ? -target : target), y: p.y };
  };
  const hipHalf = dist(b.hipL, b.hipR) * 0.85;
  const chestHalf = b.sw * 0.55;
  const aL = side(g.armpitLeft, true, chestHalf);
  const aR = side(g.armpitRight, false, chestHalf);
  pair(torso, g.armpitLeft, aL);
  pair(torso, g.armpitRight, aR);
  // Body half-width at a height between the armpits (chest) and the hips, linearly.
  const minHalfAt = (y: number) => {
    const t = Math.min(1.4, Math.max(0, (y - aL.y) / Math.max(1, b.hipMid.y - aL.y)));
    return chestHalf + (hipHalf - chestHalf) * t;
  };
  const hemL = side(g.hemLeft, true, minHalfAt(place(g.hemLeft).y));
  const hemR = side(g.hemRight, false, minHalfAt(place(g.hemRight).y));
  pair(torso, g.hemLeft, hemL);
  pair(torso, g.hemRight, hemR);
  if (category === 'dresses') {
    const gw = place(mid(g.waistLeft, g.waistRight));
    const [ml, mr] = maskHalfWidth(mask, bodyCentreAt(gw.y), gw.y);
    const wHalf = Math.max(Math.min(ml, mr, hipHalf * 1.1), hipHalf * 0.8);
    const gHalf = (dist(g.waistLeft, g.waistRight) * scale) / 2;
    // Follow the body, but never stretch the garment's own waist by more than a third: a
    // waist found high on the bodice, measured against a chest with arms, would fold the map.
    const half = Math.min(Math.max(wHalf * 1.05, gHalf * 0.85), gHalf * 1.35);
    pair(torso, g.waistLeft, { x: bodyCentreAt(gw.y) - half, y: gw.y });
    pair(torso, g.waistRight, { x: bodyCentreAt(gw.y) + half, y: gw.y });
  } else {
    // Mid-side points keep the sides straight between armpit and hem.
    for (const [ga, gh, ba, bh] of [
      [g.armpitLeft, g.hemLeft, aL, hemL],
      [g.armpitRight, g.hemRight, aR, hemR],
    ] as const)
      pair(torso, lerp(ga, gh, 0.5), lerp(ba, bh, 0.5));
  }
  const parts: FitPart[] = [torso];
  // Sleeves go down the arms, each warped on its own.
  let longSleeves = false;
  const sleeve = (
    id: number,
    sl: UpperLandmarks['sleeveLeft'],
    shoulderJoint: Point,
    elbow: Point,
    wrist: Point,
    gShoulder: Point,
    gArmpit: Point,
    sTarget: Point,
    aTarget: Point,
  ) => {
    if (!sl) return;
    // A sleeve is a tube down the arm. Its top corner (the shoulder seam's end) goes onto the
    // body's seam and its underarm corner onto the arm's inner side a little below the shoulder
    // (seen from the front, the sleeve wraps the whole arm from its top); then each of its
    // cross-sections, read on the flat sleeve's outline at a distance from its armhole, goes
    // across the arm as far down it, its outer end on the arm's outer side, as wide as the flat
    // sleeve there seen round (three quarters), never narrower than the arm. A long sleeve bends
    // at the elbow with the arm.
    const part: FitPart = { id, body: [], garment: [], isBody: false };
    const gRoot = mid(gShoulder, gArmpit);
    const gLen = dist(gRoot, mid(sl.outer, sl.inner));
    const upper = dist(shoulderJoint, elbow);
    const fore = dist(elbow, wrist);
    if (gLen * scale > upper * 1.15) longSleeves = true;
    const arm = [shoulderJoint, elbow, add(wrist, norm({ x: wrist.x - elbow.x, y: wrist.y - elbow.y }), b.sw)];
    const u1 = norm({ x: elbow.x - shoulderJoint.x, y: elbow.y - shoulderJoint.y });
    let n1 = { x: -u1.y, y: u1.x };
    // Outward: away from the body's centre line (the normal keeps its side along the arm).
    if (n1.x * (shoulderJoint.x - sMid.x) < 0) n1 = { x: -n1.x, y: -n1.y };
    const section = (sArm: number, half: number) => {
      const at = along(arm, Math.min(sArm, upper + fore + b.sw * 0.5));
      let nrm = { x: -at.dir.y, y: at.dir.x };
      if (nrm.x * n1.x + nrm.y * n1.y < 0) nrm = { x: -nrm.x, y: -nrm.y };
      return { outer: add(at.p, nrm, half), inner: add(at.p, nrm, -half) };
    };
    const halfOf = (gWidth: number) => Math.min(b.sw * 0.3, Math.max(b.sw * 0.13, (gWidth * scale * 0.75) / 2));
    const gDepth = (aTarget.y - shoulderJoint.y) * u1.y + (aTarget.x - shoulderJoint.x) * u1.x;
    const depth = Math.max(b.sw * 0.15, Math.min(gDepth, b.sw * 0.28));
    const profile = sl.profile?.length ? sl.profile : [{ outer: sl.outer, inner: sl.inner, at: gLen }];
    // The armhole's middle sits half the underarm's depth down the arm; the cross-sections
    // follow from there (the underarm corner is not pinned: where the landmarks put it need
    // not be on the first cross-section's line, and pinned it would fold the sleeve).
    const s0 = depth * 0.5;
    // (Its corners are not pinned either: the shoulder point lies on either side of the first
    // cross-section, by the cut of the sleeve; the map carries what lies before that one on.)
    void sTarget;
    for (const q of profile) {
      const sArm = s0 + q.at * scale;
      const c = section(sArm, halfOf(dist(q.outer, q.inner)));
      pair(part, q.outer, c.outer);
      pair(part, q.inner, c.inner);
    }
    parts.push(part);
  };
  const [jL, eL, wL] = arms.left ?? [b.shoulderL, b.elbowL, b.wristL];
  const [jR, eR, wR] = arms.right ?? [b.shoulderR, b.elbowR, b.wristR];
  sleeve(PART.left, g.sleeveLeft, jL, eL, wL, g.shoulderLeft, g.armpitLeft, sL, aL);
  sleeve(PART.right, g.sleeveRight, jR, eR, wR, g.shoulderRight, g.armpitRight, sR, aR);
  return {
    parts,
    box: boxOf(parts, b.sw * 0.3),
    neckY: Math.min(sL.y, sR.y) - b.sw * 0.06,
    scale,
    longSleeves,
    sleeveless: !g.sleeveLeft && !g.sleeveRight,
    armpitY: Math.max(aL.y, aR.y),
  };
}

function fitLower(g: LowerLandmarks, b: BodyFrame, mask: FloatMap): Fit {
  const sMid = mid(b.shoulderL, b.shoulderR);
  const down = norm({ x: b.hipMid.x - sMid.x, y: b.hipMid.y - sMid.y });
  const out = norm({ x: b.hipR.x - b.hipL.x, y: b.hipR.y - b.hipL.y });
  const waistC = add(b.hipMid, down, -b.torso * 0.1);
  const [ml, mr] = maskHalfWidth(mask, waistC.x, waistC.y);
  const hipHalf = dist(b.hipL, b.hipR) * 0.85;
  const half = Math.max(Math.min(ml, mr, hipHalf * 1.15), hipHalf * 0.85) * 1.04;
  const wL = add(waistC, out, -half);
  const wR = add(waistC, out, half);
  const gw = dist(g.waistLeft, g.waistRight);
  const scale = (2 * half) / Math.max(1, gw);
  const gWaistMid = mid(g.waistLeft, g.waistRight);
  const hips: FitPart = { id: PART.body, body: [wL, wR], garment: [g.waistLeft, g.waistRight], isBody: true };
  const parts: FitPart[] = [hips];
  let bottom = waistC.y;
  if (g.crotch && g.legLeft && g.legRight && g.hipLeft && g.hipRight) {
    const crotchDepth = (g.crotch.y - gWaistMid.y) * scale;
    const depth = Math.min(Math.max(crotchDepth, b.torso * 0.3), b.torso * 0.55);
    const crotchB = add(waistC, down, depth);
    const hipOutHalf = Math.max(half * 1.04, ((g.hipRight.x - g.hipLeft.x) * scale) / 2);
    const hipLB = add(add(waistC, down, depth), out, -hipOutHalf);
    const hipRB = add(add(waistC, down, depth), out, hipOutHalf);
    hips.garment.push(g.crotch, g.hipLeft, g.hipRight);
    hips.body.push(crotchB, hipLB, hipRB);
    hips.allUntilY = crotchB.y + b.torso * 0.15;
    // A leg is at least as wide as the person shows it there (old wide trousers are covered,
    // not left beside the new ones): outwards to the mask's edge, inwards to the mask's edge
    // or the body's centre line, each within 0.45 shoulder widths.
    const legSides = (p: Point, half: number, leftSide: boolean): [number, number] => {
      const [toLeft, toRight] = maskHalfWidth(mask, p.x, p.y);
      const centre = crotchB.x + ((p.y - crotchB.y) * (crotchB.x - waistC.x)) / Math.max(1, crotchB.y - waistC.y);
      const cap = b.sw * 0.45;
      const outer = Math.min(leftSide ? toLeft : toRight, cap);
      const inner = Math.min(leftSide ? toRight : toLeft, Math.abs(p.x - centre), cap);
      return [Math.max(half, outer), Math.max(half, inner)];
    };
    const leg = (
      id: number,
      lg: { outer: Point; inner: Point },
      gHipOuter: Point,
      hip: Point,
      knee: Point,
      ankle: Point,
      leftSide: boolean,
    ) => {
      const part: FitPart = { id, body: [], garment: [], isBody: false };
      const gOuterTop = gHipOuter;
      part.garment.push(gOuterTop, g.crotch!);
      part.body.push(leftSide ? hipLB : hipRB, crotchB);
      const gHem = mid(lg.outer, lg.inner);
      const gTop = mid(gOuterTop, g.crotch!);
      // The whole garment's length is kept: a crotch found too low in the photo (the gap
      // between the legs lost in shadow) is placed at the body's, and its legs get the rest.
      const gLen = Math.max(dist(gTop, gHem) * scale, (gHem.y - gWaistMid.y) * scale - depth);
      const legTop = add(hip, down, Math.max(0, depth - dist(waistC, b.hipMid)) * 0.5);
      const polyLen = dist(legTop, knee) + dist(knee, ankle);
      const reach = Math.min(gLen, polyLen * 1.04);
      const end = along([legTop, knee, ankle], reach);
      const nrm = { x: -end.dir.y, y: end.dir.x };
      const hemHalf = Math.max((dist(lg.outer, lg.inner) * scale) / 2, b.sw * 0.11);
      const sgn = leftSide ? (nrm.x < 0 ? 1 : -1) : nrm.x > 0 ? 1 : -1;
      const [hemOut, hemIn] = legSides(end.p, hemHalf, leftSide);
      part.garment.push(lg.outer, lg.inner);
      part.body.push(add(end.p, nrm, hemOut * sgn), add(end.p, nrm, -hemIn * sgn));
      // Knee-level points keep the leg on the body's leg.
      const gKneeO = lerp(gOuterTop, lg.outer, 0.5);
      const gKneeI = lerp(g.crotch!, lg.inner, 0.5);
      const mO = along([legTop, knee, ankle], reach * 0.5);
      const n2 = { x: -mO.dir.y, y: mO.dir.x };
      const s2 = leftSide ? (n2.x < 0 ? 1 : -1) : n2.x > 0 ? 1 : -1;
      const kneeHalf = Math.max((dist(gKneeO, gKneeI) * scale) / 2, b.sw * 0.12);
      const [kneeOut, kneeIn] = legSides(mO.p, kneeHalf, leftSide);
      part.garment.push(gKneeO, gKneeI);
      part.body.push(add(mO.p, n2, kneeOut * s2), add(mO.p, n2, -kneeIn * s2));
      bottom = Math.max(bottom, end.p.y);
      parts.push(part);
    };
    leg(PART.left, g.legLeft, g.hipLeft, b.hipL, b.kneeL, b.ankleL, true);
    leg(PART.right, g.legRight, g.hipRight, b.hipR, b.kneeR, b.ankleR, false);
  } else {
    const gLen = (mid(g.hemLeft, g.hemRight).y - gWaistMid.y) * scale;
    const hemC = add(waistC, down, gLen);
    const hemHalf = Math.max((dist(g.hemLeft, g.hemRight) * scale) / 2, hipHalf);
    hips.garment.push(g.hemLeft, g.hemRight);
    hips.body.push(add(hemC, out, -hemHalf), add(hemC, out, hemHalf));
    const gMidL = lerp(g.waistLeft, g.hemLeft, 0.5);
    const gMidR = lerp(g.waistRight, g.hemRight, 0.5);
    const midC = add(waistC, down, gLen * 0.5);
    const midHalf = Math.max((dist(gMidL, gMidR) * scale) / 2, hipHalf * 1.05);
    hips.garment.push(gMidL, gMidR);
    hips.body.push(add(midC, out, -midHalf), add(midC, out, midHalf));
    bottom = hemC.y;
  }
  return {
    parts,
    box: boxOf(parts, b.sw * 0.3, bottom),
    neckY: waistC.y - b.torso * 0.08,
    scale,
    longSleeves: false,
    sleeveless: true,
    armpitY: waistC.y,
  };
}

/** An arm's centre line as the photo shows it (shoulder, elbow, wrist), image-left and image-right. */
export interface ArmLines {
  left?: [Point, Point, Point];
  right?: [Point, Point, Point];
}

/** `arms`: the arms' centre lines read from the photo (arm-model.ts); the sleeves follow them. */
export function fitGarment(
  g: GarmentLandmarks,
  b: BodyFrame,
  mask: FloatMap,
  category: Category,
  arms: ArmLines = {},
): Fit {
  return g.kind === 'lower' ? fitLower(g, b, mask) : fitUpper(g, b, mask, category, arms);
}
