import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Category } from '@aidressup/contract';
import type { BinaryMask } from './types.js';
import { classifyGarment, garmentFeatures, shapeCues } from './garment-classifier.js';
import { decodeImage, type RGBAImage } from './image.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'test-fixtures');

/** A garment drawn by `inside(u, v)` (u, v in 0..1 of the canvas) in `colour` on a plain backdrop. */
function draw(
  w: number,
  h: number,
  inside: (u: number, v: number) => boolean,
  colour: [number, number, number] = [40, 60, 140],
  alpha = false,
): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const on = inside((x + 0.5) / w, (y + 0.5) / h);
      const c = on ? colour : [246, 246, 244];
      img.data[o] = c[0]!;
      img.data[o + 1] = c[1]!;
      img.data[o + 2] = c[2]!;
      img.data[o + 3] = alpha && !on ? 0 : 255;
    }
  return img;
}

const d = (u: number) => Math.abs(u - 0.5);

/** Short-sleeved T-shirt: sloping shoulders, a round neck, sleeves angled out. */
const tshirt = (u: number, v: number) => {
  const neck = (u - 0.5) ** 2 / 0.08 ** 2 + (v - 0.13) ** 2 / 0.06 ** 2 < 1;
  const body = d(u) <= 0.2 && v <= 0.85 && v >= 0.13 + 0.15 * d(u);
  const s = d(u) - 0.2;
  const sleeve = s > 0 && s <= 0.18 && v >= 0.16 + 0.6 * s && v <= 0.34 + 0.3 * s;
  return (body || sleeve) && !neck;
};

/** Trousers: waistband, hips, two legs split from 38 % of the canvas down. */
const trousers = (u: number, v: number) => {
  if (v < 0.05 || v > 0.95) return false;
  const outer = v < 0.3 ? 0.15 + (v - 0.05) * 0.08 : 0.17 - (v - 0.3) * 0.03;
  if (d(u) > outer) return false;
  return !(v > 0.38 && d(u) < 0.015 + (v - 0.38) * 0.06);
};

/** Long A-line dress: two straps, a fitted bodice, a waist, a skirt flaring to the hem. */
const dress = (u: number, v: number) => {
  if (v < 0.04 || v > 0.96) return false;
  if (v < 0.1) return d(u) >= 0.06 && d(u) <= 0.095;
  if (v < 0.38) return d(u) <= 0.11 - (v - 0.1) * 0.07;
  return d(u) <= 0.09 + (v - 0.38) * 0.35;
};

/** Shorts: a straight waistband, the legs split over the lower 45 %. */
const shorts = (u: number, v: number) => {
  if (v < 0.2 || v > 0.75) return false;
  if (d(u) > 0.25 + (v - 0.2) * 0.09) return false;
  return !(v > 0.5 && d(u) < 0.02 + (v - 0.5) * 0.3);
};

/** A-line skirt: a straight waistband, widening to the hem. */
const skirt = (u: number, v: number) => v >= 0.2 && v <= 0.75 && d(u) <= 0.18 + (v - 0.2) * 0.3;

/** Strapless (bandeau) top: a straight top edge, a slight taper to the hem, wider than tall. */
const strapless = (u: number, v: number) => v >= 0.3 && v <= 0.6 && d(u) <= 0.22 - (v - 0.3) * 0.1;

/** Tank top: straps around a deep scoop neck, a straight body. */
const tank = (u: number, v: number) => {
  if (v < 0.12 || v > 0.88) return false;
  const scoop = (u - 0.5) ** 2 / 0.12 ** 2 + (v - 0.12) ** 2 / 0.2 ** 2 < 1;
  const strapsOnly = v < 0.3 && d(u) > 0.2;
  return d(u) <= 0.24 && !scoop && !strapsOnly;
};

/** Jumpsuit: straps and a bodice above trousers. */
const jumpsuit = (u: number, v: number) => {
  if (v < 0.03 || v > 0.97) return false;
  if (v < 0.1) return d(u) >= 0.05 && d(u) <= 0.085;
  if (v < 0.4) return d(u) <= 0.12;
  if (d(u) > 0.14) return false;
  return !(v > 0.55 && d(u) < 0.012 + (v - 0.55) * 0.05);
};

const CASES: { name: string; img: () => RGBAImage; category: Category }[] = [
  { name: 'a T-shirt with sleeves', img: () => draw(320, 400, tshirt), category: 'upper_body' },
  {
    name: 'a T-shirt on a transparent background',
    img: () => draw(320, 400, tshirt, [250, 250, 250], true),
    category: 'upper_body',
  },
  { name: 'a tank top', img: () => draw(360, 320, tank, [200, 40, 40]), category: 'upper_body' },
  { name: 'a strapless top', img: () => draw(320, 320, strapless, [20, 20, 20]), category: 'upper_body' },
  { name: 'trousers with two legs', img: () => draw(320, 400, trousers), category: 'lower_body' },
  { name: 'shorts', img: () => draw(320, 320, shorts, [30, 40, 70]), category: 'lower_body' },
  { name: 'a skirt', img: () => draw(320, 320, skirt, [220, 60, 140]), category: 'lower_body' },
  { name: 'a long A-line dress', img: () => draw(320, 400, dress, [60, 120, 60]), category: 'dresses' },
  { name: 'a jumpsuit', img: () => draw(300, 420, jumpsuit, [90, 30, 90]), category: 'dresses' },
];

describe('classifyGarment on drawn garments', () => {
  for (const c of CASES)
    it(`classifies ${c.name} as ${c.category}`, () => {
      const r = classifyGarment(c.img());
      expect(r.category, JSON.stringify(r.features)).toBe(c.category);
      expect(r.confidence).toBeGreaterThan(0.6);
      expect(r.scores[c.category]).toBe(r.confidence);
      expect(Object.values(r.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    });

  it('takes a raw Uint8Array buffer (as sharp decodes) and is deterministic', () => {
    const img = draw(320, 400, trousers);
    const a = classifyGarment(img);
    const b = classifyGarment({ width: img.width, height: img.height, data: new Uint8Array(img.data.buffer) });
    expect(b).toEqual(a);
  });

  it('is unsure between a dress and a top for a mid-length, sleeveless shape', () => {
    // A straight sleeveless tunic, 1.7× as tall as wide: between a long top and a short dress.
    const r = classifyGarment(
      draw(
        300,
        420,
        (u, v) =>
          v >= 0.12 && v <= 0.88 && d(u) <= 0.31 && !((u - 0.5) ** 2 / 0.1 ** 2 + (v - 0.12) ** 2 / 0.08 ** 2 < 1),
      ),
    );
    expect(r.confidence).toBeLessThan(0.8);
    expect(['upper_body', 'dresses']).toContain(r.category);
  });

  it('falls back to the default category with confidence 0 when nothing can be cut out', () => {
    const r = classifyGarment(draw(200, 200, () => false));
    expect(r).toMatchObject({ category: 'upper_body', confidence: 0, features: null });
  });
});

describe('classifyGarment on photos', () => {
  const photo = async (f: string) =>
    (await decodeImage(new Uint8Array(readFileSync(join(fixtures, 'garment', f))))).image;
  for (const [file, category] of [
    ['tshirt_womens_blue.jpg', 'upper_body'],
    ['tshirt_black.jpg', 'upper_body'],
    ['tshirt_lightblue_plain.jpg', 'upper_body'],
    ['polo_navy.jpg', 'upper_body'],
    ['jeans_dark_straight.jpg', 'lower_body'],
    ['trousers_grey_hanger.jpg', 'lower_body'],
    ['skirt_pink_denim.jpg', 'lower_body'],
    // A dress is a Full Outfit (`dresses`) in this product.
    ['dress_purple_hanger.jpg', 'dresses'],
  ] as const)
    it(`classifies ${file} as ${category}`, async () => {
      const r = classifyGarment(await photo(file));
      expect(r.category, JSON.stringify(r.features)).toBe(category);
      expect(r.confidence).toBeGreaterThan(0.6);
    });
});

/** A mask from a predicate on pixel coordinates. */
function mask(w: number, h: number, inside: (x: number, y: number) => boolean): BinaryMask {
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = inside(x, y) ? 1 : 0;
  return { width: w, height: h, data };
}

describe('garmentFeatures', () => {
  it('measures a plain rectangle', () => {
    // 40 wide, 80 tall.
    const f = garmentFeatures(mask(100, 100, (x, y) => x >= 30 && x < 70 && y >= 10 && y < 90));
    expect(f.aspect).toBeCloseTo(2, 6);
    expect(f.lengthToWaist).toBeCloseTo(2, 6);
    expect(f.legSplit).toBe(0);
    expect(f.legGap).toBe(0);
    expect(f.neckDepth).toBe(0);
    for (const k of ['shoulderRatio', 'bustToWaist', 'topToHem', 'topGrowth'] as const) expect(f[k]).toBeCloseTo(1, 6);
    expect(f.hemWidth).toBe(1);
  });

  it('finds two legs and the gap between them', () => {
    // 60 wide, 100 tall; legs split over the lower 40 rows by a 10-pixel gap.
    const f = garmentFeatures(
      mask(100, 120, (x, y) => x >= 20 && x < 80 && y >= 10 && y < 110 && !(y >= 70 && x >= 45 && x < 55)),
    );
    expect(f.legSplit).toBeCloseTo(0.4, 2);
    expect(f.legGap).toBeCloseTo(10 / 60, 3);
    expect(shapeCues(f).legs).toBe(1);
  });

  it('does not take a gap off the centre (a sleeve hanging beside the body) for legs', () => {
    const f = garmentFeatures(
      mask(100, 120, (x, y) => y >= 10 && y < 110 && ((x >= 30 && x < 80) || (x >= 15 && x < 24))),
    );
    expect(f.legSplit).toBe(0);
  });

  it('measures sleeves against the hem, and a waist', () => {
    // Sleeves 80 wide over rows 10–29, body 40 wide below, pinched to 30 at rows 50–59.
    const f = garmentFeatures(
      mask(100, 120, (x, y) => {
        if (y < 10 || y >= 110) return false;
        if (y < 30) return x >= 10 && x < 90;
        if (y >= 50 && y < 60) return x >= 35 && x < 65;
        return x >= 30 && x < 70;
      }),
    );
    expect(f.shoulderWidth).toBe(1);
    expect(f.hemWidth).toBeCloseTo(0.5, 6);
    expect(f.shoulderRatio).toBeCloseTo(2, 6);
    expect(f.waistWidth).toBeCloseTo(30 / 80, 6);
    expect(f.hemWidth / f.waistWidth).toBeCloseTo(40 / 30, 6);
    expect(shapeCues(f).sleeves).toBe(1);
  });

  it('measures a neckline dip and sloping shoulders', () => {
    // 60 wide; a V of depth 12 at the centre of the top edge; shoulders slope 1 px down per 2 px out.
    const f = garmentFeatures(
      mask(100, 120, (x, y) => {
        if (x < 20 || x >= 80 || y >= 110) return false;
        const dx = Math.abs(x - 49.5);
        const shoulder = 10 + Math.max(0, dx - 15) / 2;
        const v = 22 - dx * 1.2;
        return y >= shoulder && y >= v;
      }),
    );
    expect(f.neckDepth).toBeGreaterThan(10 / 60);
    expect(f.neckDepth).toBeLessThan(14 / 60);
    expect(f.topGrowth).toBeGreaterThan(1.4);
    expect(shapeCues(f).neckline).toBe(1);
  });

  it('sees a skirt: a straight waistband widening to the hem', () => {
    const c = shapeCues(
      garmentFeatures(mask(120, 100, (x, y) => y >= 10 && y < 80 && Math.abs(x - 59.5) <= 20 + (y - 10) * 0.4)),
    );
    expect(c.flatTop).toBe(1);
    expect(c.skirt).toBeGreaterThan(0.9);
  });
});
