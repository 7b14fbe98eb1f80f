/**
 * The whole try-on on one thread: normalise → person analysis → garment cut-out and
 * landmarks → fit → warp → composite → encode.
 */
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { EngineError, type BinaryMask, type GarmentLandmarks } from './types.js';
import {
  createImage,
  createMap,
  cropImage,
  cropMap,
  decodeImage,
  pasteImage,
  pasteMap,
  type FloatMap,
  type RGBAImage,
} from './image.js';
import { analysePerson, KP, type PersonAnalysis } from './person.js';
import { GarmentSeparationError, segmentGarment } from './garment-segmentation.js';
import { garmentLandmarks, partLabels } from './garment-landmarks.js';
import { bodyFrame, fitGarment, type BodyFrame, type Fit } from './fit.js';
import { fitTps } from './tps.js';
import { warpImage } from './warp.js';
import { clipBeyondArms, composite, positiveBox } from './composite.js';
import { protectedRegions, sampleHairColours } from './protected-regions.js';
import type { Models } from './models.js';
import { skinTone } from './reveal.js';
import { revealLimbs } from './reveal-arms.js';
import { revealChest } from './reveal-chest.js';
import { coverRemnant } from './cover.js';
import { shopperFigures, type ShopperFigures } from './quality.js';

export const GARMENT_MAX_SIDE = 512;

export interface PipelineResult {
  image: Uint8Array;
  mimeType: 'image/jpeg';
  /** Diagnostics for benchmarks and tests. */
  info: {
    timings: Record<string, number>;
    width: number;
    height: number;
    keypoints: { x: number; y: number; score: number }[];
    /** What a shopper sees (see quality.ts). */
    quality: ShopperFigures;
  };
}

/**
 * Give the soft edge of the cut-out the colour of the garment next to it, so that
 * bilinear sampling never mixes in the old background (no light halo).
 */
function bleed(img: RGBAImage, alpha: FloatMap): void {
  const { width: w, height: h } = img;
  const a = alpha.data;
  const d = img.data;
  const R = 3;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const al = a[i]!;
      if (al >= 0.98) continue;
      if (
        al <= 0 &&
        !(x > 0 && a[i - 1]! > 0) &&
        !(x < w - 1 && a[i + 1]! > 0) &&
        !(y > 0 && a[i - w]! > 0) &&
        !(y < h - 1 && a[i + w]! > 0)
      )
        continue;
      // Only pixels near the garment matter; far background is never sampled with weight.
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let dy = -R; dy <= R; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (a[j]! < 0.98) continue;
          r += d[j * 4]!;
          g += d[j * 4 + 1]!;
          b += d[j * 4 + 2]!;
          n++;
        }
      }
      if (!n) continue;
      d[i * 4] = d[i * 4]! * al + (r / n) * (1 - al);
      d[i * 4 + 1] = d[i * 4 + 1]! * al + (g / n) * (1 - al);
      d[i * 4 + 2] = d[i * 4 + 2]! * al + (b / n) * (1 - al);
    }
}

/** Refusals that depend on the category: the body region the garment covers must be in the photo. */
export function checkPerson(p: PersonAnalysis, category: Category): void {
  const k = p.keypoints;
  const vis = (i: number) => k[i]!.score;
  const inFrame = (i: number, slack = 0.02) =>
    k[i]!.x >= -p.width * slack &&
    k[i]!.x <= p.width * (1 + slack) &&
    k[i]!.y >= -p.height * slack &&
    k[i]!.y <= p.height * (1 + slack);
  let area = 0;
  let n = 0;
  for (let i = 0; i < p.mask.data.length; i += 7) {
    n++;
    if (p.mask.data[i]! > 0.5) area++;
  }
  const areaFrac = area / Math.max(1, n);
  const shouldersSeen = vis(KP.leftShoulder) > 0.5 && vis(KP.rightShoulder) > 0.5;
  const hipsSeen = vis(KP.leftHip) > 0.35 || vis(KP.rightHip) > 0.35;
  // The pose model's own score is not enough on its own (a dress on a hanger can score
  // high, a real person low): a person also shows skin at the face or the hands.
  const found =
    (p.poseScore >= 0.95 && p.skin >= 1) || (p.poseScore >= 0.5 && p.skin >= 2) || (p.poseScore >= 0.1 && p.skin >= 3);
  if (!found || areaFrac < 0.02 || (!shouldersSeen && !hipsSeen)) throw new EngineError('PERSON_NOT_FOUND');
  if (p.peopleCount >= 2) throw new EngineError('MULTIPLE_PEOPLE');
  const b = bodyFrame(k);
  const minSide = Math.min(p.width, p.height);
  if (b.sw < minSide * 0.06 || areaFrac < 0.04) throw new EngineError('PERSON_TOO_SMALL');
  const need: number[] =
    category === 'upper_body'
      ? [KP.leftShoulder, KP.rightShoulder]
      : category === 'lower_body'
        ? [KP.leftHip, KP.rightHip, KP.leftKnee, KP.rightKnee]
        : [KP.leftShoulder, KP.rightShoulder, KP.leftHip, KP.rightHip];
  for (const i of need) if (!inFrame(i, 0.01)) throw new EngineError('PERSON_TOO_SMALL');
  if (category === 'upper_body') {
    // Hips may be just below the frame edge for a head-to-hips photo.
    const hipY = (k[KP.leftHip]!.y + k[KP.rightHip]!.y) / 2;
    if (hipY > p.height * 1.15) throw new EngineError('PERSON_TOO_SMALL');
  }
  if (category === 'lower_body' || category === 'dresses') {
    // The knees must really be in the photo (the model also guesses hidden ones).
    const kneeY = Math.min(k[KP.leftKnee]!.y, k[KP.rightKnee]!.y);
    const kneeSeen = Math.max(vis(KP.leftKnee), vis(KP.rightKnee));
    if (kneeY > p.height * 1.02 || kneeSeen < 0.5) throw new EngineError('PERSON_TOO_SMALL');
  }
}

/** Write the part labels (nearest analysis-grid cell) into the garment image's alpha channel. */
function partChannel(img: RGBAImage, labels: Uint8Array, gw: number, gh: number, f: number): void {
  const { width: w, height: h } = img;
  for (let y = 0; y < h; y++) {
    const gy = Math.min(gh - 1, Math.floor(y / f));
    for (let x = 0; x < w; x++) img.data[(y * w + x) * 4 + 3] = labels[gy * gw + Math.min(gw - 1, Math.floor(x / f))]!;
  }
}

export interface PreparedGarment {
  image: RGBAImage;
  alpha: FloatMap;
  landmarks: GarmentLandmarks;
  /** The cut-out on its analysis grid, and grid cells → garment pixels. */
  cutout: BinaryMask;
  cutoutScale: number;
}

export function prepareGarment(image: RGBAImage, hasAlpha: boolean, category: Category): PreparedGarment {
  let cut;
  try {
    cut = segmentGarment(image, hasAlpha);
  } catch (e) {
    if (e instanceof GarmentSeparationError) throw new EngineError('GARMENT_NOT_SEPARABLE', undefined, e.message);
    throw e;
  }
  const landmarks = garmentLandmarks(cut.mask, cut.scale, category);
  bleed(image, cut.alpha);
  partChannel(image, partLabels(cut.mask, cut.scale, landmarks), cut.mask.width, cut.mask.height, cut.scale);
  return { image, alpha: cut.alpha, landmarks, cutout: cut.mask, cutoutScale: cut.scale };
}

export interface FitResult {
  image: RGBAImage;
  alpha: FloatMap;
  fit: Fit;
  body: BodyFrame;
  quality: ShopperFigures;
}

/** Rows the garment should cover: from its top line to its fitted hem (the garment body's, or the legs'). */
function coverRows(fit: Fit, body: BodyFrame, category: Category): [number, number] {
  const pts = fit.parts.filter((p) => category === 'lower_body' || p.isBody).flatMap((p) => p.body);
  const hem = Math.max(...pts.map((p) => p.y));
  return [fit.neckY + body.sw * 0.1, hem - body.sw * 0.05];
}

export function fitAndComposite(
  person: RGBAImage,
  analysis: PersonAnalysis,
  g: PreparedGarment,
  category: Category,
): FitResult {
  const body = bodyFrame(analysis.keypoints);
  const fit = fitGarment(g.landmarks, body, analysis.mask, category);
  // All per-pixel work happens on the crop the garment can reach.
  const x0 = Math.max(0, Math.floor(fit.box.x0));
  const y0 = Math.max(0, Math.floor(fit.box.y0));
  const x1 = Math.min(person.width - 1, Math.ceil(fit.box.x1));
  const y1 = Math.min(person.height - 1, Math.ceil(fit.box.y1));
  const image: RGBAImage = { width: person.width, height: person.height, data: new Uint8ClampedArray(person.data) };
  const alpha = createMap(person.width, person.height);
  const [topY, hemY] = coverRows(fit, body, category);
  const figures = (hard: FloatMap, layer: FloatMap) =>
    shopperFigures({
      category,
      layer,
      final: alpha,
      person,
      personMask: analysis.mask,
      hard,
      keypoints: analysis.keypoints,
      cutout: g.cutout,
      cutoutToWork: g.cutoutScale * fit.scale,
      topY,
      hemY,
    });
  if (x1 <= x0 || y1 <= y0) return { image, alpha, fit, body, quality: figures(alpha, alpha) };
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  // Each part is warped on its own (thin-plate spline body → garment) and layered:
  // garment body first, sleeves / legs over it.
  const rgb = new Float32Array(cw * ch * 3);
  const layerAlpha = createMap(cw, ch);
  const bodyPart = createMap(cw, ch);
  for (const part of fit.parts) {
    if (part.body.length < 3) continue;
    const lambda = 0.001;
    const inverse = fitTps(part.body, part.garment, lambda);
    const forward = fitTps(part.garment, part.body, lambda);
    const py1 = part.allUntilY === undefined ? y1 : Math.max(y0 + 1, Math.min(y1, Math.round(part.allUntilY)));
    const warped = warpImage(g.image, g.alpha, inverse, { x0, y0, x1, y1: py1 }, 4, {
      id: part.allUntilY === undefined ? part.id : -1,
      forward,
      tolerance: body.sw * 0.1,
    });
    const d = warped.drawn;
    if (!d) continue;
    const wa = warped.alpha.data;
    const wi = warped.image.data;
    for (let y = d.y0; y <= d.y1; y++)
      for (let x = d.x0, i = y * cw + d.x0; x <= d.x1; x++, i++) {
        const a = wa[i]!;
        if (a <= 0) continue;
        const prev = layerAlpha.data[i]!;
        const keep = prev * (1 - a);
        const na = a + keep;
        const inv = 1 / Math.max(na, 1e-6);
        const o = i * 3;
        const q = i * 4;
        rgb[o] = (wi[q]! * a + rgb[o]! * keep) * inv;
        rgb[o + 1] = (wi[q + 1]! * a + rgb[o + 1]! * keep) * inv;
        rgb[o + 2] = (wi[q + 2]! * a + rgb[o + 2]! * keep) * inv;
        layerAlpha.data[i] = na;
        bodyPart.data[i] = part.isBody ? Math.max(bodyPart.data[i]! * (1 - a), a) : bodyPart.data[i]! * (1 - a);
      }
  }
  const layer = createImage(cw, ch);
  for (let i = 0, n = cw * ch; i < n; i++) {
    if (layerAlpha.data[i]! <= 0) continue;
    layer.data[i * 4] = rgb[i * 3]!;
    layer.data[i * 4 + 1] = rgb[i * 3 + 1]!;
    layer.data[i * 4 + 2] = rgb[i * 3 + 2]!;
  }
  const shift = <T extends { x: number; y: number }>(p: T): T => ({ ...p, x: p.x - x0, y: p.y - y0 });
  const kps = analysis.keypoints.map(shift);
  const bodyC = bodyFrame(kps);
  const maskC = cropMap(analysis.mask, x0, y0, cw, ch);
  const hairColours =
    category === 'lower_body' ? null : sampleHairColours(person, analysis.mask, analysis.keypoints, body.sw);
  const personC = cropImage(person, x0, y0, cw, ch);
  const protection = protectedRegions(
    kps,
    bodyC,
    maskC,
    fit.neckY - y0,
    hairColours ? { image: personC, colours: hairColours } : null,
  );
  const out = composite({
    person: personC,
    personMask: maskC,
    garment: layer,
    alpha: layerAlpha,
    bodyPart,
    protection,
    shadingRadius: body.sw,
    // Tops and the bodice of a dress stay on the body; skirts and trouser legs hang free.
    bodyClipUntilY: category === 'lower_body' ? 0 : category === 'upper_body' ? ch : body.hipMid.y - y0,
    // A skirt hanging free does not take the folds of the legs or clothes under it.
    shadeUntilY: category === 'dresses' ? body.hipMid.y - y0 + body.sw * 0.3 : ch,
  });
  // A sleeveless top or dress does not wrap around the arms hanging beside it.
  if (category !== 'lower_body' && fit.sleeveless) clipBeyondArms(out.image, personC, out.alpha, bodyC);
  const skin = category === 'lower_body' ? null : skinTone(person, analysis.keypoints, body.sw);
  // The old top showing beside the new one on the torso rows is covered by widening the
  // garment to it (tops; a dress's bodice, down to the hips); old clothes between the legs of
  // new trousers by their legs.
  coverRemnant({
    image: out.image,
    alpha: out.alpha,
    person: personC,
    personMask: maskC,
    hard: protection.hard,
    arms: protection.arms,
    keypoints: kps,
    sw: body.sw,
    y0: topY - y0,
    y1: (category === 'dresses' ? Math.min(hemY, body.hipMid.y + body.torso * 0.1) : hemY) - y0,
    outwardFromY: (fit.sleeveless ? fit.armpitY : topY) - y0,
    skin,
    legs: category === 'lower_body',
  });
  pasteImage(image, out.image, x0, y0);
  pasteMap(alpha, out.alpha, x0, y0);
  const layerAlphaFull: FloatMap = { width: alpha.width, height: alpha.height, data: new Float32Array(alpha.data) };
  const hard = createMap(person.width, person.height);
  pasteMap(hard, protection.hard, x0, y0);
  // Arms the new garment leaves bare lose the old sleeve (anywhere in the photo: a forearm
  // may reach beyond the garment's box), and the chest above its neckline the old top.
  if (category !== 'lower_body') {
    const bare = {
      image,
      alpha,
      person,
      personMask: analysis.mask,
      hard,
      keypoints: analysis.keypoints,
      sw: body.sw,
      category,
      skin,
      neckY: fit.neckY,
    };
    revealLimbs(bare);
    revealChest(bare);
  }
  return { image, alpha, fit, body, quality: figures(hard, layerAlphaFull) };
}

/**
 * The engine's own checks on its result: a garment that could not be placed on the body,
 * or most of which fell off it (or broke apart), is refused rather than shown; the
 * shopper is not charged. Thresholds sit well beyond what real photos give when the
 * result is usable (see docs/local-engine.md).
 */
export function checkResult(q: ShopperFigures): void {
  const f = (v: number) => v.toFixed(2);
  const detail = `offset ${f(q.offset)}, kept ${f(q.kept)}, pieces ${f(q.pieces)} (garment's own ${f(q.garmentPieces)})`;
  if (q.offset > 0.3) throw new EngineError('GARMENT_NOT_PLACED', undefined, `garment beside the body: ${detail}`);
  if (q.kept < 0.2)
    throw new EngineError('GARMENT_NOT_PLACED', undefined, `most of the garment fell off the body: ${detail}`);
  if (q.pieces > 0.4 && q.garmentPieces < 0.05)
    throw new EngineError('GARMENT_NOT_PLACED', undefined, `garment broke apart: ${detail}`);
}

export interface TryOnTask {
  person: Uint8Array;
  garment: Uint8Array;
  category: Category;
}

/** The person photo at its own size (RGB, EXIF-upright) and at the working size (RGBA). */
interface PersonPhoto {
  full: { data: Buffer; width: number; height: number };
  work: RGBAImage;
}

/**
 * Every per-pixel stage runs on the person photo reduced to this long side; only the
 * garment layer is scaled back up and laid over the photo at its own resolution, so the
 * face, hair and background keep every original pixel.
 */
export const WORK_MAX_SIDE = 640;

function unreadable(e: unknown): EngineError {
  return new EngineError('ENGINE_FAILED', 'The image could not be read.', (e as Error).message);
}

async function decodePerson(bytes: Uint8Array): Promise<PersonPhoto> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error' })
      .rotate()
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const full = { data, width: info.width, height: info.height };
    const scale = Math.min(1, WORK_MAX_SIDE / Math.max(info.width, info.height));
    const w = Math.max(1, Math.round(info.width * scale));
    const h = Math.max(1, Math.round(info.height * scale));
    const raw = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .ensureAlpha()
      .raw()
      .toBuffer();
    return {
      full,
      work: { width: w, height: h, data: new Uint8ClampedArray(raw.buffer, raw.byteOffset, raw.byteLength) },
    };
  } catch (e) {
    throw unreadable(e);
  }
}

async function decodeGarment(bytes: Uint8Array) {
  try {
    return await decodeImage(bytes, GARMENT_MAX_SIDE);
  } catch (e) {
    throw unreadable(e);
  }
}

/**
 * Lay the working-size result over the photo at its own size: the garment layer (the
 * changed pixels and their alpha, premultiplied) is scaled up bilinearly inside its
 * bounding box; every other pixel is the original. The photo's buffer is blended in place.
 */
async function renderOutput(photo: PersonPhoto, result: { image: RGBAImage; alpha: FloatMap }): Promise<Uint8Array> {
  const { work, full } = photo;
  const ww = work.width;
  const wh = work.height;
  const src = result.image.data;
  const al = result.alpha.data;
  const box = positiveBox(al, ww, wh);
  const out = full.data;
  if (box) {
    const { x0: bx0, y0: by0, x1: bx1, y1: by1 } = box;
    const W = full.width;
    const H = full.height;
    const sx = ww / W;
    const sy = wh / H;
    // Full-size pixels whose sample point falls within one pixel of the box.
    const X0 = Math.max(0, Math.floor((bx0 - 1 + 0.5) / sx - 0.5));
    const X1 = Math.min(W - 1, Math.ceil((bx1 + 1 + 0.5) / sx - 0.5));
    const Y0 = Math.max(0, Math.floor((by0 - 1 + 0.5) / sy - 0.5));
    const Y1 = Math.min(H - 1, Math.ceil((by1 + 1 + 0.5) / sy - 0.5));
    const xi = new Int32Array(X1 - X0 + 1);
    const xf = new Float32Array(X1 - X0 + 1);
    for (let X = X0; X <= X1; X++) {
      const fx = Math.min(ww - 1, Math.max(0, (X + 0.5) * sx - 0.5));
      const i = Math.max(0, Math.min(ww - 2, Math.floor(fx)));
      xi[X - X0] = i;
      xf[X - X0] = ww > 1 ? fx - i : 0;
    }
    const dx = ww > 1 ? 1 : 0;
    for (let Y = Y0; Y <= Y1; Y++) {
      const fy = Math.min(wh - 1, Math.max(0, (Y + 0.5) * sy - 0.5));
      const j = Math.max(0, Math.min(wh - 2, Math.floor(fy)));
      const ty = wh > 1 ? fy - j : 0;
      const r0 = j * ww;
      const r1 = wh > 1 ? r0 + ww : r0;
      for (let X = X0, k = 0; X <= X1; X++, k++) {
        const tx = xf[k]!;
        const i00 = r0 + xi[k]!;
        const i01 = i00 + dx;
        const i10 = r1 + xi[k]!;
        const i11 = i10 + dx;
        // Premultiplied bilinear weights: each corner counts with its own alpha.
        const w00 = (1 - tx) * (1 - ty) * al[i00]!;
        const w01 = tx * (1 - ty) * al[i01]!;
        const w10 = (1 - tx) * ty * al[i10]!;
        const w11 = tx * ty * al[i11]!;
        const a = w00 + w01 + w10 + w11;
        if (a <= 0.002) continue;
        const keep = a >= 1 ? 0 : 1 - a;
        const o = (Y * W + X) * 3;
        const q00 = i00 * 4;
        const q01 = i01 * 4;
        const q10 = i10 * 4;
        const q11 = i11 * 4;
        for (let ch = 0; ch < 3; ch++) {
          const v = src[q00 + ch]! * w00 + src[q01 + ch]! * w01 + src[q10 + ch]! * w10 + src[q11 + ch]! * w11;
          out[o + ch] = Math.min(255, out[o + ch]! * keep + v + 0.5);
        }
      }
    }
  }
  const buf = await sharp(out, { raw: { width: full.width, height: full.height, channels: 3 } })
    .jpeg({ quality: 94, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export async function runTryOn(models: Models, task: TryOnTask): Promise<PipelineResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 10) / 10;
    t = now;
  };
  const [photo, g] = await Promise.all([decodePerson(task.person), decodeGarment(task.garment)]);
  const p = photo.work;
  lap('decode');
  const analysis = analysePerson(models, p);
  lap('person');
  checkPerson(analysis, task.category);
  const garment = prepareGarment(g.image, g.hasAlpha, task.category);
  lap('garment');
  const result = fitAndComposite(p, analysis, garment, task.category);
  lap('fit+composite');
  checkResult(result.quality);
  const bytes = await renderOutput(photo, result);
  lap('encode');
  const sx = photo.full.width / p.width;
  const sy = photo.full.height / p.height;
  return {
    image: bytes,
    mimeType: 'image/jpeg',
    info: {
      timings,
      width: photo.full.width,
      height: photo.full.height,
      keypoints: analysis.keypoints.map((k) => ({ x: k.x * sx, y: k.y * sy, score: k.score })),
      quality: result.quality,
    },
  };
}

/** A T-shirt-like shape on white, for warming up the JIT (also used by the tests). */
export function syntheticGarment(w = 400, h = 480, colour: [number, number, number] = [30, 90, 200]): RGBAImage {
  const img: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(255) };
  const inShirt = (x: number, y: number) => {
    const body = x >= w * 0.28 && x <= w * 0.72 && y >= h * 0.1 && y <= h * 0.9;
    const sleeveL =
      y >= h * 0.1 && y <= h * 0.3 && x >= w * 0.1 && x < w * 0.28 && y - h * 0.1 <= (x - w * 0.1) * 1.2 + h * 0.1;
    const sleeveR =
      y >= h * 0.1 && y <= h * 0.3 && x > w * 0.72 && x <= w * 0.9 && y - h * 0.1 <= (w * 0.9 - x) * 1.2 + h * 0.1;
    const neck = (x - w / 2) ** 2 / (w * 0.09) ** 2 + (y - h * 0.1) ** 2 / (h * 0.05) ** 2 < 1;
    return (body || sleeveL || sleeveR) && !neck;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!inShirt(x, y)) continue;
      const o = (y * w + x) * 4;
      img.data[o] = colour[0];
      img.data[o + 1] = colour[1];
      img.data[o + 2] = colour[2];
    }
  return img;
}

/** Standing-person keypoints for a w×h frame (BlazePose order), for warm-up and tests. */
export function syntheticKeypoints(w: number, h: number): { x: number; y: number; score: number }[] {
  const k = Array.from({ length: 33 }, () => ({ x: w / 2, y: h * 0.1, score: 1 }));
  const set = (i: number, x: number, y: number) => (k[i] = { x: x * w, y: y * h, score: 1 });
  set(0, 0.5, 0.1);
  set(2, 0.48, 0.09);
  set(5, 0.52, 0.09);
  set(7, 0.46, 0.1);
  set(8, 0.54, 0.1);
  set(9, 0.49, 0.12);
  set(10, 0.51, 0.12);
  set(11, 0.6, 0.22);
  set(12, 0.4, 0.22);
  set(13, 0.63, 0.38);
  set(14, 0.37, 0.38);
  set(15, 0.64, 0.52);
  set(16, 0.36, 0.52);
  for (const [i, x] of [
    [17, 0.645],
    [19, 0.645],
    [21, 0.64],
  ] as const)
    set(i, x, 0.55);
  for (const [i, x] of [
    [18, 0.355],
    [20, 0.355],
    [22, 0.36],
  ] as const)
    set(i, x, 0.55);
  set(23, 0.56, 0.52);
  set(24, 0.44, 0.52);
  set(25, 0.56, 0.72);
  set(26, 0.44, 0.72);
  set(27, 0.56, 0.92);
  set(28, 0.44, 0.92);
  set(29, 0.56, 0.94);
  set(30, 0.44, 0.94);
  set(31, 0.57, 0.96);
  set(32, 0.43, 0.96);
  return k;
}

/**
 * Run every per-pixel stage on synthetic data so that the JIT has compiled it before the
 * first real request: once small, then at the working size (where loops run long enough
 * to be optimised). Workers run this in the background once ready; between steps it
 * yields, so a request that arrives meanwhile is not held up for long.
 */
export async function warmUp(models: Models): Promise<void> {
  const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
  for (const [w, h, gw, gh] of [
    [96, 128, 100, 120],
    [480, 640, 384, 460],
  ] as const) {
    const person: RGBAImage = { width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(180) };
    analysePerson(models, person);
    // Skin at the face and hands, so that the arm and chest repaints run too.
    const kps = syntheticKeypoints(w, h);
    for (const i of [KP.nose, KP.leftWrist, KP.rightWrist]) {
      const r = Math.max(3, w * 0.05);
      for (let y = Math.max(0, Math.round(kps[i]!.y - r)); y <= Math.min(h - 1, kps[i]!.y + r); y++)
        for (let x = Math.max(0, Math.round(kps[i]!.x - r)); x <= Math.min(w - 1, kps[i]!.x + r); x++)
          person.data.set([205, 150, 120], (y * w + x) * 4);
    }
    const mask = createMap(w, h);
    for (let y = Math.round(h * 0.05); y < h * 0.97; y++)
      for (let x = Math.round(w * 0.35); x < w * 0.65; x++) mask.data[y * w + x] = 1;
    const analysis: PersonAnalysis = {
      width: w,
      height: h,
      keypoints: kps,
      poseScore: 1,
      mask,
      peopleCount: 1,
      skin: 3,
    };
    const full = {
      data: Buffer.alloc(Math.round(w * 1.6) * Math.round(h * 1.6) * 3, 180),
      width: Math.round(w * 1.6),
      height: Math.round(h * 1.6),
    };
    for (const category of ['upper_body', 'lower_body', 'dresses'] as const) {
      await pause();
      const g = prepareGarment(syntheticGarment(gw, gh), false, category);
      await pause();
      const r = fitAndComposite(person, analysis, g, category);
      await renderOutput({ full, work: person }, r);
    }
  }
}
