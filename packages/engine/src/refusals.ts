/**
 * The engine's refusals: a photo it cannot dress (before the work) and a result its own
 * figures call broken (after it). Each has its own error code; the server refunds them.
 */
import type { Category } from '@aidressup/contract';
import { EngineError } from './types.js';
import { KP, type PersonAnalysis } from './person.js';
import { bodyFrame } from './fit.js';
import type { ShopperFigures } from './quality.js';
import { isWornGarment, type WornEvidence } from './garment-worn.js';

/**
 * Is someone there? Refused only when sure no one is: a person shows a head on top of a body (the
 * worn-garment check's evidence, garment-worn.ts), or legs (knees and ankles the pose model sees,
 * in the person model's mask: a photo from the waist down), or a body pose with skin at the face or
 * the hands. The pose model's own score is not enough on its own: a dress on a hanger can score
 * high, a real person low.
 */
function personFound(p: PersonAnalysis, head: boolean): boolean {
  const k = p.keypoints;
  const vis = (i: number) => k[i]!.score;
  let area = 0;
  let n = 0;
  for (let i = 0; i < p.mask.data.length; i += 7) {
    n++;
    if (p.mask.data[i]! > 0.5) area++;
  }
  const legs =
    Math.max(vis(KP.leftKnee), vis(KP.rightKnee)) >= 0.85 &&
    Math.max(vis(KP.leftAnkle), vis(KP.rightAnkle)) >= 0.8 &&
    area / Math.max(1, n) >= 0.2;
  const skinAndPose =
    (p.poseScore >= 0.95 && p.skin >= 1) || (p.poseScore >= 0.5 && p.skin >= 2) || (p.poseScore >= 0.1 && p.skin >= 3);
  return head || legs || skinAndPose;
}

/**
 * Refusals that depend on the category: the body region the garment covers must be in the photo.
 * `head`: the photo shows a head on top of a body (garment-worn.ts).
 */
export function checkPerson(p: PersonAnalysis, category: Category, head = false): void {
  const k = p.keypoints;
  const vis = (i: number) => k[i]!.score;
  const inFrame = (i: number, slack = 0.02) =>
    k[i]!.x >= -p.width * slack &&
    k[i]!.x <= p.width * (1 + slack) &&
    k[i]!.y >= -p.height * slack &&
    k[i]!.y <= p.height * (1 + slack);
  let area = 0;
  let n = 0;
  for (let i = 0; i < p.mask.data.length; i += 7) {
    n++;
    if (p.mask.data[i]! > 0.5) area++;
  }
  const areaFrac = area / Math.max(1, n);
  const shouldersSeen = vis(KP.leftShoulder) > 0.5 && vis(KP.rightShoulder) > 0.5;
  const hipsSeen = vis(KP.leftHip) > 0.35 || vis(KP.rightHip) > 0.35;
  if (!personFound(p, head) || areaFrac < 0.02 || (!shouldersSeen && !hipsSeen))
    throw new EngineError('PERSON_NOT_FOUND');
  if (p.peopleCount >= 2) throw new EngineError('MULTIPLE_PEOPLE');
  const b = bodyFrame(k);
  const minSide = Math.min(p.width, p.height);
  if (b.sw < minSide * 0.06 || areaFrac < 0.04) throw new EngineError('PERSON_TOO_SMALL');
  const need: number[] =
    category === 'upper_body'
      ? [KP.leftShoulder, KP.rightShoulder]
      : category === 'lower_body'
        ? [KP.leftHip, KP.rightHip, KP.leftKnee, KP.rightKnee]
        : [KP.leftShoulder, KP.rightShoulder, KP.leftHip, KP.rightHip];
  for (const i of need) if (!inFrame(i, 0.01)) throw new EngineError('PERSON_TOO_SMALL');
  if (category === 'upper_body') {
    // Hips may be just below the frame edge for a head-to-hips photo.
    const hipY = (k[KP.leftHip]!.y + k[KP.rightHip]!.y) / 2;
    if (hipY > p.height * 1.15) throw new EngineError('PERSON_TOO_SMALL');
  }
  if (category === 'lower_body' || category === 'dresses') {
    // The knees must really be in the photo (the model also guesses hidden ones).
    const kneeY = Math.min(k[KP.leftKnee]!.y, k[KP.rightKnee]!.y);
    const kneeSeen = Math.max(vis(KP.leftKnee), vis(KP.rightKnee));
    if (kneeY > p.height * 1.02 || kneeSeen < 0.5) throw new EngineError('PERSON_TOO_SMALL');
  }
}

/**
 * A clothing photo the engine cannot cut a garment out of because someone is wearing it (a studio
 * product photo of a model): the cut-out would carry the model's arms, neck and face onto the
 * shopper. The evidence and the rule are in garment-worn.ts.
 */
export function checkGarmentNotWorn(e: WornEvidence): void {
  if (isWornGarment(e)) {
    const f = (v: number | null) => (v === null ? '-' : v.toFixed(2));
    throw new EngineError(
      'GARMENT_WORN',
      undefined,
      `person in the garment photo: pose ${f(e.pose)}, face skin ${f(e.faceSkin)}, head run ${f(e.headRun)} (cut-out ${f(e.headCutRun)}) head widths, shoulder row ${f(e.shoulderRowWidth)} shoulder widths, torso skin ${f(e.torsoSkin)}`,
    );
  }
}

/**
 * The engine's own checks on its result: a garment that could not be placed on the body,
 * or most of which fell off it (or broke apart), is refused rather than shown; the
 * shopper is not charged. Thresholds sit well beyond what real photos give when the
 * result is usable (see docs/local-engine.md).
 */
export function checkResult(q: ShopperFigures): void {
  const f = (v: number) => v.toFixed(2);
  const detail = `offset ${f(q.offset)}, kept ${f(q.kept)}, pieces ${f(q.pieces)} (garment's own ${f(q.garmentPieces)})`;
  if (q.offset > 0.3) throw new EngineError('GARMENT_NOT_PLACED', undefined, `garment beside the body: ${detail}`);
  if (q.kept < 0.2)
    throw new EngineError('GARMENT_NOT_PLACED', undefined, `most of the garment fell off the body: ${detail}`);
  if (q.pieces > 0.4 && q.garmentPieces < 0.05)
    throw new EngineError('GARMENT_NOT_PLACED', undefined, `garment broke apart: ${detail}`);
}
