import { describe, expect, it } from 'vitest';
import { createMap, type FloatMap, type RGBAImage } from './image.js';
import { applyTps, applyTpsInto, fitTps, type Tps } from './tps.js';
import { warpImage, type Box } from './warp.js';

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

/** The plain per-pixel backward warp (every pixel of the box, every grid point checked). */
function referenceWarp(
  src: RGBAImage,
  srcAlpha: FloatMap,
  inverse: Tps,
  box: Box,
  step: number,
  part?: { id: number; forward?: Tps; tolerance?: number },
) {
  const x0 = Math.floor(box.x0);
  const y0 = Math.floor(box.y0);
  const width = Math.ceil(box.x1) - x0 + 1;
  const height = Math.ceil(box.y1) - y0 + 1;
  const img = new Float64Array(width * height * 4);
  const alpha = new Float64Array(width * height);
  const gw = Math.ceil(width / step) + 2;
  const gh = Math.ceil(height / step) + 2;
  const gx = new Float64Array(gw * gh);
  const gy = new Float64Array(gw * gh);
  for (let j = 0; j < gh; j++)
    for (let i = 0; i < gw; i++) {
      const p = applyTps(inverse, x0 + i * step, y0 + j * step);
      gx[j * gw + i] = Math.fround(p.x);
      gy[j * gw + i] = Math.fround(p.y);
      if (part?.forward) {
        const q = applyTps(part.forward, p.x, p.y);
        if (Math.hypot(q.x - (x0 + i * step), q.y - (y0 + j * step)) > (part.tolerance ?? 8)) gx[j * gw + i] = -1e9;
      }
    }
  const { width: sw, height: sh, data: sd } = src;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = Math.floor(x / step);
      const j = Math.floor(y / step);
      const tx = x / step - i;
      const ty = y / step - j;
      const k = j * gw + i;
      if (gx[k]! < -1e8 || gx[k + 1]! < -1e8 || gx[k + gw]! < -1e8 || gx[k + gw + 1]! < -1e8) continue;
      const sx =
        (gx[k]! * (1 - tx) + gx[k + 1]! * tx) * (1 - ty) + (gx[k + gw]! * (1 - tx) + gx[k + gw + 1]! * tx) * ty;
      const sy =
        (gy[k]! * (1 - tx) + gy[k + 1]! * tx) * (1 - ty) + (gy[k + gw]! * (1 - tx) + gy[k + gw + 1]! * tx) * ty;
      if (sx < 0 || sy < 0 || sx > sw - 1 || sy > sh - 1) continue;
      const xa = Math.floor(sx);
      const ya = Math.floor(sy);
      const xb = Math.min(xa + 1, sw - 1);
      const yb = Math.min(ya + 1, sh - 1);
      const fx = sx - xa;
      const fy = sy - ya;
      const nearest = (fy < 0.5 ? ya : yb) * sw + (fx < 0.5 ? xa : xb);
      if (part && sd[nearest * 4 + 3] !== part.id) continue;
      const ws: [number, number][] = [
        [ya * sw + xa, (1 - fx) * (1 - fy)],
        [ya * sw + xb, fx * (1 - fy)],
        [yb * sw + xa, (1 - fx) * fy],
        [yb * sw + xb, fx * fy],
      ];
      const a = ws.reduce((s, [q, wq]) => s + srcAlpha.data[q]! * wq, 0);
      if (a <= 0.003) continue;
      alpha[y * width + x] = a;
      for (let c = 0; c < 3; c++) img[(y * width + x) * 4 + c] = ws.reduce((s, [q, wq]) => s + sd[q * 4 + c]! * wq, 0);
    }
  return { img, alpha, width, height };
}

describe('warpImage against the plain per-pixel warp', () => {
  // A garment image: two parts (labels 80 and 255) with soft edges, on a label-255 background of alpha 0.
  const w = 90;
  const h = 70;
  const src: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  const alpha = createMap(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      src.data[o] = (x * 3) % 256;
      src.data[o + 1] = (y * 5) % 256;
      src.data[o + 2] = (x * y) % 256;
      const inSleeve = x >= 8 && x < 30 && y >= 10 && y < 30;
      const inBody = x >= 35 && x < 80 && y >= 5 && y < 65;
      src.data[o + 3] = inSleeve || (x < 33 && y < 40) ? 80 : 255;
      alpha.data[y * w + x] = inSleeve || inBody ? (x % 7 === 0 ? 0.5 : 1) : 0;
    }
  const body = [
    { x: 20, y: 20 },
    { x: 140, y: 30 },
    { x: 30, y: 150 },
    { x: 150, y: 160 },
    { x: 90, y: 90 },
    { x: 60, y: 40 },
  ];
  // A bent map from the destination (160 × 180) into the garment (with a fold near the middle).
  const garment = [
    { x: 5, y: 5 },
    { x: 85, y: 8 },
    { x: 8, y: 66 },
    { x: 84, y: 64 },
    { x: 30, y: 50 },
    { x: 60, y: 20 },
  ];
  const inverse = fitTps(body, garment, 0.001);
  const forward = fitTps(garment, body, 0.001);
  const box = { x0: 3, y0: 2, x1: 170, y1: 190 };

  for (const [name, part, step] of [
    ['sleeve with fold check', { id: 80, forward, tolerance: 15 }, 4],
    ['sleeve without fold check', { id: 80 }, 4],
    ['body with fold check', { id: 255, forward, tolerance: 6 }, 4],
    ['body without fold check', { id: 255 }, 4],
    ['no part, step 3', undefined, 3],
  ] as const) {
    it(`draws exactly the same pixels (${name})`, () => {
      const got = warpImage(src, alpha, inverse, box, step, part);
      const want = referenceWarp(src, alpha, inverse, box, step, part);
      expect(got.image.width).toBe(want.width);
      expect(got.image.height).toBe(want.height);
      let drawn = 0;
      let dropped = 0;
      let alphaDiff = 0;
      let colourDiff = 0;
      for (let i = 0; i < want.alpha.length; i++) {
        alphaDiff = Math.max(alphaDiff, Math.abs(got.alpha.data[i]! - want.alpha[i]!));
        if (want.alpha[i]! > 0) drawn++;
        else dropped++;
        for (let c = 0; c < 3; c++)
          colourDiff = Math.max(colourDiff, Math.abs(got.image.data[i * 4 + c]! - want.img[i * 4 + c]!));
      }
      expect(alphaDiff).toBeLessThan(1e-6);
      expect(colourDiff).toBeLessThanOrEqual(0.5);
      expect(drawn).toBeGreaterThan(100);
      expect(dropped).toBeGreaterThan(1000);
      // Nothing drawn outside the reported rectangle, which is tight to a grid cell.
      const d = got.drawn!;
      let ix0 = Infinity;
      let ix1 = -1;
      let iy0 = Infinity;
      let iy1 = -1;
      for (let y = 0; y < want.height; y++)
        for (let x = 0; x < want.width; x++)
          if (want.alpha[y * want.width + x]! > 0) {
            ix0 = Math.min(ix0, x);
            ix1 = Math.max(ix1, x);
            iy0 = Math.min(iy0, y);
            iy1 = Math.max(iy1, y);
          }
      expect(d.x0).toBeLessThanOrEqual(ix0);
      expect(d.y0).toBeLessThanOrEqual(iy0);
      expect(d.x1).toBeGreaterThanOrEqual(ix1);
      expect(d.y1).toBeGreaterThanOrEqual(iy1);
      expect(ix0 - d.x0).toBeLessThan(4 * step);
      expect(d.x1 - ix1).toBeLessThan(4 * step);
    });
  }

  it('applyTpsInto evaluates like applyTps', () => {
    const xy = new Float64Array([0, 0, 33.5, 17.25, 160, 180, -20, 400]);
    const out = applyTpsInto(inverse, xy, new Float64Array(xy.length));
    for (let k = 0; k < xy.length; k += 2) {
      const p = applyTps(inverse, xy[k]!, xy[k + 1]!);
      expect(out[k]).toBe(p.x);
      expect(out[k + 1]).toBe(p.y);
    }
  });
});
