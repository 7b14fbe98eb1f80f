import { describe, expect, it } from 'vitest';
import type { RGBAImage } from './image.js';
import { GarmentSeparationError, segmentGarment } from './garment-segmentation.js';
import { partLabels } from './garment-landmarks.js';
import { lowerLandmarks } from './lower-landmarks.js';
import { upperLandmarks } from './upper-landmarks.js';
import { fillHoles, morph } from './mask-ops.js';
import type { BinaryMask } from './types.js';
import { syntheticGarment } from './synthetic.js';

function canvas(w: number, h: number, bg: [number, number, number]): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  for (let i = 0; i < w * h; i++) {
    img.data[i * 4] = bg[0];
    img.data[i * 4 + 1] = bg[1];
    img.data[i * 4 + 2] = bg[2];
    img.data[i * 4 + 3] = 255;
  }
  return img;
}

function fill(img: RGBAImage, inside: (x: number, y: number) => boolean, c: [number, number, number, number?]): void {
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      if (!inside(x, y)) continue;
      const o = (y * img.width + x) * 4;
      img.data[o] = c[0];
      img.data[o + 1] = c[1];
      img.data[o + 2] = c[2];
      img.data[o + 3] = c[3] ?? 255;
    }
}

/** Trousers: waistband 0.3–0.7 × w at 0.1 h, legs split from 0.45 h, hems at 0.9 h. */
function trousers(w = 400, h = 500): RGBAImage {
  const img = canvas(w, h, [245, 245, 240]);
  fill(
    img,
    (x, y) => {
      if (y < h * 0.1 || y > h * 0.9) return false;
      if (x < w * 0.3 || x > w * 0.7) return false;
      if (y > h * 0.45 && x > w * 0.47 && x < w * 0.53) return false;
      return true;
    },
    [40, 50, 90],
  );
  return img;
}

const near = (a: number, b: number, tol: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('garment segmentation', () => {
  it('cuts a garment out of a plain white background with the drawn area', () => {
    const img = syntheticGarment(400, 480);
    let drawn = 0;
    for (let i = 0; i < 400 * 480; i++) if (img.data[i * 4] === 30) drawn++;
    const cut = segmentGarment(img);
    let area = 0;
    for (const a of cut.alpha.data) area += a;
    expect(Math.abs(area - drawn) / drawn).toBeLessThan(0.04);
    expect(cut.alpha.data[240 * 400 + 200]).toBe(1); // garment centre
    expect(cut.alpha.data[5 * 400 + 5]).toBe(0); // corner
    expect(cut.alpha.data[470 * 400 + 200]).toBe(0); // below the hem
  });

  it('keeps a white print inside the garment (holes are filled)', () => {
    const img = syntheticGarment(400, 480);
    fill(img, (x, y) => x > 170 && x < 230 && y > 200 && y < 260, [255, 255, 255]);
    const cut = segmentGarment(img);
    expect(cut.alpha.data[230 * 400 + 200]).toBe(1);
  });

  it('removes a thin hanger hook above the garment', () => {
    const img = syntheticGarment(400, 480);
    fill(img, (x, y) => x >= 198 && x <= 201 && y >= 5 && y < 50, [20, 20, 20]);
    const cut = segmentGarment(img);
    expect(cut.alpha.data[25 * 400 + 200]).toBe(0);
  });

  it('uses the alpha channel of a transparent PNG', () => {
    const img = canvas(300, 300, [255, 255, 255]);
    for (let i = 0; i < 300 * 300; i++) img.data[i * 4 + 3] = 0;
    // Same colour as the (transparent) background: only alpha can separate it.
    fill(img, (x, y) => x >= 100 && x < 200 && y >= 60 && y < 240, [255, 255, 255, 255]);
    const cut = segmentGarment(img, true);
    expect(cut.alpha.data[150 * 300 + 150]).toBeGreaterThan(0.99);
    expect(cut.alpha.data[150 * 300 + 40]).toBe(0);
    expect(cut.alpha.data[20 * 300 + 150]).toBe(0);
  });

  it('keeps a white garment on a light backdrop whole when only a faint outline separates them', () => {
    // Backdrop 238; the garment's inside is exactly the backdrop's colour (a white tee whose
    // fabric reads as the backdrop), separated only by a 1-px outline 10 levels darker.
    const w = 400;
    const h = 480;
    const img = canvas(w, h, [238, 238, 238]);
    const inside = (x: number, y: number) => x >= 120 && x <= 280 && y >= 60 && y <= 420;
    const onOutline = (x: number, y: number) => inside(x, y) && !(x > 120 && x < 280 && y > 60 && y < 420);
    fill(img, onOutline, [228, 228, 228]);
    // Some print so the garment is not only outline.
    fill(img, (x, y) => (x - 200) ** 2 + (y - 200) ** 2 < 40 ** 2, [200, 40, 40]);
    const cut = segmentGarment(img);
    for (const [x, y] of [
      [200, 330], // plain fabric below the print
      [140, 80], // near a corner
      [260, 400],
    ] as const)
      expect(cut.alpha.data[y * w + x]).toBe(1);
    expect(cut.alpha.data[30 * w + 200]).toBe(0);
    expect(cut.alpha.data[240 * w + 60]).toBe(0);
    let area = 0;
    for (const a of cut.alpha.data) area += a;
    expect(Math.abs(area - 161 * 361) / (161 * 361)).toBeLessThan(0.05);
  });

  it('leaves a soft shadow beside the garment in the background', () => {
    const w = 400;
    const h = 480;
    const img = syntheticGarment(w, h);
    // A smooth shadow right of the body: up to 12 levels darker, fading over 40 px.
    for (let y = 80; y < 440; y++)
      for (let x = 289; x < 340; x++) {
        if (img.data[(y * w + x) * 4] !== 255) continue;
        const v = 255 - Math.round(12 * Math.max(0, 1 - (x - 289) / 40));
        img.data[(y * w + x) * 4] = v;
        img.data[(y * w + x) * 4 + 1] = v;
        img.data[(y * w + x) * 4 + 2] = v;
      }
    const cut = segmentGarment(img);
    expect(cut.alpha.data[300 * w + 300]).toBe(0);
    expect(cut.alpha.data[300 * w + 310]).toBe(0);
    expect(cut.alpha.data[300 * w + 250]).toBe(1);
  });

  it('refuses a photo without a plain background', () => {
    const img = canvas(200, 200, [0, 0, 0]);
    let seed = 7;
    for (let i = 0; i < img.data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      if (i % 4 !== 3) img.data[i] = seed & 255;
    }
    expect(() => segmentGarment(img)).toThrow(GarmentSeparationError);
  });

  it('refuses an empty photo (nothing to cut out)', () => {
    expect(() => segmentGarment(canvas(200, 200, [250, 250, 250]))).toThrow(GarmentSeparationError);
  });
});

describe('garment landmarks', () => {
  it('finds the shoulders, armpits, sleeve ends and hem of a T-shirt', () => {
    const w = 400;
    const h = 480;
    const cut = segmentGarment(syntheticGarment(w, h));
    const lm = upperLandmarks(cut.mask, cut.scale);
    const tol = w * 0.04;
    // Body column 0.28–0.72 w, top 0.1 h, hem 0.9 h; sleeves reach 0.1 / 0.9 w down to 0.3 h.
    near(lm.shoulderLeft.x, w * 0.28, tol);
    near(lm.shoulderRight.x, w * 0.72, tol);
    near(lm.shoulderLeft.y, h * 0.1, tol);
    near(lm.armpitLeft.y, h * 0.3, tol);
    near(lm.armpitRight.y, h * 0.3, tol);
    near(lm.hemLeft.y, h * 0.9, h * 0.05);
    near(lm.hemLeft.x, w * 0.28, tol);
    near(lm.hemRight.x, w * 0.72, tol);
    expect(lm.sleeveLeft).not.toBeNull();
    expect(lm.sleeveRight).not.toBeNull();
    const cuffL = (lm.sleeveLeft!.outer.x + lm.sleeveLeft!.inner.x) / 2;
    const cuffR = (lm.sleeveRight!.outer.x + lm.sleeveRight!.inner.x) / 2;
    expect(cuffL).toBeLessThan(w * 0.2);
    expect(cuffR).toBeGreaterThan(w * 0.8);
    // Neckline sits between the shoulders.
    expect(lm.neckLeft.x).toBeGreaterThan(lm.shoulderLeft.x);
    expect(lm.neckRight.x).toBeLessThan(lm.shoulderRight.x);
  });

  it('reports no sleeves for a sleeveless top', () => {
    const img = canvas(300, 400, [255, 255, 255]);
    fill(img, (x, y) => x >= 90 && x <= 210 && y >= 40 && y <= 360, [200, 30, 30]);
    const cut = segmentGarment(img);
    const lm = upperLandmarks(cut.mask, cut.scale);
    expect(lm.sleeveLeft).toBeNull();
    expect(lm.sleeveRight).toBeNull();
  });

  it('finds the waistband, crotch and leg openings of trousers', () => {
    const w = 400;
    const h = 500;
    const cut = segmentGarment(trousers(w, h));
    const lm = lowerLandmarks(cut.mask, cut.scale);
    const tol = w * 0.03;
    near(lm.waistLeft.x, w * 0.3, tol);
    near(lm.waistRight.x, w * 0.7, tol);
    expect(lm.crotch).not.toBeNull();
    near(lm.crotch!.y, h * 0.45, h * 0.03);
    near(lm.crotch!.x, w * 0.5, tol);
    expect(lm.legLeft).not.toBeNull();
    near(lm.legLeft!.outer.x, w * 0.3, tol);
    near(lm.legLeft!.inner.x, w * 0.47, tol);
    near(lm.legRight!.outer.x, w * 0.7, tol);
    near(lm.legRight!.inner.x, w * 0.53, tol);
    near(lm.legLeft!.outer.y, h * 0.9, h * 0.05);
  });

  it('treats a skirt (no gap between legs) as one piece', () => {
    const img = canvas(400, 400, [250, 250, 250]);
    fill(img, (x, y) => y >= 50 && y <= 300 && x >= 120 - (y - 50) * 0.2 && x <= 280 + (y - 50) * 0.2, [200, 60, 120]);
    const cut = segmentGarment(img);
    const lm = lowerLandmarks(cut.mask, cut.scale);
    expect(lm.crotch).toBeNull();
    expect(lm.hemRight.x - lm.hemLeft.x).toBeGreaterThan(lm.waistRight.x - lm.waistLeft.x);
  });

  it('labels sleeves and legs as separate parts', () => {
    const cut = segmentGarment(syntheticGarment(400, 480));
    const lm = upperLandmarks(cut.mask, cut.scale);
    const labels = partLabels(cut.mask, cut.scale, lm);
    const at = (m: BinaryMask, x: number, y: number) =>
      labels[Math.floor(y / cut.scale) * m.width + Math.floor(x / cut.scale)];
    expect(at(cut.mask, 60, 100)).toBe(80); // left sleeve
    expect(at(cut.mask, 340, 100)).toBe(160); // right sleeve
    expect(at(cut.mask, 200, 300)).toBe(255); // body
    const t = segmentGarment(trousers());
    const tl = lowerLandmarks(t.mask, t.scale);
    const tLabels = partLabels(t.mask, t.scale, tl);
    const tAt = (x: number, y: number) => tLabels[Math.floor(y / t.scale) * t.mask.width + Math.floor(x / t.scale)];
    expect(tAt(150, 400)).toBe(80);
    expect(tAt(250, 400)).toBe(160);
    expect(tAt(200, 100)).toBe(255);
  });
});

describe('mask morphology', () => {
  /** Brute-force square erosion / dilation (outside the image is background). */
  function naive(m: BinaryMask, r: number): Uint8Array {
    const k = Math.abs(r);
    const out = new Uint8Array(m.width * m.height);
    for (let y = 0; y < m.height; y++)
      for (let x = 0; x < m.width; x++) {
        let all = 1;
        let any = 0;
        for (let dy = -k; dy <= k; dy++)
          for (let dx = -k; dx <= k; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            const v = xx >= 0 && yy >= 0 && xx < m.width && yy < m.height ? m.data[yy * m.width + xx]! : 0;
            all &= v;
            any |= v;
          }
        out[y * m.width + x] = r > 0 ? all : any;
      }
    return out;
  }

  it('erodes and dilates a square by exactly the radius', () => {
    const m: BinaryMask = { width: 30, height: 20, data: new Uint8Array(600) };
    for (let y = 5; y < 15; y++) for (let x = 10; x < 20; x++) m.data[y * 30 + x] = 1;
    const count = (d: Uint8Array) => d.reduce((a, v) => a + v, 0);
    expect(count(morph(m, 2).data)).toBe(6 * 6);
    expect(count(morph(m, -2).data)).toBe(14 * 14);
    expect(morph(m, 2).data[7 * 30 + 12]).toBe(1);
    expect(morph(m, 2).data[6 * 30 + 12]).toBe(0);
    expect(morph(m, -2).data[3 * 30 + 8]).toBe(1);
    expect(morph(m, -2).data[2 * 30 + 8]).toBe(0);
  });

  it('matches a brute-force erosion and dilation on a random mask, borders included', () => {
    let seed = 11;
    const m: BinaryMask = { width: 37, height: 23, data: new Uint8Array(37 * 23) };
    for (let i = 0; i < m.data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      m.data[i] = seed % 7 < 5 ? 1 : 0;
    }
    for (const r of [1, 2, 3, -1, -2, -4]) expect(Array.from(morph(m, r).data)).toEqual(Array.from(naive(m, r)));
  });

  it('fills enclosed holes but keeps a notch open to the border', () => {
    const m: BinaryMask = { width: 20, height: 20, data: new Uint8Array(400) };
    for (let y = 2; y < 18; y++) for (let x = 2; x < 18; x++) m.data[y * 20 + x] = 1;
    for (let y = 8; y < 12; y++) for (let x = 8; x < 12; x++) m.data[y * 20 + x] = 0; // hole
    for (let y = 2; y < 6; y++) m.data[y * 20 + 10] = 0; // notch from the top edge
    const f = fillHoles(m);
    expect(f.data[10 * 20 + 10]).toBe(1);
    expect(f.data[3 * 20 + 10]).toBe(0);
    expect(f.data[0]).toBe(0);
  });
});
