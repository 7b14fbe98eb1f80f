/**
 * The fitted garment's parts warped onto the person's crop, each on its own (thin-plate spline
 * body → garment): the garment body in one layer, the sleeves or legs in another, each part
 * laid over the ones before it in its layer (the tops' compositing, upper-composite.ts).
 */
import { createImage, createMap, type FloatMap, type RGBAImage } from './image.js';
import type { BodyFrame, Fit } from './fit.js';
import { fitTps } from './tps.js';
import { warpImage } from './warp.js';
import type { PreparedGarment } from './prepare-garment.js';

export interface Layer {
  image: RGBAImage;
  alpha: FloatMap;
}

/** The crop (inclusive, in the person photo's pixels) the garment's parts are warped into. */
export interface Crop {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function emptyLayer(w: number, h: number): { rgb: Float32Array; a: FloatMap } {
  return { rgb: new Float32Array(w * h * 3), a: createMap(w, h) };
}

function toLayer(l: { rgb: Float32Array; a: FloatMap }, w: number, h: number): Layer {
  const image = createImage(w, h);
  for (let i = 0, n = w * h; i < n; i++) {
    if (l.a.data[i]! <= 0) continue;
    image.data[i * 4] = l.rgb[i * 3]!;
    image.data[i * 4 + 1] = l.rgb[i * 3 + 1]!;
    image.data[i * 4 + 2] = l.rgb[i * 3 + 2]!;
  }
  return { image, alpha: l.a };
}

/** The garment body (parts with `isBody`) and the other parts, as two layers of the crop's size. */
export function warpLayers(g: PreparedGarment, fit: Fit, body: BodyFrame, c: Crop): { body: Layer; rest: Layer } {
  const cw = c.x1 - c.x0 + 1;
  const ch = c.y1 - c.y0 + 1;
  const layers = { body: emptyLayer(cw, ch), rest: emptyLayer(cw, ch) };
  for (const part of fit.parts) {
    if (part.body.length < 3) continue;
    const lambda = 0.001;
    const inverse = fitTps(part.body, part.garment, lambda);
    const forward = fitTps(part.garment, part.body, lambda);
    const py1 = part.allUntilY === undefined ? c.y1 : Math.max(c.y0 + 1, Math.min(c.y1, Math.round(part.allUntilY)));
    const warped = warpImage(g.image, g.alpha, inverse, { x0: c.x0, y0: c.y0, x1: c.x1, y1: py1 }, 4, {
      id: part.allUntilY === undefined ? part.id : -1,
      forward,
      tolerance: body.sw * 0.1,
    });
    const d = warped.drawn;
    if (!d) continue;
    const into = part.isBody ? layers.body : layers.rest;
    const rgb = into.rgb;
    const la = into.a.data;
    const wa = warped.alpha.data;
    const wi = warped.image.data;
    for (let y = d.y0; y <= d.y1; y++)
      for (let x = d.x0, i = y * cw + d.x0; x <= d.x1; x++, i++) {
        const a = wa[i]!;
        if (a <= 0) continue;
        const keep = la[i]! * (1 - a);
        const na = a + keep;
        const inv = 1 / Math.max(na, 1e-6);
        const o = i * 3;
        const q = i * 4;
        rgb[o] = (wi[q]! * a + rgb[o]! * keep) * inv;
        rgb[o + 1] = (wi[q + 1]! * a + rgb[o + 1]! * keep) * inv;
        rgb[o + 2] = (wi[q + 2]! * a + rgb[o + 2]! * keep) * inv;
        la[i] = na;
      }
  }
  return { body: toLayer(layers.body, cw, ch), rest: toLayer(layers.rest, cw, ch) };
}
