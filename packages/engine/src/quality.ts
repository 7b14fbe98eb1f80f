/**
 * What a shopper sees, measured on the working-size result: is the garment on the body
 * (offset), does the old garment still show where the new one belongs (remnant), is the
 * garment in one piece (pieces) and are its edges clean (ragged). The pipeline uses
 * offset and pieces to refuse a broken result; the benchmark reports all four.
 */
import type { Category } from '@aidressup/contract';
import type { FloatMap, RGBAImage } from './image.js';
import type { BinaryMask } from './types.js';
import { labelComponents } from './mask-ops.js';
import { armSegments, isSkin, KP, nearSegment, type Keypoint } from './person.js';

export interface ShopperFigures {
  /** |garment layer centre − body centre| over the layer's rows, in body widths. */
  offset: number;
  /** Share of the region the garment should cover (person minus skin, face, hair, hands, arms) still showing the photo. */
  remnant: number;
  /** Share of the garment layer outside its largest connected piece. */
  pieces: number;
  /** The same share for the garment's own cut-out (a garment that is itself in pieces). */
  garmentPieces: number;
  /** Outline length / √area of the layer against the cut-out's (1 = as smooth as the cut-out). */
  ragged: number;
  /** Garment layer area against the cut-out's area at the fitted scale (how much of it stayed on). */
  kept: number;
}

export interface QualityInput {
  category: Category;
  /** The garment layer's alpha (the composite, before bared arms were repainted). */
  layer: FloatMap;
  /** The final alpha (everything the result changed). */
  final: FloatMap;
  person: RGBAImage;
  personMask: FloatMap;
  /** Face, hair and hands. */
  hard: FloatMap;
  keypoints: Keypoint[];
  /** The garment's cut-out on its analysis grid, and grid pixels → working pixels. */
  cutout: BinaryMask;
  cutoutToWork: number;
  /** Rows the garment should cover: from the neckline / waistband to its fitted hem. */
  topY: number;
  hemY: number;
  /** A box outside which `layer` is zero (the figures read only it); none: the whole layer. */
  layerBox?: { x0: number; y0: number; x1: number; y1: number };
}

const mid = (a: Keypoint, b: Keypoint) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** The body's centre line: shoulders → hips → knees → ankles (x at row y). */
function bodyAxis(k: Keypoint[]): (y: number) => number {
  const pts = [
    mid(k[KP.leftShoulder]!, k[KP.rightShoulder]!),
    mid(k[KP.leftHip]!, k[KP.rightHip]!),
    mid(k[KP.leftKnee]!, k[KP.rightKnee]!),
    mid(k[KP.leftAnkle]!, k[KP.rightAnkle]!),
  ];
  // Keep the polyline going down (a guessed knee above the hip would fold it).
  for (let i = 1; i < pts.length; i++) if (pts[i]!.y <= pts[i - 1]!.y + 1) pts.length = i;
  return (y) => {
    if (pts.length === 1) return pts[0]!.x;
    let i = 0;
    while (i < pts.length - 2 && y > pts[i + 1]!.y) i++;
    const a = pts[i]!;
    const b = pts[i + 1]!;
    return a.x + ((b.x - a.x) * (y - a.y)) / (b.y - a.y);
  };
}

/** The body's width for offsets: the shoulder width, or the hips' outline when wider. */
function bodyWidth(k: Keypoint[]): number {
  const sw = Math.hypot(k[KP.leftShoulder]!.x - k[KP.rightShoulder]!.x, k[KP.leftShoulder]!.y - k[KP.rightShoulder]!.y);
  const hw = Math.hypot(k[KP.leftHip]!.x - k[KP.rightHip]!.x, k[KP.leftHip]!.y - k[KP.rightHip]!.y);
  return Math.max(1, sw, hw * 1.6);
}

/** 8-connected pieces of a binary mask: total set pixels and the largest piece's size. */
export function largestPiece(data: Uint8Array, w: number, h: number): { total: number; largest: number } {
  const { sizes } = labelComponents(data, w, h, { connectivity: 8 });
  let total = 0;
  let largest = 0;
  for (let id = 1; id < sizes.length; id++) {
    const size = sizes[id]!;
    total += size;
    if (size > largest) largest = size;
  }
  return { total, largest };
}

/** Outline length (4-neighbour boundary edges) and area of a binary mask. */
export function outline(data: Uint8Array, w: number, h: number): { perimeter: number; area: number } {
  let perimeter = 0;
  let area = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!data[i]) continue;
      area++;
      if (x === 0 || !data[i - 1]) perimeter++;
      if (x === w - 1 || !data[i + 1]) perimeter++;
      if (y === 0 || !data[i - w]) perimeter++;
      if (y === h - 1 || !data[i + w]) perimeter++;
    }
  return { perimeter, area };
}

/** Arms as capsules (shoulder → elbow from a quarter of the way down, elbow → wrist). */
function inArm(k: Keypoint[], r: number): (x: number, y: number) => boolean {
  const segs = armSegments(k, 0.25);
  const r2 = r * r;
  return (x, y) => {
    for (const seg of segs) if (nearSegment(seg, r2, x, y)) return true;
    return false;
  };
}

export function shopperFigures(q: QualityInput): ShopperFigures {
  const { width: w, height: h } = q.layer;
  const k = q.keypoints;
  const la = q.layer.data;
  // The layer's box with a margin of one pixel (zero), so that pieces and outline read as on the whole layer.
  const box = q.layerBox ?? { x0: 0, y0: 0, x1: w - 1, y1: h - 1 };
  const bx0 = Math.max(0, box.x0 - 1);
  const by0 = Math.max(0, box.y0 - 1);
  const bw = Math.max(0, Math.min(w - 1, box.x1 + 1) - bx0 + 1);
  const bh = Math.max(0, Math.min(h - 1, box.y1 + 1) - by0 + 1);
  const bin = new Uint8Array(bw * bh);
  // Offset: the layer's centre against the body's centre line, row by row (alpha-weighted).
  const axis = bodyAxis(k);
  const W = bodyWidth(k);
  let sw = 0;
  let sd = 0;
  for (let y = by0; y < by0 + bh; y++) {
    let rw = 0;
    let rx = 0;
    for (let x = bx0, i = y * w + bx0; x < bx0 + bw; x++, i++) {
      const a = la[i]!;
      if (a <= 0.02) continue;
      rw += a;
      rx += a * x;
      if (a > 0.5) bin[(y - by0) * bw + x - bx0] = 1;
    }
    if (rw <= 0) continue;
    sw += rw;
    sd += rx - rw * axis(y);
  }
  const offset = sw > 0 ? Math.abs(sd / sw) / W : 1;
  const lp = largestPiece(bin, bw, bh);
  const pieces = lp.total ? 1 - lp.largest / lp.total : 1;
  const c = q.cutout;
  const cp = largestPiece(c.data, c.width, c.height);
  const garmentPieces = cp.total ? 1 - cp.largest / cp.total : 0;
  const lo = outline(bin, bw, bh);
  const co = outline(c.data, c.width, c.height);
  const ragged = lo.area && co.area ? lo.perimeter / Math.sqrt(lo.area) / (co.perimeter / Math.sqrt(co.area)) : 0;
  const kept = co.area ? lo.area / (co.area * q.cutoutToWork * q.cutoutToWork) : 0;
  // Remnant: the region the garment should cover is the person between its top and hem
  // rows, less skin, face, hair, hands and arms (the old garment there is not in its way).
  const sw0 = Math.hypot(
    k[KP.leftShoulder]!.x - k[KP.rightShoulder]!.x,
    k[KP.leftShoulder]!.y - k[KP.rightShoulder]!.y,
  );
  const arm = inArm(k, Math.max(2, sw0 * 0.13));
  const pm = q.personMask.data;
  const hd = q.hard.data;
  const fa = q.final.data;
  const pd = q.person.data;
  let region = 0;
  let showing = 0;
  const y0 = Math.max(0, Math.ceil(q.topY));
  const y1 = Math.min(h - 1, Math.floor(q.hemY));
  for (let y = y0; y <= y1; y++)
    for (let x = 0, i = y * w; x < w; x++, i++) {
      if (pm[i]! < 0.5 || hd[i]! > 0.3) continue;
      const o = i * 4;
      if (isSkin(pd[o]!, pd[o + 1]!, pd[o + 2]!) || arm(x, y)) continue;
      region++;
      if (fa[i]! < 0.5) showing++;
    }
  return { offset, remnant: region ? showing / region : 0, pieces, garmentPieces, ragged, kept };
}
