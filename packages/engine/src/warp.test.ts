import { describe, expect, it } from 'vitest';
import { createMap, type RGBAImage } from './image.js';
import { applyTps, fitTps, warpImage } from './warp.js';

describe('thin-plate spline', () => {
  it('passes exactly through its control points', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 0, y: 100 },
      { x: 100, y: 100 },
      { x: 50, y: 50 },
    ];
    const to = [
      { x: 10, y: 5 },
      { x: 120, y: 0 },
      { x: 0, y: 110 },
      { x: 95, y: 90 },
      { x: 60, y: 40 },
    ];
    const t = fitTps(from, to, 0);
    from.forEach((p, i) => {
      const q = applyTps(t, p.x, p.y);
      expect(q.x).toBeCloseTo(to[i]!.x, 6);
      expect(q.y).toBeCloseTo(to[i]!.y, 6);
    });
  });

  it('reproduces an affine map everywhere (no bending where none is asked)', () => {
    const affine = (p: { x: number; y: number }) => ({ x: 1.5 * p.x - 0.2 * p.y + 7, y: 0.3 * p.x + 0.8 * p.y - 3 });
    const from = [
      { x: 0, y: 0 },
      { x: 200, y: 10 },
      { x: 30, y: 180 },
      { x: 150, y: 160 },
      { x: 90, y: 70 },
    ];
    const t = fitTps(from, from.map(affine), 0);
    for (const p of [
      { x: -50, y: 20 },
      { x: 300, y: 300 },
      { x: 123, y: 45 },
    ]) {
      const q = applyTps(t, p.x, p.y);
      const e = affine(p);
      expect(q.x).toBeCloseTo(e.x, 5);
      expect(q.y).toBeCloseTo(e.y, 5);
    }
  });

  it('bends smoothly between control points', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 0, y: 100 },
      { x: 100, y: 100 },
      { x: 50, y: 50 },
    ];
    const to = from.map((p, i) => (i === 4 ? { x: 50, y: 70 } : p));
    const t = fitTps(from, to, 0);
    const q = applyTps(t, 50, 40);
    expect(q.y).toBeGreaterThan(40);
    expect(q.y).toBeLessThan(70);
  });
});

describe('warpImage', () => {
  it('moves a rectangle by the translation the spline describes', () => {
    const w = 80;
    const h = 60;
    const src: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    const alpha = createMap(w, h);
    for (let y = 20; y < 40; y++)
      for (let x = 10; x < 30; x++) {
        alpha.data[y * w + x] = 1;
        src.data[(y * w + x) * 4] = 200;
      }
    // Destination → source: a destination pixel (x, y) shows source (x - 25, y - 7).
    const body = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 0, y: 100 },
      { x: 100, y: 100 },
    ];
    const inverse = fitTps(
      body,
      body.map((p) => ({ x: p.x - 25, y: p.y - 7 })),
      0,
    );
    const out = warpImage(src, alpha, inverse, { x0: 0, y0: 0, x1: 99, y1: 79 }, 4);
    expect(out.image.width).toBe(100);
    const a = (x: number, y: number) => out.alpha.data[y * 100 + x]!;
    expect(a(35 + 10, 27 + 10)).toBeCloseTo(1, 5); // inside the moved rectangle
    expect(a(35, 27)).toBeCloseTo(1, 5); // its top-left corner
    expect(a(34, 27)).toBe(0); // just outside
    expect(a(15, 25)).toBe(0); // where it used to be
    expect(out.image.data[((27 + 5) * 100 + 40) * 4]).toBe(200);
  });

  it('only samples the requested garment part', () => {
    const w = 40;
    const h = 20;
    const src: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    const alpha = createMap(w, h, 1);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) src.data[(y * w + x) * 4 + 3] = x < 20 ? 80 : 255;
    const pts = [
      { x: 0, y: 0 },
      { x: 39, y: 0 },
      { x: 0, y: 19 },
      { x: 39, y: 19 },
    ];
    const identity = fitTps(pts, pts, 0);
    const out = warpImage(src, alpha, identity, { x0: 0, y0: 0, x1: 39, y1: 19 }, 4, { id: 80 });
    expect(out.alpha.data[10 * 40 + 5]).toBeGreaterThan(0.99);
    expect(out.alpha.data[10 * 40 + 30]).toBe(0);
  });
});
