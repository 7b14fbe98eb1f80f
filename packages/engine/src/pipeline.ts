/**
 * The whole try-on on one thread: normalise → person analysis → garment cut-out and
 * landmarks → fit → warp → composite → encode.
 */
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { EngineError } from './types.js';
import { blurMap, createMap, decodeImage, type FloatMap, type RGBAImage } from './image.js';
import { analysePerson, KP, type PersonAnalysis } from './person.js';
import { garmentLandmarks, GarmentSeparationError, segmentGarment, type GarmentLandmarks } from './garment.js';
import { bodyFrame, fitGarment, type BodyFrame, type Fit } from './fit.js';
import { fitTps, warpImage } from './warp.js';
import { composite, protectedRegions } from './composite.js';
import type { Models } from './models.js';

export const GARMENT_MAX_SIDE = 768;

export interface PipelineResult {
  image: Uint8Array;
  mimeType: 'image/jpeg';
  /** Diagnostics for benchmarks and tests. */
  info: {
    timings: Record<string, number>;
    width: number;
    height: number;
    keypoints: { x: number; y: number; score: number }[];
  };
}

/** Fill the colour of transparent garment pixels from their opaque neighbours (no halo when sampling). */
function bleed(img: RGBAImage, alpha: FloatMap): void {
  const { width: w, height: h } = img;
  const planes = [0, 1, 2].map((c) => {
    const m = createMap(w, h);
    for (let i = 0; i < w * h; i++) m.data[i] = img.data[i * 4 + c]! * alpha.data[i]!;
    return blurMap(m, 4, 2);
  });
  const a = blurMap(alpha, 4, 2);
  for (let i = 0; i < w * h; i++) {
    const al = alpha.data[i]!;
    if (al > 0.98 || a.data[i]! < 1e-3) continue;
    for (let c = 0; c < 3; c++) {
      const fill = planes[c]!.data[i]! / a.data[i]!;
      img.data[i * 4 + c] = img.data[i * 4 + c]! * al + fill * (1 - al);
    }
  }
}

/** Refusals that depend on the category: the body region the garment covers must be in the photo. */
export function checkPerson(p: PersonAnalysis, category: Category): void {
  const k = p.keypoints;
  const vis = (i: number) => k[i]!.score;
  const inFrame = (i: number, slack = 0.02) => k[i]!.x >= -p.width * slack && k[i]!.x <= p.width * (1 + slack) && k[i]!.y >= -p.height * slack && k[i]!.y <= p.height * (1 + slack);
  let area = 0;
  for (const v of p.mask.data) if (v > 0.5) area++;
  const areaFrac = area / (p.width * p.height);
  const shouldersSeen = vis(KP.leftShoulder) > 0.5 && vis(KP.rightShoulder) > 0.5;
  const hipsSeen = vis(KP.leftHip) > 0.35 || vis(KP.rightHip) > 0.35;
  if (p.poseScore < 0.5 || areaFrac < 0.02 || (!shouldersSeen && !hipsSeen)) throw new EngineError('PERSON_NOT_FOUND');
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
    const kneeY = Math.min(k[KP.leftKnee]!.y, k[KP.rightKnee]!.y);
    if (kneeY > p.height * 1.02) throw new EngineError('PERSON_TOO_SMALL');
  }
}

/** Part map in garment space: 255 on the garment body, 0 on sleeves. */
function partChannel(img: RGBAImage, lm: GarmentLandmarks): void {
  const { width: w, height: h } = img;
  if (lm.kind !== 'upper') {
    for (let i = 0; i < w * h; i++) img.data[i * 4 + 3] = 255;
    return;
  }
  const margin = (lm.armpitRight.x - lm.armpitLeft.x) * 0.03;
  const x0 = lm.armpitLeft.x - margin;
  const x1 = lm.armpitRight.x + margin;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) img.data[(y * w + x) * 4 + 3] = x >= x0 && x <= x1 ? 255 : 0;
}

export interface PreparedGarment {
  image: RGBAImage;
  alpha: FloatMap;
  landmarks: GarmentLandmarks;
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
  partChannel(image, landmarks);
  return { image, alpha: cut.alpha, landmarks };
}

export function fitAndComposite(person: RGBAImage, analysis: PersonAnalysis, g: PreparedGarment, category: Category): { image: RGBAImage; alpha: FloatMap; fit: Fit; body: BodyFrame } {
  const body = bodyFrame(analysis.keypoints);
  const fit = fitGarment(g.landmarks, body, analysis.mask, category);
  // Inverse map: body (destination) → garment (source).
  const inverse = fitTps(fit.body, fit.garment, 0.002);
  const warped = warpImage(g.image, g.alpha, inverse, person.width, person.height, fit.box, 4);
  const bodyPart = createMap(person.width, person.height);
  for (let i = 0; i < bodyPart.data.length; i++) bodyPart.data[i] = warped.image.data[i * 4 + 3]! / 255;
  const protection = protectedRegions(analysis.keypoints, body, analysis.mask, fit.neckY);
  const out = composite({
    person,
    personMask: analysis.mask,
    garment: warped.image,
    alpha: warped.alpha,
    bodyPart,
    protection,
    shadingRadius: body.sw,
  });
  return { image: out.image, alpha: out.alpha, fit, body };
}

export interface TryOnTask {
  person: Uint8Array;
  garment: Uint8Array;
  category: Category;
}

async function decodeOrRefuse(bytes: Uint8Array, maxSide: number) {
  try {
    return await decodeImage(bytes, maxSide);
  } catch (e) {
    throw new EngineError('ENGINE_FAILED', 'The image could not be read.', (e as Error).message);
  }
}

export async function runTryOn(models: Models, task: TryOnTask): Promise<PipelineResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - t) * 10) / 10;
    t = now;
  };
  const [p, g] = await Promise.all([decodeOrRefuse(task.person, 1024), decodeOrRefuse(task.garment, GARMENT_MAX_SIDE)]);
  lap('decode');
  const analysis = analysePerson(models, p.image);
  lap('person');
  checkPerson(analysis, task.category);
  const garment = prepareGarment(g.image, g.hasAlpha, task.category);
  lap('garment');
  const result = fitAndComposite(p.image, analysis, garment, task.category);
  lap('fit+composite');
  let bytes: Uint8Array;
  if (p.originalWidth === p.image.width && p.originalHeight === p.image.height) {
    const buf = await sharp(Buffer.from(result.image.data.buffer, result.image.data.byteOffset, result.image.data.byteLength), {
      raw: { width: p.image.width, height: p.image.height, channels: 4 },
    })
      .removeAlpha()
      .jpeg({ quality: 94, chromaSubsampling: '4:4:4' })
      .toBuffer();
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  } else {
    // Keep the original resolution: only the garment layer is scaled up and laid over the original.
    const layer = Buffer.alloc(p.image.width * p.image.height * 4);
    for (let i = 0; i < p.image.width * p.image.height; i++) {
      layer[i * 4] = result.image.data[i * 4]!;
      layer[i * 4 + 1] = result.image.data[i * 4 + 1]!;
      layer[i * 4 + 2] = result.image.data[i * 4 + 2]!;
      layer[i * 4 + 3] = Math.round(Math.min(1, result.alpha.data[i]! * 1.0) * 255);
    }
    const up = await sharp(layer, { raw: { width: p.image.width, height: p.image.height, channels: 4 } })
      .resize(p.originalWidth, p.originalHeight, { fit: 'fill' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const buf = await sharp(task.person).rotate().composite([{ input: up }]).jpeg({ quality: 94, chromaSubsampling: '4:4:4' }).toBuffer();
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  lap('encode');
  return {
    image: bytes,
    mimeType: 'image/jpeg',
    info: {
      timings,
      width: p.originalWidth,
      height: p.originalHeight,
      keypoints: analysis.keypoints.map((k) => ({ x: (k.x * p.originalWidth) / p.image.width, y: (k.y * p.originalHeight) / p.image.height, score: k.score })),
    },
  };
}
