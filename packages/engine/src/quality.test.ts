import { describe, expect, it } from 'vitest';
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import { largestPiece, outline, shopperFigures, type QualityInput } from './quality.js';
import { syntheticKeypoints } from './synthetic.js';

const W = 200;
const H = 300;

function rect(m: FloatMap, x0: number, y0: number, x1: number, y1: number, v = 1): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m.data[y * m.width + x] = v;
}

/** A grey person (a torso column) in a grey shirt; the garment's cut-out is a 60 × 90 rectangle. */
function input(layer: FloatMap): QualityInput {
  const person: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(120) };
  const personMask = createMap(W, H);
  rect(personMask, 70, 20, 130, 290);
  const cut = { width: 60, height: 90, data: new Uint8Array(60 * 90).fill(1) };
  return {
    category: 'upper_body',
    layer,
    final: layer,
    person,
    personMask,
    hard: createMap(W, H),
    keypoints: syntheticKeypoints(W, H),
    cutout: cut,
    cutoutToWork: 1,
    topY: 70,
    hemY: 158,
  };
}

describe('shopper figures', () => {
  it('a garment centred on the torso: no offset, nothing left showing, one piece, clean edges', () => {
    const layer = createMap(W, H);
    rect(layer, 70, 65, 130, 160);
    const f = shopperFigures(input(layer));
    expect(f.offset).toBeLessThan(0.02);
    expect(f.remnant).toBe(0);
    expect(f.pieces).toBe(0);
    expect(f.ragged).toBeGreaterThan(0.9);
    expect(f.ragged).toBeLessThan(1.15);
  });

  it('a garment laid beside the body, at a fraction of its size: large offset, the old top shows', () => {
    const layer = createMap(W, H);
    rect(layer, 140, 70, 170, 110);
    const f = shopperFigures(input(layer));
    expect(f.offset).toBeGreaterThan(0.5);
    expect(f.remnant).toBeGreaterThan(0.9);
    expect(f.kept).toBeLessThan(0.3);
  });

  it('fragments and torn edges: pieces and ragged edges count them', () => {
    const layer = createMap(W, H);
    rect(layer, 70, 65, 130, 110);
    rect(layer, 70, 120, 130, 160);
    for (let y = 65; y < 160; y += 2) rect(layer, 66, y, 70, y + 1);
    const f = shopperFigures(input(layer));
    expect(f.pieces).toBeGreaterThan(0.3);
    expect(f.ragged).toBeGreaterThan(1.3);
    expect(f.remnant).toBeGreaterThan(0.08);
  });

  it('largest piece and outline on small masks', () => {
    const m = new Uint8Array([1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1]);
    expect(largestPiece(m, 4, 3)).toEqual({ total: 6, largest: 4 });
    expect(outline(new Uint8Array([1, 1, 1, 1]), 2, 2)).toEqual({ perimeter: 8, area: 4 });
  });
});
