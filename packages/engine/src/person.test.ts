import { describe, expect, it } from 'vitest';
import { KP, plausibleHips } from './person.js';
import { syntheticKeypoints } from './synthetic.js';

describe('plausible hips', () => {
  it('keeps hips that are at least 1.2 shoulder widths below the shoulders', () => {
    const k = syntheticKeypoints(100, 100); // shoulders 20 apart at y 22, hips at y 52
    expect(plausibleHips(k)).toBe(k);
  });

  it('moves hips placed too high (hidden under a jacket) down to 1.45 shoulder widths, along the body axis', () => {
    const k = syntheticKeypoints(100, 100);
    k[KP.leftHip] = { x: 56, y: 30, score: 1 };
    k[KP.rightHip] = { x: 44, y: 30, score: 1 };
    const out = plausibleHips(k);
    expect(out[KP.leftHip]!.y).toBeCloseTo(22 + 29, 5);
    expect(out[KP.rightHip]!.y).toBeCloseTo(22 + 29, 5);
    expect(out[KP.leftHip]!.x).toBeCloseTo(56, 5);
    expect(out[KP.rightHip]!.x).toBeCloseTo(44, 5);
    // Nothing else moves.
    expect(out[KP.leftKnee]).toEqual(k[KP.leftKnee]);
    expect(out[KP.leftShoulder]).toEqual(k[KP.leftShoulder]);
  });
});
