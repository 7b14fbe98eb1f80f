/**
 * The old top where nothing new lies over it: beside the arms (an old sleeve wider than the arm,
 * the old top between arm and torso) and beyond the new garment's outline. Those pixels become
 * what lay behind them: the background beside the person, filled in from it (a harmonic fill
 * from the background pixels around them, so a plain or graded backdrop continues without
 * edges). Only the old top's own colours are filled, never skin, face, hair or hands, and only
 * pixels the background can be reached from.
 */
import type { FloatMap, RGBAImage } from './image.js';
import { harmonicFill } from './harmonic-fill.js';
import { bin } from './cover.js';

export interface OldTopFillInput {
  person: RGBAImage;
  personMask: FloatMap;
  /** What the new layers cover (0..1): the garment, the sleeves, the painted arms. */
  covered: Float32Array;
  hard: FloatMap;
  /** The old clothes' colour histogram (cover.ts `clothColours`). */
  oldColours: Float32Array;
  /** Skin (never filled). */
  skinLike: (i: number) => boolean;
  /** Rows to work on (inclusive). */
  y0: number;
  y1: number;
  /** Only within this of the arms (0..1 map, > 0 near them) or beyond the torso's sides. */
  near: Uint8Array;
}

/**
 * Fills in place (`out`: the composite, every new layer laid; `alpha` is raised where it fills);
 * returns the pixels filled.
 */
export function fillOldTop(c: OldTopFillInput, out: RGBAImage, alpha: Float32Array): number {
  const { width: w, height: h } = c.person;
  const pd = c.person.data;
  const md = c.personMask.data;
  const y0 = Math.max(1, Math.ceil(c.y0));
  const y1 = Math.min(h - 2, Math.floor(c.y1));
  if (y1 < y0) return 0;
  // The region: old-top pixels not covered, near the arms or the sides.
  const region = new Uint8Array(w * h);
  let bx0 = w;
  let bx1 = -1;
  let by0 = h;
  let by1 = -1;
  let count = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!c.near[i] || md[i]! < 0.05 || c.covered[i]! >= 0.5 || c.hard.data[i]! > 0.3 || c.skinLike(i)) continue;
      const o = i * 4;
      if (c.oldColours[bin(pd[o]!, pd[o + 1]!, pd[o + 2]!)]! < 0.01) continue;
      region[i] = 1;
      count++;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
    }
  if (!count) return 0;
  // Grown by a pixel: the mask's soft edge around the old top is filled too.
  const grown = new Uint8Array(region);
  for (let y = by0; y <= by1; y++)
    for (let x = bx0; x <= bx1; x++) {
      const i = y * w + x;
      if (!region[i]) continue;
      for (let k = 0; k < 4; k++) {
        const j = k === 0 ? i - 1 : k === 1 ? i + 1 : k === 2 ? i - w : i + w;
        if (!region[j] && md[j]! >= 0.05 && md[j]! < 0.3 && c.covered[j]! < 0.5 && c.hard.data[j]! <= 0.3) grown[j] = 1;
      }
    }
  const m = 3;
  const X0 = Math.max(0, bx0 - m);
  const Y0 = Math.max(0, by0 - m);
  const X1 = Math.min(w - 1, bx1 + m);
  const Y1 = Math.min(h - 1, by1 + m);
  const bw = X1 - X0 + 1;
  const bh = Y1 - Y0 + 1;
  const od = out.data;
  // What of the region is connected to the background through it: filled from the background.
  const reach = new Uint8Array(bw * bh);
  const stack: number[] = [];
  const inRegion = (j: number) => grown[(Y0 + ((j / bw) | 0)) * w + X0 + (j % bw)] === 1;
  const isBack = (j: number) => {
    const i = (Y0 + ((j / bw) | 0)) * w + X0 + (j % bw);
    return !grown[i] && md[i]! < 0.05 && c.covered[i]! < 0.5;
  };
  const visit = (q: number) => {
    if (q >= 0 && q < bw * bh && inRegion(q) && !reach[q]) {
      reach[q] = 1;
      stack.push(q);
    }
  };
  // The region's four neighbours of j (none across the box's left and right sides).
  const spread = (j: number) => {
    const x = j % bw;
    if (x > 0) visit(j - 1);
    if (x < bw - 1) visit(j + 1);
    visit(j - bw);
    visit(j + bw);
  };
  for (let j = 0; j < bw * bh; j++) if (isBack(j)) spread(j);
  while (stack.length) spread(stack.pop()!);
  let filled = 0;
  // Two passes: the part the background reaches, from the background only; the rest (the old
  // top shut in between garment and arm), from what surrounds it there now.
  for (const pass of [1, 0] as const) {
    const role = new Uint8Array(bw * bh);
    const val = new Float32Array(bw * bh * 3);
    let known = 0;
    const sum = [0, 0, 0];
    let todo = 0;
    for (let j = 0; j < bw * bh; j++) {
      const i = (Y0 + ((j / bw) | 0)) * w + X0 + (j % bw);
      if (inRegion(j)) {
        if ((reach[j] === 1) === (pass === 1)) {
          role[j] = 1;
          todo++;
        }
        continue;
      }
      const src = pass === 1 ? (isBack(j) ? pd : null) : c.covered[i]! >= 0.5 ? od : null;
      if (!src) continue;
      role[j] = 2;
      for (let ch = 0; ch < 3; ch++) {
        val[j * 3 + ch] = src[i * 4 + ch]!;
        sum[ch]! += src[i * 4 + ch]!;
      }
      known++;
    }
    if (!todo || known < 10) continue;
    harmonicFill(role, val, bw, bh, [sum[0]! / known, sum[1]! / known, sum[2]! / known]);
    // Two passes of a 3 × 3 mean over the filled cells: the fill's coarse levels leave steps.
    for (let it = 0; it < 2; it++) {
      const prev = new Float32Array(val);
      for (let j = 0; j < bw * bh; j++) {
        if (role[j] !== 1) continue;
        const x = j % bw;
        const y = (j / bw) | 0;
        let r = 0;
        let g = 0;
        let b = 0;
        let cnt = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= bw || yy >= bh) continue;
            const q = yy * bw + xx;
            if (!role[q]) continue;
            r += prev[q * 3]!;
            g += prev[q * 3 + 1]!;
            b += prev[q * 3 + 2]!;
            cnt++;
          }
        val[j * 3] = r / cnt;
        val[j * 3 + 1] = g / cnt;
        val[j * 3 + 2] = b / cnt;
      }
    }
    for (let j = 0; j < bw * bh; j++) {
      if (role[j] !== 1) continue;
      const i = (Y0 + ((j / bw) | 0)) * w + X0 + (j % bw);
      const a = 1 - Math.max(c.covered[i]!, c.hard.data[i]!);
      if (a <= 0) continue;
      for (let ch = 0; ch < 3; ch++) od[i * 4 + ch] = od[i * 4 + ch]! * (1 - a) + val[j * 3 + ch]! * a;
      if (a > alpha[i]!) alpha[i] = a;
      filled++;
    }
  }
  return filled;
}
