import { describe, expect, it } from 'vitest';
import type { RGBAImage } from './image.js';
import { changedRegion, colorHistogram, histogramIntersection, scoreTryOn } from './metrics.js';
import { syntheticKeypoints } from './synthetic.js';

function solid(w: number, h: number, c: [number, number, number]): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  for (let i = 0; i < w * h; i++) img.data.set([c[0], c[1], c[2], 255], i * 4);
  return img;
}

function paint(img: RGBAImage, x0: number, y0: number, x1: number, y1: number, c: [number, number, number]): void {
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) img.data.set([c[0], c[1], c[2], 255], (y * img.width + x) * 4);
}

describe('metrics', () => {
  it('histogram intersection is 1 for the same colours and 0 for disjoint ones', () => {
    const a = colorHistogram(solid(10, 10, [200, 30, 30]));
    const b = colorHistogram(solid(20, 5, [200, 30, 30]));
    const c = colorHistogram(solid(10, 10, [20, 30, 200]));
    expect(histogramIntersection(a, b)).toBeCloseTo(1, 9);
    expect(histogramIntersection(a, c)).toBe(0);
  });

  it('finds exactly the changed rectangle', () => {
    const a = solid(50, 50, [100, 100, 100]);
    const b = solid(50, 50, [100, 100, 100]);
    paint(b, 10, 20, 30, 40, [200, 0, 0]);
    const m = changedRegion(a, b, 16, 0);
    let n = 0;
    for (const v of m) n += v;
    expect(n).toBe(20 * 20);
    expect(m[25 * 50 + 15]).toBe(1);
    expect(m[5 * 50 + 5]).toBe(0);
  });

  it('scores a torso recolour as transferred, preserved and placed; a face change fails preservation', () => {
    const w = 200;
    const h = 300;
    const person = solid(w, h, [120, 120, 120]);
    paint(person, 80, 66, 120, 156, [20, 20, 20]); // old black top
    const kps = syntheticKeypoints(w, h); // shoulders at 0.22 h, hips at 0.52 h
    const garment = solid(60, 60, [30, 90, 200]);
    const alpha = new Float32Array(60 * 60).fill(1);
    const result = solid(w, h, [120, 120, 120]);
    paint(result, 80, 66, 120, 156, [30, 90, 200]);
    const s = scoreTryOn(person, garment, alpha, result, 'upper_body', kps);
    expect(s.transfer.pass).toBe(true);
    expect(s.transfer.result).toBeGreaterThan(0.75); // the region is grown by 3 px into the grey around it
    expect(s.transfer.original).toBe(0);
    expect(s.preservation.pass).toBe(true);
    expect(s.placement.pass).toBe(true);
    // The same garment painted over the face: placement and preservation fail.
    const bad = solid(w, h, [120, 120, 120]);
    paint(bad, 80, 66, 120, 156, [20, 20, 20]);
    paint(bad, 80, 10, 120, 50, [30, 90, 200]);
    const s2 = scoreTryOn(person, garment, alpha, bad, 'upper_body', kps);
    expect(s2.preservation.pass).toBe(false);
    expect(s2.placement.pass).toBe(false);
    // A lower-body garment on the chest is misplaced.
    expect(scoreTryOn(person, garment, alpha, result, 'lower_body', kps).placement.pass).toBe(false);
  });

  it('fails preservation when the whole photo shifts slightly', () => {
    const person = solid(100, 100, [120, 120, 120]);
    const result = solid(100, 100, [124, 124, 124]);
    const s = scoreTryOn(
      person,
      solid(10, 10, [0, 0, 0]),
      new Float32Array(100).fill(1),
      result,
      'upper_body',
      syntheticKeypoints(100, 100),
    );
    expect(s.preservation.meanAbsDiff).toBeCloseTo(4 / 255, 6);
    expect(s.preservation.pass).toBe(false);
  });
});
