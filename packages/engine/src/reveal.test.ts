import { describe, expect, it } from 'vitest';
import { createMap, type RGBAImage } from './image.js';
import { syntheticKeypoints } from './synthetic.js';
import { skinTone, type RevealInput, type Rgb } from './reveal.js';
import { revealLimbs } from './reveal-arms.js';
import { isSkin, KP } from './person.js';

const W = 200;
const H = 200;
const SKIN: Rgb = [205, 150, 120];
const SLEEVE: Rgb = [30, 30, 60];

function fill(img: RGBAImage, test: (x: number, y: number) => boolean, c: Rgb): void {
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      if (!test(x, y)) continue;
      const o = (y * img.width + x) * 4;
      img.data[o] = c[0];
      img.data[o + 1] = c[1];
      img.data[o + 2] = c[2];
      img.data[o + 3] = 255;
    }
}

/** A standing figure: torso block, arms as 12 px wide bands along x = 0.37 W and 0.63 W. */
function scene(leftArm: Rgb, rightArm: Rgb) {
  const person: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(240) };
  const kps = syntheticKeypoints(W, H);
  const armL = (x: number, y: number) => Math.abs(x - 0.37 * W) <= 6 && y >= 0.22 * H && y <= 0.52 * H;
  const armR = (x: number, y: number) => Math.abs(x - 0.63 * W) <= 6 && y >= 0.22 * H && y <= 0.52 * H;
  const torso = (x: number, y: number) => x > 0.4 * W && x < 0.6 * W && y >= 0.22 * H && y <= 0.55 * H;
  const face = (x: number, y: number) => (x - 0.5 * W) ** 2 + (y - 0.1 * H) ** 2 < 12 ** 2;
  fill(person, torso, SLEEVE);
  fill(person, armL, leftArm);
  fill(person, armR, rightArm);
  fill(person, face, SKIN);
  const mask = createMap(W, H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) if (armL(x, y) || armR(x, y) || torso(x, y) || face(x, y)) mask.data[y * W + x] = 1;
  // Arms hang straight down from the shoulders (the synthetic pose has them slightly out).
  for (const [s, e, wr, x] of [
    [KP.leftShoulder, KP.leftElbow, KP.leftWrist, 0.63],
    [KP.rightShoulder, KP.rightElbow, KP.rightWrist, 0.37],
  ] as const) {
    kps[s] = { x: x * W, y: 0.22 * H, score: 1 };
    kps[e] = { x: x * W, y: 0.37 * H, score: 1 };
    kps[wr] = { x: x * W, y: 0.52 * H, score: 1 };
  }
  return { person, kps, mask };
}

const at = (img: RGBAImage, x: number, y: number): Rgb => {
  const o = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
};

/** revealLimbs on a copy of the photo: nothing covered or protected, the upper-body category and the scene's skin, unless given. */
function reveal(
  person: RGBAImage,
  kps: RevealInput['keypoints'],
  mask: RevealInput['personMask'],
  over: Partial<RevealInput> = {},
) {
  const image: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(person.data) };
  const input: RevealInput = {
    image,
    alpha: createMap(W, H),
    person,
    personMask: mask,
    hard: createMap(W, H),
    keypoints: kps,
    sw: 0.26 * W,
    category: 'upper_body',
    skin: SKIN,
    ...over,
  };
  revealLimbs(input);
  return input;
}

describe('revealing limbs the new garment leaves bare', () => {
  it('repaints an old long sleeve in the skin tone and leaves a bare arm, the torso and the garment alone', () => {
    // Image-left arm in an old dark sleeve, image-right arm bare.
    const { person, kps, mask } = scene(SLEEVE, SKIN);
    const alpha = createMap(W, H);
    // The new garment covers the top of both arms (short sleeves) and the torso.
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        if (y >= 0.2 * H && y <= 0.3 * H && x >= 0.3 * W && x <= 0.7 * W) alpha.data[y * W + x] = 1;
    const before = new Uint8ClampedArray(person.data);
    const { image } = reveal(person, kps, mask, { alpha });
    // The old sleeve below the new short sleeve is now skin-coloured.
    const forearm = at(image, 0.37 * W, 0.45 * H);
    expect(isSkin(...forearm)).toBe(true);
    expect(
      Math.abs(forearm[0] - SKIN[0]) + Math.abs(forearm[1] - SKIN[1]) + Math.abs(forearm[2] - SKIN[2]),
    ).toBeLessThan(60);
    expect(alpha.data[Math.round(0.45 * H) * W + Math.round(0.37 * W)]).toBeGreaterThan(0.9);
    // The bare arm, the torso between the arms and the garment-covered rows are untouched.
    for (const [x, y] of [
      [0.63 * W, 0.45 * H],
      [0.5 * W, 0.45 * H],
      [0.37 * W, 0.25 * H],
      [0.2 * W, 0.45 * H],
    ] as const) {
      const o = (Math.round(y) * W + Math.round(x)) * 4;
      expect([image.data[o], image.data[o + 1], image.data[o + 2]]).toEqual([before[o], before[o + 1], before[o + 2]]);
    }
  });

  it('shades a repainted arm as a round limb, and the old sleeve beyond its side becomes the backdrop', () => {
    const { person, kps, mask } = scene(SLEEVE, SKIN);
    // A loose dark sleeve, much wider than the arm, on the image-left forearm's outer side.
    const loose = (x: number, y: number) => x >= 0.37 * W - 14 && x <= 0.37 * W && y >= 0.3 * H && y <= 0.52 * H;
    fill(person, loose, SLEEVE);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (loose(x, y)) mask.data[y * W + x] = 1;
    const { image } = reveal(person, kps, mask);
    const luma = ([r, g, b]: Rgb) => 0.299 * r + 0.587 * g + 0.114 * b;
    // Lit on its axis, darker towards its side (a flat band is the same across).
    const axis = at(image, 0.37 * W, 0.45 * H);
    const side = at(image, 0.37 * W - 5, 0.45 * H);
    expect(isSkin(...axis)).toBe(true);
    expect(isSkin(...side)).toBe(true);
    expect(luma(axis) - luma(side)).toBeGreaterThan(5);
    // Beyond the arm the sleeve is gone: the backdrop's light grey, not a dark outline.
    for (const dx of [11, 13]) {
      const px = at(image, 0.37 * W - dx, 0.45 * H);
      expect(Math.min(...px)).toBeGreaterThan(200);
    }
  });

  it('repaints the old cuff inside the hand zone, but not the hand', () => {
    const { person, kps, mask } = scene(SLEEVE, SKIN);
    // The sleeve runs 10 px past the wrist (y 104) and a skin-coloured hand follows.
    fill(person, (x, y) => Math.abs(x - 0.37 * W) <= 6 && y > 0.52 * H && y <= 0.57 * H, SLEEVE);
    fill(person, (x, y) => Math.abs(x - 0.37 * W) <= 6 && y > 0.57 * H && y <= 0.62 * H, SKIN);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        if (Math.abs(x - 0.37 * W) <= 6 && y > 0.52 * H && y <= 0.62 * H) mask.data[y * W + x] = 1;
    const hard = createMap(W, H);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) if ((x - 0.37 * W) ** 2 + (y - 0.55 * H) ** 2 <= 14 ** 2) hard.data[y * W + x] = 1;
    const { image } = reveal(person, kps, mask, { hard });
    expect(isSkin(...at(image, 0.37 * W, 0.545 * H))).toBe(true);
    expect(at(image, 0.37 * W, 0.6 * H)).toEqual(SKIN);
  });

  it('changes nothing for trousers or without a skin tone', () => {
    const { person, kps, mask } = scene(SLEEVE, SLEEVE);
    for (const [category, skin] of [
      ['lower_body', SKIN],
      ['upper_body', null],
    ] as const) {
      const { image } = reveal(person, kps, mask, { category, skin });
      for (const x of [0.37 * W, 0.63 * W])
        for (const y of [0.3 * H, 0.4 * H, 0.5 * H]) expect(at(image, x, y)).toEqual(SLEEVE);
    }
  });

  it('samples the skin tone from the face and hands, and gives up when no skin shows', () => {
    const { person, kps } = scene(SLEEVE, SKIN);
    // syntheticKeypoints puts the nose at (0.5 W, 0.1 H), inside the drawn face.
    const tone = skinTone(person, kps, 0.26 * W);
    expect(tone).not.toBeNull();
    expect(Math.abs(tone![0] - SKIN[0]) + Math.abs(tone![1] - SKIN[1]) + Math.abs(tone![2] - SKIN[2])).toBeLessThan(6);
    const grey: RGBAImage = { width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(128) };
    expect(skinTone(grey, kps, 0.26 * W)).toBeNull();
  });
});
