/**
 * The engine's refusals: a photo it cannot dress (before the work) and a result its own
 * figures call broken (after it). Each has its own error code; the server refunds them.
 */
import type { Category } from '@aidressup/contract';
import { EngineError } from './types.js';
import { KP, type PersonAnalysis } from './person.js';
import { bodyFrame } from './fit.js';
import type { ShopperFigures } from './quality.js';

/** Refusals that depend on the category: the body region the garment covers must be in the photo. */
export function checkPerson(p: PersonAnalysis, category: Category): void {
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
  // The pose model's own score is not enough on its own (a dress on a hanger can score
  // high, a real person low): a person also shows skin at the face or the hands.
  const found =
    (p.poseScore >= 0.95 && p.skin >= 1) || (p.poseScore >= 0.5 && p.skin >= 2) || (p.poseScore >= 0.1 && p.skin >= 3);
  if (!found || areaFrac < 0.02 || (!shouldersSeen && !hipsSeen)) throw new EngineError('PERSON_NOT_FOUND');
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
 * shopper. Found the way `checkPerson` finds a person, with its two stricter rules only (a body
 * pose and skin at two or more of face and hands): flat and hanger shots of garments reach a
 * high pose score but show skin at one place at most (a printed face, a skin-toned garment), so
 * they are not refused (docs/local-engine.md has the figures).
 */
export function checkGarmentNotWorn(p: PersonAnalysis): void {
  const worn = (p.poseScore >= 0.5 && p.skin >= 2) || (p.poseScore >= 0.1 && p.skin >= 3);
  if (worn)
    throw new EngineError(
      'GARMENT_WORN',
      undefined,
      `person in the garment photo: pose ${p.poseScore.toFixed(2)}, skin ${p.skin}`,
    );
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
