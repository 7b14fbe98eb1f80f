/**
 * The garment onto the person, at the working size: its parts fitted to the body, warped and
 * layered, composited over the photo; the old top beside it covered, the arms and chest it
 * leaves bare repainted; and the shopper figures of the result.
 */
import type { Category } from '@aidressup/contract';
import {
  createImage,
  createMap,
  cropImage,
  cropMap,
  pasteImage,
  pasteMap,
  type FloatMap,
  type RGBAImage,
} from './image.js';
import type { PersonAnalysis } from './person.js';
import { bodyFrame, fitGarment, type ArmLines, type BodyFrame, type Fit } from './fit.js';
import { armLine, armModels, shiftArms } from './arm-model.js';
import { fitTps } from './tps.js';
import { warpImage } from './warp.js';
import { clipBeyondArms, composite } from './composite.js';
import { protectedRegions, sampleHairColours } from './protected-regions.js';
import { litSkinTone, skinTone } from './reveal.js';
import { revealLimbs } from './reveal-arms.js';
import { revealChest } from './reveal-chest.js';
import { coverRemnant } from './cover.js';
import { shopperFigures, type ShopperFigures } from './quality.js';
import type { PreparedGarment } from './prepare-garment.js';
import { KP } from './person.js';
import { composeUpper } from './upper-composite.js';

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
  // A top's sleeves follow the arms as the photo shows them (the pose model's lines are often off).
  const skin =
    category === 'lower_body'
      ? null
      : category === 'upper_body'
        ? litSkinTone(person, analysis.keypoints, body.sw)
        : skinTone(person, analysis.keypoints, body.sw);
  const arms = category === 'upper_body' ? armModels(person, analysis.mask, analysis.keypoints, body.sw, skin) : [];
  const lines: ArmLines = {};
  for (const a of arms) lines[a.pts[0]!.x < (body.shoulderL.x + body.shoulderR.x) / 2 ? 'left' : 'right'] = armLine(a);
  const fit = fitGarment(g.landmarks, body, analysis.mask, category, lines);
  // All per-pixel work happens on the crop the garment can reach (a top's: and the arms, which
  // it may leave bare).
  const box = { ...fit.box };
  if (category === 'upper_body')
    for (const i of [KP.leftElbow, KP.rightElbow, KP.leftWrist, KP.rightWrist]) {
      const k = analysis.keypoints[i]!;
      if (k.score < 0.5) continue;
      const pad = body.sw * 0.3;
      box.x0 = Math.min(box.x0, k.x - pad);
      box.x1 = Math.max(box.x1, k.x + pad);
      box.y1 = Math.max(box.y1, k.y + pad);
    }
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(person.width - 1, Math.ceil(box.x1));
  const y1 = Math.min(person.height - 1, Math.ceil(box.y1));
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
      // The layer is zero outside the crop the garment can reach.
      layerBox: { x0, y0, x1, y1 },
    });
  if (x1 <= x0 || y1 <= y0) return { image, alpha, fit, body, quality: figures(alpha, alpha) };
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  if (category === 'upper_body') return composeTop();
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
    // The bodice of a dress stays on the body; skirts and trouser legs hang free.
    bodyClipUntilY: category === 'lower_body' ? 0 : body.hipMid.y - y0,
    // A skirt hanging free does not take the folds of the legs or clothes under it.
    shadeUntilY: category === 'dresses' ? body.hipMid.y - y0 + body.sw * 0.3 : ch,
  });
  // A sleeveless top or dress does not wrap around the arms hanging beside it.
  if (category !== 'lower_body' && fit.sleeveless) clipBeyondArms(out.image, personC, out.alpha, bodyC);
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

  /** A top: in layers (upper-composite.ts), then the chest above its neckline. */
  function composeTop(): FitResult {
    const shift = <T extends { x: number; y: number }>(p: T): T => ({ ...p, x: p.x - x0, y: p.y - y0 });
    const kps = analysis.keypoints.map(shift);
    const maskC = cropMap(analysis.mask, x0, y0, cw, ch);
    const personC = cropImage(person, x0, y0, cw, ch);
    const hairColours = sampleHairColours(person, analysis.mask, analysis.keypoints, body.sw);
    const top = composeUpper({
      arms: shiftArms(arms, -x0, -y0),
      person: personC,
      personMask: maskC,
      keypoints: kps,
      body: bodyFrame(kps),
      bodyFull: body,
      fit,
      garment: g,
      crop: { x0, y0, x1, y1 },
      neckY: fit.neckY - y0,
      topY: topY - y0,
      hemY: hemY - y0,
      hair: hairColours ? { image: personC, colours: hairColours } : null,
      skin,
    });
    pasteImage(image, top.image, x0, y0);
    pasteMap(alpha, top.alpha, x0, y0);
    const layer = createMap(person.width, person.height);
    pasteMap(layer, top.layer, x0, y0);
    const hard = createMap(person.width, person.height);
    pasteMap(hard, top.hard, x0, y0);
    revealChest({
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
    });
    return { image, alpha, fit, body, quality: figures(hard, layer) };
  }
}
