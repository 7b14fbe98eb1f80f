/**
 * A top laid over the person in layers, back to front, on the crop the garment can reach:
 *
 * 1. the photo, with the old top where nothing new will lie over it (beside the arms, beyond
 *    the new garment's outline) turned into the background behind it (old-top-fill.ts);
 * 2. the arms where old clothes covered them, painted from the person's visible skin
 *    (arm-paint.ts);
 * 3. the garment body, stretched out to the person's outline at its sides (torso-fill.ts), cut
 *    to that outline, behind the arms in front of the torso, whose outlines are clean
 *    (arm-model.ts);
 * 4. the sleeves, warped along the upper arms (fit.ts), over the arms.
 *
 * Face, hair, neck and hands stay the photo's. The garment takes the person's light
 * (garment-light.ts). Returns the composite, what changed (its alpha), and the garment's
 * coverage before the arms in front of it (the shopper figures read the garment whole).
 */
import { blurRect, createMap, type FloatMap, type RGBAImage } from './image.js';
import type { Keypoint } from './person.js';
import { isSkin } from './person.js';
import type { BodyFrame, Fit } from './fit.js';
import type { PreparedGarment } from './prepare-garment.js';
import { protectedRegions } from './protected-regions.js';
import { rasterArms, type Arm } from './arm-model.js';
import { clothedArm, paintArms } from './arm-paint.js';
import { warpLayers, type Crop, type Layer } from './warp-parts.js';
import { clipToOutline, stretchToOutline } from './torso-fill.js';
import { garmentLight } from './garment-light.js';
import { fillOldTop } from './old-top-fill.js';
import { bin, clothColours } from './cover.js';
import type { Rgb } from './reveal.js';

export interface UpperCompositeInput {
  /** The arms (arm-model.ts), on the crop. */
  arms: Arm[];
  /** The photo, mask and keypoints on the crop. */
  person: RGBAImage;
  personMask: FloatMap;
  keypoints: Keypoint[];
  /** The body frame on the crop, and on the whole photo (for the warp). */
  body: BodyFrame;
  bodyFull: BodyFrame;
  fit: Fit;
  garment: PreparedGarment;
  crop: Crop;
  /** Rows (crop) of the neckline, the top's first covered row and its hem. */
  neckY: number;
  topY: number;
  hemY: number;
  hair: { image: RGBAImage; colours: number[][] } | null;
  skin: Rgb | null;
  /** Receives the intermediate maps (for looking at them while working on the engine). */
  inspect?: (name: string, map: Float32Array) => void;
}

export interface UpperCompositeResult {
  image: RGBAImage;
  alpha: FloatMap;
  /** The garment (body and sleeves) as laid, before the arms in front of it. */
  layer: FloatMap;
  hard: FloatMap;
}

/** Where the arms stand in front of the garment body: from this far down the upper arm. */
const FRONT_FROM = 0.22;

function shadeInto(out: RGBAImage, layer: Layer, a: Float32Array, light: Float32Array, wP: Float32Array): void {
  const od = out.data;
  const ld = layer.image.data;
  for (let i = 0, n = a.length; i < n; i++) {
    const al = a[i]!;
    if (al <= 0.002) continue;
    const f = light[i]!;
    const o = i * 4;
    for (let ch = 0; ch < 3; ch++) {
      const v = ld[o + ch]! * f;
      od[o + ch] = od[o + ch]! * (1 - al) + (v < 255 ? v : 255) * al;
    }
    wP[i] = wP[i]! * (1 - al);
  }
}

export function composeUpper(c: UpperCompositeInput): UpperCompositeResult {
  const { person, personMask, keypoints: kps, body, fit } = c;
  const { width: w, height: h } = person;
  const n = w * h;
  const sw = body.sw;
  const layers = warpLayers(c.garment, fit, c.bodyFull, c.crop);
  const hard = protectedRegions(kps, body, personMask, c.neckY, c.hair).hard;
  const hd = hard.data;
  // The arms, and where they stand in front of the garment body.
  const arms = c.arms;
  const raster = rasterArms(arms, w, h, 0);
  const front = new Float32Array(n);
  {
    const { x0, y0, x1, y1 } = raster.box;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const i = y * w + x;
        const a = raster.alpha.data[i]!;
        if (a <= 0) continue;
        const arm = arms[raster.arm[i]! - 1]!;
        const s = raster.sample[i]! * 2;
        const from = arm.upper * FRONT_FROM;
        const ramp = Math.max(2, sw * 0.04);
        front[i] = a * Math.max(0, Math.min(1, (s - from) / ramp));
      }
  }
  // The old clothes' colours (what the garment body covers of them) and the person's skin.
  const pd = person.data;
  const skin = c.skin;
  const skinLike = (i: number) => {
    const o = i * 4;
    return skin
      ? Math.abs(pd[o]! - skin[0]) + Math.abs(pd[o + 1]! - skin[1]) + Math.abs(pd[o + 2]! - skin[2]) < 70 ||
          isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!)
      : isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!);
  };
  const md = personMask.data;
  const oldColours = clothColours(
    pd,
    (i) => layers.body.alpha.data[i]! >= 0.9 && front[i]! < 0.3 && md[i]! >= 0.5 && hd[i]! <= 0.3 && !skinLike(i),
    w,
    Math.max(0, Math.round(c.topY)),
    Math.min(h - 1, Math.round(c.hemY)),
  );
  const sMid = { x: (body.shoulderL.x + body.shoulderR.x) / 2, y: (body.shoulderL.y + body.shoulderR.y) / 2 };
  const centreAt = (y: number) =>
    sMid.x + ((body.hipMid.x - sMid.x) * (y - sMid.y)) / Math.max(1, body.hipMid.y - sMid.y);
  // The garment body out to the person's outline at its sides, then cut to that outline.
  stretchToOutline({
    body: layers.body,
    personMask,
    front,
    hard,
    sw,
    centreAt,
    // Below the armpits: above them the shoulders are the sleeves' (or an armhole's own shape).
    y0: Math.max(c.topY, fit.armpitY - c.crop.y0 + sw * 0.05),
    y1: c.hemY,
    oldCloth: oldColours
      ? (i) => oldColours[bin(pd[i * 4]!, pd[i * 4 + 1]!, pd[i * 4 + 2]!)]! >= 0.01 && !skinLike(i)
      : null,
  });
  // Loose below the waist when the garment flares there (hem wider than its waist).
  const lm = c.garment.landmarks;
  const flares =
    lm.kind === 'upper' && Math.abs(lm.hemRight.x - lm.hemLeft.x) > Math.abs(lm.waistRight.x - lm.waistLeft.x) * 1.12;
  const looseFrom = flares ? body.hipMid.y - body.torso * 0.25 : h;
  const reach =
    flares || fit.parts.length > 1
      ? blurRect(personMask.data, w, h, Math.max(2, Math.round(sw * 0.1)), 1, 0, 0, w - 1, h - 1)
      : null;
  clipToOutline(layers.body.alpha, personMask, looseFrom, flares ? reach : null);
  // Sleeves hang a little beyond the arm (their own ease), never far from the person: cut a
  // twentieth of a shoulder width beyond its outline, with a soft edge of a pixel or two.
  if (fit.parts.length > 1) {
    const near = blurRect(personMask.data, w, h, Math.max(1, Math.round(sw * 0.05)), 1, 0, 0, w - 1, h - 1);
    const sa = layers.rest.alpha.data;
    for (let i = 0; i < n; i++) if (sa[i]! > 0) sa[i] = sa[i]! * Math.max(0, Math.min(1, (near[i]! - 0.04) * 6));
  }
  const ba = layers.body.alpha.data;
  const sa = layers.rest.alpha.data;
  // Each layer's final alpha.
  const bodyA = new Float32Array(n);
  const sleeveA = new Float32Array(n);
  const layer = createMap(w, h);
  for (let i = 0; i < n; i++) {
    const keep = 1 - hd[i]!;
    bodyA[i] = ba[i]! * (1 - front[i]!) * keep;
    sleeveA[i] = sa[i]! * keep;
    layer.data[i] = Math.max(ba[i]! * keep, sleeveA[i]!);
  }
  c.inspect?.('front', front);
  c.inspect?.('body', bodyA);
  c.inspect?.('sleeves', sleeveA);
  const light = garmentLight({ person, personMask, cover: layers.body.alpha, hard, sw });
  const out: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(person.data) };
  const wP = new Float32Array(n).fill(1);
  const clothed = clothedArm(raster, arms, w, h);
  const paint = new Float32Array(n);
  // The hands stay the photo's, but not an old cuff reaching over the wrist.
  for (let i = 0; i < n; i++) if (clothed[i]) paint[i] = raster.alpha.data[i]! * (skinLike(i) ? 1 - hd[i]! : 1);
  // Painted arms, then the body behind the arms in front, then the sleeves.
  const armA = new Float32Array(n);
  paintArms({ person, out, arms, raster, clothed, paint, skinTone: skin, light }, armA);
  c.inspect?.('painted', armA);
  for (let i = 0; i < n; i++) if (armA[i]! > 0) wP[i] = wP[i]! * (1 - armA[i]!);
  shadeInto(out, layers.body, bodyA, light, wP);
  shadeInto(out, layers.rest, sleeveA, light, wP);
  // The old top where nothing new lies: beside the torso and by the arms.
  if (oldColours) {
    const covered = new Float32Array(n);
    const near = new Uint8Array(n);
    for (let y = 0; y < h; y++) {
      const cx = centreAt(y);
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        covered[i] = Math.max(bodyA[i]!, sleeveA[i]!, raster.alpha.data[i]!);
        if (Math.abs(x - cx) > sw * 0.45) near[i] = 1;
      }
    }
    const filled = new Float32Array(n);
    fillOldTop({ person, personMask, covered, hard, oldColours, skinLike, y0: c.neckY, y1: c.hemY, near }, out, filled);
    for (let i = 0; i < n; i++) if (filled[i]! > 0) wP[i] = wP[i]! * (1 - filled[i]!);
    c.inspect?.('filled', filled);
  }
  // What changed, and its colour as the output stage lays it over the photo at full size.
  const alpha = createMap(w, h);
  const od = out.data;
  for (let i = 0; i < n; i++) {
    const a = 1 - wP[i]!;
    if (a <= 0.002) continue;
    alpha.data[i] = a;
    const o = i * 4;
    for (let ch = 0; ch < 3; ch++) od[o + ch] = (od[o + ch]! - pd[o + ch]! * (1 - a)) / a;
  }
  return { image: out, alpha, layer, hard };
}
