/**
 * The tops' compositing on drawn figures (sharp renders them from SVG): a figure in an orange
 * top with short sleeves, its arms at its sides or one forearm across its torso, dressed in a
 * green T-shirt photographed on white (once with a grey halo round its outline, as a product
 * photo's backdrop leaves one). The figure's keypoints and mask are the drawing's own.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createMap, type RGBAImage } from './image.js';
import { KP, type PersonAnalysis } from './person.js';
import { fitAndComposite } from './fit-and-composite.js';
import { cutOutGarment, prepareGarment } from './prepare-garment.js';

const W = 480;
const H = 640;
const BACK = [150, 180, 215];
const SKIN = [214, 160, 122];
const OLD = [224, 112, 32];
const GREEN = [46, 158, 79];
const HALO = [196, 196, 196];
const rgb = (c: number[]) => `rgb(${c.join(',')})`;

interface Figure {
  shoulderL: [number, number];
  elbowL: [number, number];
  wristL: [number, number];
  shoulderR: [number, number];
  elbowR: [number, number];
  wristR: [number, number];
}

const HANGING: Figure = {
  shoulderL: [170, 180],
  elbowL: [150, 320],
  wristL: [142, 450],
  shoulderR: [310, 180],
  elbowR: [330, 320],
  wristR: [338, 450],
};
/** The image-right forearm across the belly. */
const ACROSS: Figure = { ...HANGING, elbowR: [336, 330], wristR: [215, 372] };

const line = (a: [number, number], b: [number, number], width: number, colour: number[]) =>
  `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}" stroke="${rgb(colour)}" stroke-width="${width}" stroke-linecap="round"/>`;

async function raw(svg: string): Promise<RGBAImage> {
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data) };
}

/** The figure: head, neck, an orange top with short sleeves, bare arms, dark trousers. */
async function person(f: Figure): Promise<{ image: RGBAImage; analysis: PersonAnalysis }> {
  const arm = (s: [number, number], e: [number, number], wr: [number, number]) =>
    line(s, e, 34, SKIN) +
    line(e, wr, 28, SKIN) +
    `<circle cx="${wr[0]}" cy="${wr[1] + 14}" r="16" fill="${rgb(SKIN)}"/>`;
  // The old top's short sleeves: the upper arms' first third.
  const third = (s: [number, number], e: [number, number]): [number, number] => [
    s[0] + (e[0] - s[0]) * 0.35,
    s[1] + (e[1] - s[1]) * 0.35,
  ];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="100%" height="100%" fill="${rgb(BACK)}"/>
    <rect x="180" y="420" width="120" height="220" fill="rgb(30,34,60)"/>
    <rect x="222" y="120" width="36" height="60" fill="${rgb(SKIN)}"/>
    <ellipse cx="240" cy="90" rx="40" ry="50" fill="${rgb(SKIN)}"/>
    ${arm(f.shoulderL, f.elbowL, f.wristL)}
    ${arm(f.shoulderR, f.elbowR, f.wristR)}
    <polygon points="168,172 312,172 300,430 180,430" fill="${rgb(OLD)}"/>
    ${line(f.shoulderL, third(f.shoulderL, f.elbowL), 44, OLD)}
    ${line(f.shoulderR, third(f.shoulderR, f.elbowR), 44, OLD)}
    ${f === ACROSS ? line(f.elbowR, f.wristR, 28, SKIN) + `<circle cx="${f.wristR[0]}" cy="${f.wristR[1] + 14}" r="16" fill="${rgb(SKIN)}"/>` : ''}
  </svg>`;
  const image = await raw(svg);
  const mask = createMap(W, H);
  for (let i = 0; i < W * H; i++) {
    const o = i * 4;
    const d =
      Math.abs(image.data[o]! - BACK[0]!) +
      Math.abs(image.data[o + 1]! - BACK[1]!) +
      Math.abs(image.data[o + 2]! - BACK[2]!);
    mask.data[i] = d > 30 ? 1 : 0;
  }
  const k = Array.from({ length: 33 }, () => ({ x: 240, y: 90, score: 1 }));
  const set = (i: number, p: [number, number]) => (k[i] = { x: p[0], y: p[1], score: 1 });
  set(KP.nose, [240, 95]);
  set(KP.leftEye, [222, 80]);
  set(KP.rightEye, [258, 80]);
  set(KP.leftEar, [203, 88]);
  set(KP.rightEar, [277, 88]);
  set(KP.mouthLeft, [230, 112]);
  set(KP.mouthRight, [250, 112]);
  // The figure faces the camera: its left is the image's right.
  set(KP.leftShoulder, f.shoulderR);
  set(KP.rightShoulder, f.shoulderL);
  set(KP.leftElbow, f.elbowR);
  set(KP.rightElbow, f.elbowL);
  set(KP.leftWrist, f.wristR);
  set(KP.rightWrist, f.wristL);
  for (const [i, wr] of [
    [KP.leftIndex, f.wristR],
    [KP.leftPinky, f.wristR],
    [KP.leftThumb, f.wristR],
    [KP.rightIndex, f.wristL],
    [KP.rightPinky, f.wristL],
    [KP.rightThumb, f.wristL],
  ] as const)
    set(i, [wr[0], wr[1] + 18]);
  set(KP.leftHip, [270, 430]);
  set(KP.rightHip, [210, 430]);
  set(KP.leftKnee, [268, 540]);
  set(KP.rightKnee, [212, 540]);
  set(KP.leftAnkle, [266, 636]);
  set(KP.rightAnkle, [214, 636]);
  return {
    image,
    analysis: { width: W, height: H, keypoints: k, poseScore: 1, mask, peopleCount: 1, skin: 3 },
  };
}

/** A green T-shirt laid flat on white, its outline ringed in grey when `halo`. */
async function tshirt(halo: boolean): Promise<RGBAImage> {
  const shape = '150,60 210,40 270,60 350,110 320,170 280,150 280,420 120,420 120,150 80,170 50,110 110,60';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="480">
    <rect width="100%" height="100%" fill="white"/>
    ${halo ? `<polygon points="${shape}" fill="none" stroke="${rgb(HALO)}" stroke-width="5" stroke-linejoin="round"/>` : ''}
    <polygon points="${shape}" fill="${rgb(GREEN)}"/>
    <ellipse cx="200" cy="44" rx="34" ry="16" fill="white"/>
  </svg>`;
  return raw(svg);
}

async function dress(f: Figure, halo = false) {
  const p = await person(f);
  const g = await tshirt(halo);
  const prepared = prepareGarment(g, false, 'upper_body', cutOutGarment(g, false));
  const r = fitAndComposite(p.image, p.analysis, prepared, 'upper_body');
  return { person: p.image, result: r.image };
}

const near = (img: RGBAImage, i: number, c: number[], tol: number) =>
  Math.abs(img.data[i * 4]! - c[0]!) + Math.abs(img.data[i * 4 + 1]! - c[1]!) + Math.abs(img.data[i * 4 + 2]! - c[2]!) <
  tol;

describe('a top over a drawn figure', () => {
  it('leaves nothing of the old top showing, beside the arms or anywhere on the torso', async () => {
    for (const f of [HANGING, ACROSS]) {
      const { person: p, result } = await dress(f);
      let old = 0;
      let left = 0;
      for (let i = 0; i < W * H; i++) {
        if (!near(p, i, OLD, 40)) continue;
        old++;
        if (near(result, i, OLD, 90)) left++;
      }
      expect(old).toBeGreaterThan(20000);
      expect(left / old).toBeLessThan(0.005);
    }
  });

  it('keeps a forearm across the torso in front of the garment, with a clean edge', async () => {
    const { result } = await dress(ACROSS);
    const e = ACROSS.elbowR;
    const wr = ACROSS.wristR;
    // Along the forearm's axis (away from the elbow and the hand) the arm's own skin shows.
    let skin = 0;
    let n = 0;
    for (let t = 0.25; t <= 0.75; t += 0.05) {
      const x = Math.round(e[0] + (wr[0] - e[0]) * t);
      const y = Math.round(e[1] + (wr[1] - e[1]) * t);
      n++;
      if (near(result, y * W + x, SKIN, 50)) skin++;
    }
    expect(skin).toBe(n);
    // Each column crossing the forearm, from above it to below it: garment, one run of arm, garment.
    let torn = 0;
    for (let x = 235; x <= 300; x += 3) {
      const t = (x - e[0]) / (wr[0] - e[0]);
      const yc = e[1] + (wr[1] - e[1]) * t;
      let runs = 0;
      let inSkin = false;
      for (let y = Math.round(yc - 30); y <= yc + 30; y++) {
        const s = near(result, y * W + x, SKIN, 60);
        if (s && !inSkin) runs++;
        inSkin = s;
      }
      const above = near(result, Math.round(yc - 28) * W + x, GREEN, 90);
      const below = near(result, Math.round(yc + 28) * W + x, GREEN, 90);
      if (runs !== 1 || !above || !below) torn++;
    }
    expect(torn).toBe(0);
  });

  it('hangs the sleeves along the upper arms', async () => {
    const { result } = await dress(HANGING);
    for (const [s, e, side] of [
      [HANGING.shoulderL, HANGING.elbowL, -1],
      [HANGING.shoulderR, HANGING.elbowR, 1],
    ] as const) {
      // The garment beside the shoulder, beyond the torso's side.
      let vx = 0;
      let vy = 0;
      let c = 0;
      let wing = 0;
      for (let y = s[1] - 30; y <= e[1]; y++)
        for (let x = 0; x < W; x++) {
          const i = y * W + x;
          if (!near(result, i, GREEN, 90) || (x - 240) * side < 75) continue;
          vx += x - s[0];
          vy += y - s[1];
          c++;
          // Far out beside the arm, a flat sleeve sticking out.
          const t = Math.max(0, Math.min(1, (y - s[1]) / (e[1] - s[1])));
          const axis = s[0] + (e[0] - s[0]) * t;
          if ((x - axis) * side > 40) wing++;
        }
      expect(c).toBeGreaterThan(300);
      const angle = Math.abs(Math.atan2(vy, vx) - Math.atan2(e[1] - s[1], e[0] - s[0])) * (180 / Math.PI);
      expect(Math.min(angle, 360 - angle)).toBeLessThan(25);
      expect(wing).toBeLessThan(c * 0.03);
    }
  });

  it('leaves no rim of the product photo’s backdrop round the garment', async () => {
    const { result, person: p } = await dress(HANGING, true);
    let rim = 0;
    let green = 0;
    for (let i = 0; i < W * H; i++) {
      if (near(result, i, GREEN, 90)) green++;
      if (near(result, i, HALO, 36) && !near(p, i, HALO, 36)) rim++;
    }
    expect(green).toBeGreaterThan(20000);
    expect(rim).toBeLessThan(40);
  });
});
