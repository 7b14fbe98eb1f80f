/**
 * One synthetic case for each class of failure a shopper saw on real photos (see
 * docs/local-engine.md, "What a shopper sees"): the fit and composite stages on a drawn
 * person, judged by the shopper figures.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Category } from '@aidressup/contract';
import { createMap, type RGBAImage } from './image.js';
import type { PersonAnalysis } from './person.js';
import { checkResult } from './refusals.js';
import { prepareGarment } from './prepare-garment.js';
import { fitAndComposite } from './fit-and-composite.js';
import { syntheticGarment, syntheticKeypoints } from './synthetic.js';
import { isEngineError } from './types.js';

const W = 480;
const H = 640;

/**
 * A standing person (the synthetic keypoints' pose) with bare arms, in a grey top wider
 * than the shoulders (1.6 shoulder widths) and dark trousers, on a light backdrop.
 * `armsOut`: the arms held away from the body, so that the torso's sides show.
 */
function scene(armsOut = false): { person: RGBAImage; analysis: PersonAnalysis } {
  const person: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(235) };
  const mask = createMap(W, H);
  const keypoints = syntheticKeypoints(W, H);
  if (armsOut)
    for (const [i, x] of [
      [13, 0.72],
      [14, 0.28],
      [15, 0.8],
      [16, 0.2],
      [17, 0.805],
      [19, 0.805],
      [21, 0.8],
      [18, 0.195],
      [20, 0.195],
      [22, 0.2],
    ] as const)
      keypoints[i] = { ...keypoints[i]!, x: x * W };
  const k = (i: number) => keypoints[i]!;
  const set = (x: number, y: number, c: [number, number, number]) => {
    const i = y * W + x;
    mask.data[i] = 1;
    person.data.set([...c, 255], i * 4);
  };
  const skin: [number, number, number] = [205, 150, 120];
  const seg = (x: number, y: number, a: { x: number; y: number }, b: { x: number; y: number }) => {
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - a.x - t * dx, y - a.y - t * dy);
  };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const u = x / W;
      const v = y / H;
      if (Math.hypot(x - W * 0.5, y - H * 0.1) < W * 0.06 || (v > 0.1 && v < 0.2 && Math.abs(u - 0.5) < 0.03))
        set(x, y, skin);
      else if (v >= 0.2 && v < 0.55 && Math.abs(u - 0.5) < 0.16) set(x, y, [120, 120, 125]);
      else if (v >= 0.55 && v < 0.95 && Math.abs(u - 0.5) < 0.1) set(x, y, [40, 40, 60]);
      else if (
        [11, 12].some((s, j) => seg(x, y, k(s), k(13 + j)) < W * 0.035 || seg(x, y, k(13 + j), k(15 + j)) < W * 0.03)
      )
        set(x, y, skin);
    }
  return { person, analysis: { width: W, height: H, keypoints, poseScore: 1, mask, peopleCount: 1, skin: 3 } };
}

function drawn(
  w: number,
  h: number,
  inside: (x: number, y: number) => boolean,
  colour: [number, number, number],
): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(255) };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (inside(x, y)) img.data.set([...colour, 255], (y * w + x) * 4);
  return img;
}

/** Straight-leg trousers: a waistband and two legs with a gap between them. */
function trousers(w = 300, h = 520): RGBAImage {
  return drawn(
    w,
    h,
    (x, y) =>
      y >= h * 0.05 &&
      y <= h * 0.95 &&
      x >= w * 0.2 &&
      x <= w * 0.8 &&
      !(y > h * 0.3 && Math.abs(x - w / 2) < w * 0.03 + (y - h * 0.3) * 0.04),
    [220, 205, 170],
  );
}

function run(garment: RGBAImage, category: Category) {
  const { person, analysis } = scene();
  const r = fitAndComposite(person, analysis, prepareGarment(garment, false, category), category);
  // DUMP_SYNTHETIC=dir writes each result as raw RGBA for a look (W × H).
  const dump = process.env.DUMP_SYNTHETIC;
  if (dump)
    writeFileSync(`${dump}/${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}.rgba`, r.image.data);
  return r;
}

describe('failure classes (synthetic)', () => {
  it('trousers are one continuous piece: no seam between the hips and the legs', () => {
    const r = run(trousers(), 'lower_body');
    expect(r.quality.pieces).toBeLessThan(0.01);
    expect(r.quality.offset).toBeLessThan(0.1);
  });

  it('a T-shirt sits on the torso and covers the old top', () => {
    const r = run(syntheticGarment(400, 480), 'upper_body');
    expect(r.quality.offset).toBeLessThan(0.1);
    expect(r.quality.pieces).toBeLessThan(0.05);
    expect(r.quality.remnant).toBeLessThan(0.1);
  });

  it('the old top wider than a narrow new one does not show at the torso sides; bare arms stay bare', () => {
    // A narrow vest over the grey top of the scene (1.6 shoulder widths wide): fitted to
    // the body, the grey would show beside it.
    const vest = drawn(300, 400, (x, y) => y >= 40 && y <= 360 && Math.abs(x - 150) <= 54, [30, 90, 200]);
    const { person, analysis } = scene(true);
    const r = fitAndComposite(person, analysis, prepareGarment(vest, false, 'upper_body'), 'upper_body');
    const k = analysis.keypoints;
    const at = (x: number, y: number) => Array.from(r.image.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 3));
    const near = (c: number[], ref: number[], tol: number) =>
      Math.abs(c[0]! - ref[0]!) + Math.abs(c[1]! - ref[1]!) + Math.abs(c[2]! - ref[2]!) < tol;
    // The torso's sides (the grey top spans |x - W/2| < 0.16 W), from below the armpits to
    // above the old top's hem.
    let side = 0;
    let grey = 0;
    for (let y = Math.round((k[11]!.y + k[23]!.y) / 2); y < H * 0.53; y++)
      for (let x = 0; x < W; x++) {
        const d = Math.abs(x - W / 2);
        if (d < W * 0.1 || d > W * 0.15) continue;
        side++;
        if (near(at(x, y), [120, 120, 125], 30)) grey++;
      }
    expect(grey / side).toBeLessThan(0.02);
    expect(r.quality.remnant).toBeLessThan(0.05);
    expect(r.quality.pieces).toBeLessThan(0.01);
    // The widened garment keeps a clean outline (as smooth as the T-shirt's case).
    expect(r.quality.ragged).toBeLessThan(1.3);
    // Bare arms stay bare: skin, not the garment's blue, half-way down each forearm.
    for (const [e, wr] of [
      [13, 15],
      [14, 16],
    ] as const) {
      const x = Math.round((k[e]!.x + k[wr]!.x) / 2);
      const y = Math.round((k[e]!.y + k[wr]!.y) / 2);
      expect(near(at(x, y), [205, 150, 120], 40)).toBe(true);
    }
  });

  it('a strap top wider at the top than at its hem has no sleeves: nothing of it is laid on the arms', () => {
    const w = 300;
    const h = 360;
    const cami = drawn(
      w,
      h,
      (x, y) => {
        const t = (y - h * 0.35) / (h * 0.55);
        const half = w * (0.3 - 0.08 * t);
        const body = t >= 0 && t <= 1 && Math.abs(x - w / 2) <= half;
        const strap =
          y >= h * 0.05 &&
          y < h * 0.36 &&
          [-1, 1].some((s) => Math.abs(x - w / 2 - s * w * (0.15 + (0.05 * (y - h * 0.05)) / (h * 0.3))) < w * 0.015);
        return body || strap;
      },
      [240, 200, 40],
    );
    const g = prepareGarment(cami, false, 'upper_body');
    expect(g.landmarks.kind === 'upper' && g.landmarks.sleeveLeft).toBeFalsy();
    expect(g.landmarks.kind === 'upper' && g.landmarks.sleeveRight).toBeFalsy();
    const { person, analysis } = scene();
    const r = fitAndComposite(person, analysis, g, 'upper_body');
    expect(r.quality.offset).toBeLessThan(0.1);
    expect(r.quality.pieces).toBeLessThan(0.05);
    // Straps go onto the shoulders, between the joints, and the body hangs from the armpits:
    // its top edge about half a shoulder width below the joints (not a strap's length).
    expect(g.landmarks.kind === 'upper' && g.landmarks.straps).toBe(true);
    const k = analysis.keypoints;
    const sw = Math.abs(k[11]!.x - k[12]!.x);
    const jointY = (k[11]!.y + k[12]!.y) / 2;
    const cx = (k[11]!.x + k[12]!.x) / 2;
    const [strapL, strapR, neckL, neckR] = r.fit.parts[0]!.body;
    for (const p of [strapL!, strapR!]) {
      expect(Math.abs(p.x - cx)).toBeLessThan(sw * 0.4);
      expect(Math.abs(p.y - jointY)).toBeLessThan(sw * 0.2);
    }
    for (const p of [neckL!, neckR!]) {
      expect(p.y - jointY).toBeGreaterThan(sw * 0.25);
      expect(p.y - jointY).toBeLessThan(sw * 0.65);
    }
    // Between the straps, above the body, the old grey top is gone: skin, as the neck above.
    const px = (x: number, y: number) => Array.from(r.image.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 3));
    const chest = px(Math.round(cx), Math.round(jointY + sw * 0.12));
    expect(Math.abs(chest[0]! - 205) + Math.abs(chest[1]! - 150) + Math.abs(chest[2]! - 120)).toBeLessThan(40);
    // ... and the face above the neckline is untouched.
    expect(px(Math.round(cx), Math.round(H * 0.1))).toEqual(
      Array.from(person.data.subarray((H * 0.1 * W + Math.round(cx)) * 4, (H * 0.1 * W + Math.round(cx)) * 4 + 3)),
    );
  });

  it('a dress flared wider at its hem than at its chest has its short sleeves found, at the chest', () => {
    const w = 300;
    const h = 560;
    const dress = drawn(
      w,
      h,
      (x, y) => {
        const u = (x - w / 2) / w;
        const v = y / h;
        if (Math.abs(u) < 0.07 && v < 0.06) return false;
        const half = v < 0.2 ? 0.14 : 0.14 + (v - 0.2) * 0.45;
        const bodice = v >= 0.03 && v <= 0.95 && Math.abs(u) <= half;
        // Short puff sleeves from the shoulders, ending a little below the chest line.
        const sleeve = v >= 0.04 && v <= 0.17 && Math.abs(u) > 0.14 && Math.abs(u) <= 0.27;
        return bodice || sleeve;
      },
      [60, 90, 170],
    );
    const g = prepareGarment(dress, false, 'dresses');
    const lm = g.landmarks;
    expect(lm.kind).toBe('upper');
    if (lm.kind !== 'upper') return;
    expect(lm.sleeveLeft).toBeTruthy();
    expect(lm.sleeveRight).toBeTruthy();
    // The torso column is the bodice (±0.14 of the width), not the skirt; armpits by the sleeves' ends.
    expect(Math.abs(lm.armpitLeft.x - w * 0.36)).toBeLessThan(w * 0.04);
    expect(Math.abs(lm.armpitRight.x - w * 0.64)).toBeLessThan(w * 0.04);
    expect(lm.armpitLeft.y).toBeLessThan(h * 0.25);
    const r = run(dress, 'dresses');
    expect(r.quality.pieces).toBeLessThan(0.05);
    expect(r.quality.offset).toBeLessThan(0.1);
  });

  it('new trousers cover the old clothes between their legs', () => {
    // The scene's old trousers are one dark block; the new ones have a gap between the legs.
    const { person, analysis } = scene();
    const r = fitAndComposite(person, analysis, prepareGarment(trousers(), false, 'lower_body'), 'lower_body');
    const k = analysis.keypoints;
    const cx = Math.round((k[23]!.x + k[24]!.x) / 2);
    let dark = 0;
    let n = 0;
    for (let y = Math.round((k[23]!.y + k[25]!.y) / 2); y < Math.round(k[25]!.y); y++) {
      const o = (y * W + cx) * 4;
      n++;
      if (
        Math.abs(r.image.data[o]! - 40) + Math.abs(r.image.data[o + 1]! - 40) + Math.abs(r.image.data[o + 2]! - 60) <
        30
      )
        dark++;
    }
    expect(n).toBeGreaterThan(5);
    expect(dark / n).toBeLessThan(0.1);
  });

  it('a blouse with sleeves hanging against its body is one garment with sleeves on the arms, not fragments', () => {
    const w = 320;
    const h = 400;
    const blouse = drawn(
      w,
      h,
      (x, y) => {
        const u = Math.abs(x - w / 2) / w;
        const v = y / h;
        const neck = u < 0.08 && v < 0.14;
        const body = u <= 0.2 && v >= 0.1 && v <= 0.8;
        // Sleeves from the shoulder seam down beside the body (touching it), ending below its hem.
        const sleeve = u > 0.2 && u <= 0.36 && v >= 0.1 + (u - 0.2) * 0.9 && v <= 0.92;
        return (body || sleeve) && !neck;
      },
      [200, 90, 150],
    );
    const g = prepareGarment(blouse, false, 'upper_body');
    const lm = g.landmarks;
    expect(lm.kind).toBe('upper');
    if (lm.kind !== 'upper') return;
    expect(lm.hangingSleeves).toBe(true);
    expect(lm.sleeveLeft).toBeTruthy();
    expect(lm.sleeveRight).toBeTruthy();
    // The torso column is the body between the sleeves, not the whole width.
    expect(Math.abs(lm.armpitLeft.x - w * 0.3)).toBeLessThan(w * 0.05);
    expect(Math.abs(lm.armpitRight.x - w * 0.7)).toBeLessThan(w * 0.05);
    const { person, analysis } = scene();
    const r = fitAndComposite(person, analysis, g, 'upper_body');
    expect(r.quality.pieces).toBeLessThan(0.05);
    expect(r.quality.offset).toBeLessThan(0.1);
    expect(r.quality.remnant).toBeLessThan(0.1);
    // The sleeves hang along the arms: the blouse's colour half-way down each upper arm.
    const k = analysis.keypoints;
    for (const [s, e] of [
      [11, 13],
      [12, 14],
    ] as const) {
      const x = Math.round((k[s]!.x + k[e]!.x) / 2);
      const y = Math.round((k[s]!.y + k[e]!.y) / 2);
      const o = (y * W + x) * 4;
      const px = [r.image.data[o]!, r.image.data[o + 1]!, r.image.data[o + 2]!];
      expect(Math.abs(px[0]! - 200) + Math.abs(px[1]! - 90) + Math.abs(px[2]! - 150)).toBeLessThan(90);
    }
  });

  it('refuses, with a specific code and a message that says what would work, a garment that fell off the body', () => {
    const { person, analysis } = scene();
    // A person mask that shows only the head: the garment is kept near the person, so almost
    // all of it falls away.
    analysis.mask.data.fill(0, Math.round(H * 0.2) * W);
    const r = fitAndComposite(
      person,
      analysis,
      prepareGarment(syntheticGarment(400, 480), false, 'upper_body'),
      'upper_body',
    );
    expect(r.quality.kept).toBeLessThan(0.2);
    let code = '';
    let message = '';
    try {
      checkResult(r.quality);
    } catch (e) {
      if (isEngineError(e)) ({ code, message } = e);
    }
    expect(code).toBe('GARMENT_NOT_PLACED');
    expect(message).toMatch(/not been charged/);
    expect(message).toMatch(/full-length photo of one person/);
    // Another engine is the page's offer (a button, when one is up), not a promise of the message.
    expect(message).not.toMatch(/engine/);
  });

  it('refuses a garment laid beside the body and one that broke apart, not one in place', () => {
    const ok = { offset: 0.03, remnant: 0.05, pieces: 0.01, garmentPieces: 0, ragged: 1.2, kept: 0.8 };
    expect(() => checkResult(ok)).not.toThrow();
    expect(() => checkResult({ ...ok, offset: 0.45 })).toThrow(/placed on the body/);
    expect(() => checkResult({ ...ok, pieces: 0.6 })).toThrow(/placed on the body/);
    // A garment that is itself in pieces (a set) is not refused for being in pieces.
    expect(() => checkResult({ ...ok, pieces: 0.6, garmentPieces: 0.4 })).not.toThrow();
  });
});
