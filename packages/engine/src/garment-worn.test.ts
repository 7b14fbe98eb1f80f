/**
 * The worn-garment check: refused only on a head on top of a body of the garment's scale, never on
 * a print or a skin-coloured garment. The photos are the repository's openly licensed ones
 * (test-fixtures/LICENSES.md) and photos made from them (synthetic-photos.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isWornGarment, WORN_RULE, type WornEvidence } from './garment-worn.js';
import { createPhotoChecks, type PhotoChecks } from './photo-checks.js';
import { syntheticProductPhotos, TEST_FIXTURES } from './synthetic-photos.js';

/** Evidence a person in a studio photo gives: well inside every threshold. */
const person: WornEvidence = {
  pose: 0.99,
  faceY: 0.1,
  faceSkin: 0.95,
  headRun: 1.6,
  headCutRun: 1.7,
  shoulderRowWidth: 1.4,
  torsoSkin: 0.05,
  necklineBelowFace: true,
};

describe('the decision', () => {
  it('refuses when every piece of evidence holds', () => {
    expect(isWornGarment(person)).toBe(true);
  });

  it.each<[string, Partial<WornEvidence>]>([
    ['the pose model is not sure of a person', { pose: WORN_RULE.minPose - 0.01 }],
    ['the face lies far above the photo', { faceY: -0.2 }],
    ['no skin where the face should be (a ghost mannequin)', { faceSkin: 0.2 }],
    ['the face is outside the person mask', { headRun: 0 }],
    ['the face sits in a row as wide as a shirt (a print)', { headRun: 6.3 }],
    ['the cut-out around the face is a garment, not a head', { headCutRun: 7.1 }],
    ['the body is much smaller than the garment (a printed figure)', { shoulderRowWidth: 4.1 }],
    ['the garment is skin-coloured, with no neckline below the face', { torsoSkin: 0.9, necklineBelowFace: false }],
  ])('does not refuse when %s', (_, change) => {
    expect(isWornGarment({ ...person, ...change })).toBe(false);
  });

  it('a skin-coloured top under a head with a neckline is still a person', () => {
    expect(isWornGarment({ ...person, torsoSkin: 0.9, necklineBelowFace: true })).toBe(true);
  });

  it('a photo without a cut-out is judged on the person model alone', () => {
    expect(isWornGarment({ ...person, headCutRun: null, shoulderRowWidth: null })).toBe(true);
  });
});

describe('on photos', () => {
  let checks: PhotoChecks;
  beforeAll(async () => {
    checks = await createPhotoChecks();
  });
  const read = (rel: string) => new Uint8Array(readFileSync(join(TEST_FIXTURES, rel)));

  it('passes T-shirts with a printed face or person, and a peach T-shirt', async () => {
    const photos = await syntheticProductPhotos();
    expect(photos.map((p) => p.name)).toEqual(
      expect.arrayContaining(['synthetic:cartoon-face-tee', 'synthetic:photo-print-tee', 'synthetic:peach-tee']),
    );
    for (const p of photos) {
      const v = await checks.garment(p.bytes);
      expect(v.refused, `${p.name}: ${JSON.stringify(await checks.wornEvidence(p.bytes))}`).toBeNull();
    }
  });

  it('refuses photos of a model wearing the garment', async () => {
    for (const file of [
      'person/woman_blouse_skirt.jpg',
      'person/woman_croptop_skirt.jpg',
      'person/man_leather_jacket_upper.jpg',
    ]) {
      const v = await checks.garment(read(file));
      expect(v.refused, `${file}: ${v.detail ?? ''}`).toBe('GARMENT_WORN');
    }
  });

  it('a printed photo of a person looks like a person to the models; the garment around it says it is a print', async () => {
    const print = (await syntheticProductPhotos()).find((p) => p.name === 'synthetic:portrait-print-tee')!;
    const e = await checks.wornEvidence(print.bytes);
    // The person and pose models see a person, with skin at the face…
    expect(e.pose).toBeGreaterThanOrEqual(WORN_RULE.minPose);
    expect(e.faceSkin).toBeGreaterThanOrEqual(WORN_RULE.minFaceSkin);
    // …but the printed head sits inside the shirt, and the printed body is much smaller than it.
    expect(e.headCutRun).toBeGreaterThan(WORN_RULE.maxHeadCutRun);
    expect(e.shoulderRowWidth).toBeGreaterThan(WORN_RULE.maxShoulderRowWidth);
    expect(isWornGarment(e)).toBe(false);
  });
});
