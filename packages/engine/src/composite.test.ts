import { describe, expect, it } from 'vitest';
import { blurMap, createMap, type FloatMap, type RGBAImage } from './image.js';
import { clipBeyondArms, composite, type CompositeInput } from './composite.js';
import { protectedRegions, sampleHairColours } from './protected-regions.js';
import { bodyFrame } from './fit.js';
import { syntheticKeypoints } from './synthetic.js';

/** The composite written plainly over the whole frame (full-size blurs). */
function referenceComposite(c: CompositeInput): { image: Float64Array; alpha: Float64Array } {
  const { person, garment, protection } = c;
  const w = person.width;
  const h = person.height;
  const n = w * h;
  const alpha = new Float64Array(n);
  const reach = blurMap(c.personMask, Math.max(2, Math.round(c.shadingRadius * 0.12)), 1);
  const clipEnd = Math.max(0, Math.min(h, Math.round(c.bodyClipUntilY ?? h))) * w;
  for (let i = 0; i < n; i++) {
    let a = c.alpha.data[i]!;
    if (a <= 0) continue;
    if (i < clipEnd) a *= Math.min(1, reach.data[i]! * 8);
    a *= 1 - protection.hard.data[i]!;
    a *= 1 - protection.arms.data[i]! * c.bodyPart.data[i]!;
    alpha[i] = a;
  }
  const lum = createMap(w, h);
  for (let i = 0; i < n; i++)
    lum.data[i] = 0.299 * person.data[i * 4]! + 0.587 * person.data[i * 4 + 1]! + 0.114 * person.data[i * 4 + 2]! + 8;
  const fine = blurMap(lum, Math.max(2, Math.round(c.shadingRadius * 0.03)), 2);
  const broad = blurMap(lum, Math.max(6, Math.round(c.shadingRadius * 0.12)), 2);
  const k = c.shading ?? 0.6;
  const shadeEnd = Math.min(h, Math.round(c.shadeUntilY ?? h)) * w;
  const image = Float64Array.from(person.data);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    if (a <= 0.002) continue;
    let s = 1;
    if (i < shadeEnd && c.personMask.data[i]! > 0.5) {
      // Small luminance changes (folds) carry over; large ones (old clothes' edges) fade out.
      const d = fine.data[i]! / broad.data[i]! - 1;
      const keep = Math.max(0, Math.min(1, (0.2 - Math.abs(d)) / 0.12));
      s = 1 + d * keep * k;
    }
    for (let ch = 0; ch < 3; ch++)
      image[i * 4 + ch] = person.data[i * 4 + ch]! * (1 - a) + Math.min(255, garment.data[i * 4 + ch]! * s) * a;
  }
  return { image, alpha };
}

function scene(w: number, h: number) {
  const person: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  const garment: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
  const mask = createMap(w, h);
  const alpha = createMap(w, h);
  const bodyPart = createMap(w, h);
  const hard = createMap(w, h);
  const arms = createMap(w, h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      person.data[i * 4] = (x * 7 + y * 3) % 256;
      person.data[i * 4 + 1] = (x * y) % 256;
      person.data[i * 4 + 2] = 100 + ((x + y) % 50);
      garment.data[i * 4] = 200;
      garment.data[i * 4 + 1] = 40 + (x % 30);
      garment.data[i * 4 + 2] = 90;
      mask.data[i] = x > w * 0.25 && x < w * 0.75 ? 1 : 0;
      // Garment over the middle, soft at its top edge, none at the borders.
      if (x > w * 0.2 && x < w * 0.8 && y > h * 0.3 && y < h * 0.9) alpha.data[i] = Math.min(1, (y - h * 0.3) / 6);
      bodyPart.data[i] = x > w / 2 ? 1 : 0;
      if (y < h * 0.35) hard.data[i] = 0.5;
      if (x > w * 0.6 && x < w * 0.7) arms.data[i] = 1;
    }
  return { person, garment, mask, alpha, bodyPart, hard, arms };
}

describe('composite', () => {
  for (const clip of [undefined, 0, 60]) {
    it(`matches the plain full-frame composite (clip ${clip ?? 'all'})`, () => {
      const w = 120;
      const h = 100;
      const s = scene(w, h);
      const input: CompositeInput = {
        person: s.person,
        personMask: s.mask,
        garment: s.garment,
        alpha: s.alpha,
        bodyPart: s.bodyPart,
        protection: { hard: s.hard, arms: s.arms },
        shadingRadius: 60,
        bodyClipUntilY: clip,
        shadeUntilY: clip === undefined ? undefined : clip + 10,
      };
      const got = composite(input);
      const want = referenceComposite(input);
      let changed = 0;
      let maxA = 0;
      let maxC = 0;
      for (let i = 0; i < w * h; i++) {
        maxA = Math.max(maxA, Math.abs(got.alpha.data[i]! - want.alpha[i]!));
        for (let c = 0; c < 4; c++)
          maxC = Math.max(maxC, Math.abs(got.image.data[i * 4 + c]! - want.image[i * 4 + c]!));
        if (got.image.data[i * 4] !== s.person.data[i * 4]) changed++;
      }
      expect(maxA).toBeLessThan(1e-6);
      expect(maxC).toBeLessThanOrEqual(0.5);
      expect(changed).toBeGreaterThan(1000);
      // Arms in front: the garment body (right half) is hidden under them, sleeves are not.
      expect(got.alpha.data[80 * w + 78]).toBeCloseTo(0, 6);
    });
  }

  it('carries soft folds onto the garment but not the hard edges of the old clothes', () => {
    const w = 160;
    const h = 120;
    const person: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    const garment: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    const full = createMap(w, h, 1);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        // Left half: a light top with soft folds (±5 % luminance); right half: dark jeans.
        const v = x < w / 2 ? 200 * (1 + 0.05 * Math.sin((y / h) * Math.PI * 6)) : 50;
        person.data.set([v, v, v, 255], o);
        garment.data.set([200, 200, 200, 255], o);
      }
    const zero = createMap(w, h);
    const got = composite({
      person,
      personMask: full,
      garment,
      alpha: full,
      bodyPart: zero,
      protection: { hard: zero, arms: zero },
      shadingRadius: 100,
    });
    const at = (x: number, y: number) => got.image.data[(y * w + x) * 4]!;
    // On the dark side the garment keeps its colour: at most a faint line (4 %) right
    // along the light-to-dark edge, nothing away from it.
    for (const x of [w / 2 + 1, w / 2 + 4]) expect(Math.abs(at(x, h / 2) - 200)).toBeLessThanOrEqual(8);
    for (const x of [w / 2 + 30, w - 10]) expect(Math.abs(at(x, h / 2) - 200)).toBeLessThanOrEqual(1);
    // On the light side, the folds show: rows at a crest and a trough differ clearly.
    const column = Array.from({ length: h - 20 }, (_, i) => at(20, i + 10));
    expect(Math.max(...column) - Math.min(...column)).toBeGreaterThan(5);
    // A skirt hanging free below shadeUntilY takes no folds.
    const free = composite({
      person,
      personMask: full,
      garment,
      alpha: full,
      bodyPart: zero,
      protection: { hard: zero, arms: zero },
      shadingRadius: 100,
      shadeUntilY: 0,
    });
    for (let y = 10; y < h - 10; y++) expect(free.image.data[(y * w + 20) * 4]).toBe(200);
  });

  it('returns the person unchanged where there is no garment', () => {
    const s = scene(30, 20);
    const zero = createMap(30, 20);
    const got = composite({
      person: s.person,
      personMask: s.mask,
      garment: s.garment,
      alpha: zero,
      bodyPart: zero,
      protection: { hard: zero, arms: zero },
      shadingRadius: 40,
    });
    expect(Array.from(got.image.data)).toEqual(Array.from(s.person.data));
    expect(got.alpha.data.every((v) => v === 0)).toBe(true);
  });
});

describe('protectedRegions', () => {
  const w = 200;
  const h = 260;
  const kps = syntheticKeypoints(w, h);
  const b = bodyFrame(kps);
  const mask = createMap(w, h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x > w * 0.25 && x < w * 0.75) mask.data[y * w + x] = 1;
  const neckY = h * 0.18;
  const hairColour = [40, 30, 20];
  const image: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(200) };
  const paint = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) image.data.set(hairColour, (y * w + x) * 4);
  };
  // A strand hanging from the neckline beside the neck, and a hair-coloured patch not connected to it.
  const cx = (b.shoulderL.x + b.shoulderR.x) / 2;
  const sx = Math.round(cx + b.sw * 0.5);
  paint(sx - 3, Math.floor(neckY) - 2, sx + 3, Math.floor(neckY) + 40);
  const px = Math.round(cx - b.sw * 0.5);
  paint(px - 3, Math.floor(neckY) + 20, px + 3, Math.floor(neckY) + 40);

  it('keeps the face, the neckline, hanging hair and the hands; nothing else', () => {
    const p = protectedRegions(kps, b, mask, neckY, { image, colours: [hairColour] });
    const at = (m: FloatMap, x: number, y: number) => m.data[Math.round(y) * w + Math.round(x)]!;
    expect(at(p.hard, 100, 5)).toBeCloseTo(1, 5); // above the neckline
    expect(at(p.hard, sx, neckY + 30)).toBeCloseTo(1, 5); // the strand
    expect(at(p.hard, px, neckY + 30)).toBe(0); // the unconnected patch
    expect(at(p.hard, kps[15]!.x, kps[15]!.y)).toBeGreaterThan(0.9); // a wrist
    expect(at(p.hard, 100, h * 0.8)).toBe(0); // the belly
    expect(at(p.hard, 100, h - 1)).toBe(0);
    // Arms: on the forearm where the person is, nothing outside the person.
    const ex = (kps[13]!.x + kps[15]!.x) / 2;
    const ey = (kps[13]!.y + kps[15]!.y) / 2;
    expect(at(p.arms, ex, ey)).toBeGreaterThan(0.5);
    expect(at(p.arms, 10, ey)).toBe(0);
    expect(at(p.arms, 100, 5)).toBe(0);
  });

  it('skips the hair when it would swallow the shoulders', () => {
    const all: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    for (let i = 0; i < w * h; i++) all.data.set(hairColour, i * 4);
    const p = protectedRegions(kps, b, mask, neckY, { image: all, colours: [hairColour] });
    expect(p.hard.data[Math.round(neckY + 30) * w + sx]).toBe(0);
  });
});

describe('sampleHairColours', () => {
  it('returns the dark and the light half of the hair around the head', () => {
    const w = 200;
    const h = 260;
    const kps = syntheticKeypoints(w, h);
    const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4) };
    const mask = createMap(w, h, 1);
    // Left half of the frame dark hair, right half light hair.
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) img.data.set(x < w / 2 ? [20, 10, 5] : [120, 100, 80], (y * w + x) * 4);
    const c = sampleHairColours(img, mask, kps, 40);
    expect(c).not.toBeNull();
    // About as many dark as light samples: each half is (nearly) one of the two colours.
    expect(c![0]![0]).toBeLessThan(40);
    expect(c![0]![2]).toBeLessThan(25);
    expect(c![1]![0]).toBeGreaterThan(100);
    expect(c![1]![2]).toBeGreaterThan(60);
    expect(sampleHairColours(img, createMap(w, h), kps, 40)).toBeNull();
  });
});

describe('clipBeyondArms', () => {
  const W = 240;
  const H = 320;
  const setup = () => {
    const person: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(200) };
    const image: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(40) };
    const alpha = createMap(W, H);
    alpha.data.fill(1);
    return { person, image, alpha };
  };

  it('takes a sleeveless garment off the far side of arms hanging beside the body', () => {
    const { person, image, alpha } = setup();
    const k = syntheticKeypoints(W, H);
    const b = bodyFrame(k);
    clipBeyondArms(image, person, alpha, b);
    // Half-way down the upper arm: beyond the arm's axis, the photo; inside it, the garment.
    const y = Math.round((b.shoulderL.y + b.elbowL.y) / 2);
    const axis = (b.shoulderL.x + b.elbowL.x) / 2;
    const outside = y * W + Math.round(axis) - 6;
    const inside = y * W + Math.round(axis) + 6;
    expect(alpha.data[outside]).toBe(0);
    expect(image.data[outside * 4]).toBe(200);
    expect(alpha.data[inside]).toBe(1);
    expect(image.data[inside * 4]).toBe(40);
    // The shoulder's top (above the joint) and the rows below the wrists stay the garment's.
    expect(alpha.data[Math.round(b.shoulderL.y - 2) * W + Math.round(b.shoulderL.x) - 6]).toBe(1);
    expect(alpha.data[Math.round(b.wristL.y + 10) * W + 2]).toBe(1);
  });

  it('leaves the garment whole under an arm in front of the torso', () => {
    const { person, image, alpha } = setup();
    const k = syntheticKeypoints(W, H);
    // The image-left forearm crosses the torso (elbow and wrist near the centre line).
    k[13] = { x: W * 0.45, y: H * 0.38, score: 1 };
    k[14] = { x: W * 0.55, y: H * 0.38, score: 1 };
    k[15] = { x: W * 0.5, y: H * 0.5, score: 1 };
    k[16] = { x: W * 0.5, y: H * 0.5, score: 1 };
    clipBeyondArms(image, person, alpha, bodyFrame(k));
    expect(alpha.data.every((a) => a === 1)).toBe(true);
  });
});
