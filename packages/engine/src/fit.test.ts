import { describe, expect, it } from 'vitest';
import { bodyFrame, fitGarment } from './fit.js';
import type { UpperLandmarks } from './types.js';
import { createMap } from './image.js';
import { syntheticKeypoints } from './synthetic.js';

const W = 400;
const H = 400;
const kps = syntheticKeypoints(W, H); // shoulders at x 160 / 240 (sw 80), y 88; hips at y 208
const body = bodyFrame(kps);
const mask = createMap(W, H);
for (let y = 30; y < 390; y++) for (let x = 140; x < 260; x++) mask.data[y * W + x] = 1;

function landmarks(shoulderHalf: number): UpperLandmarks {
  const p = (x: number, y: number) => ({ x, y });
  return {
    kind: 'upper',
    neckLeft: p(200 - 20, 20),
    neckRight: p(200 + 20, 20),
    shoulderLeft: p(200 - shoulderHalf, 20),
    shoulderRight: p(200 + shoulderHalf, 20),
    armpitLeft: p(110, 110),
    armpitRight: p(290, 110),
    sleeveLeft: null,
    sleeveRight: null,
    hemLeft: p(100, 420),
    hemRight: p(300, 420),
    waistLeft: p(130, 200),
    waistRight: p(270, 200),
  };
}

describe('fitting a top', () => {
  it('sizes a top by its shoulders', () => {
    const fit = fitGarment(landmarks(90), body, mask, 'dresses');
    expect(fit.scale).toBeCloseTo((body.sw * 1.22) / 180, 6);
  });

  it('sizes a strap or halter top by its chest, so it does not balloon', () => {
    // Strap tops 40 apart, armpits 180 apart: by the straps the dress would be 4.5× too big.
    const fit = fitGarment(landmarks(20), body, mask, 'dresses');
    expect(fit.scale).toBeCloseTo((body.sw * 1.15) / 180, 6);
    // The straps keep their own places, between the shoulders.
    const torso = fit.parts[0]!;
    const strap = torso.body[0]!;
    expect(strap.x).toBeGreaterThan(body.shoulderL.x);
    expect(strap.x).toBeLessThan(body.shoulderR.x);
    // Coinciding landmarks (strap top = neckline corner) are paired once.
    const l = { ...landmarks(20), neckLeft: { x: 170, y: 20 }, neckRight: { x: 230, y: 20 } };
    const apart = fitGarment(l, body, mask, 'dresses').parts[0]!.garment.length;
    const same = fitGarment({ ...l, neckLeft: { ...l.shoulderLeft } }, body, mask, 'dresses').parts[0]!.garment.length;
    expect(same).toBe(apart - 1);
  });

  it('never stretches a dress waist by more than a third of its own width', () => {
    const wide = createMap(W, H, 1);
    const fit = fitGarment(landmarks(90), body, wide, 'dresses');
    const torso = fit.parts[0]!;
    const i = torso.garment.findIndex((g) => g.y === 200 && g.x === 130);
    const j = torso.garment.findIndex((g) => g.y === 200 && g.x === 270);
    const width = torso.body[j]!.x - torso.body[i]!.x;
    expect(width).toBeLessThanOrEqual(140 * fit.scale * 1.35 + 1e-6);
  });
});
