/**
 * Scans of a garment's cut-out on its analysis grid, for the landmarks: each row's extent,
 * the run through a column, the first and last garment cell down a column.
 */
import type { BinaryMask, Point } from './types.js';

/** Each row's outermost garment cells (-1 on empty rows) and the first and last non-empty rows. */
export interface Rows {
  top: number;
  bottom: number;
  left: Int32Array;
  right: Int32Array;
}

export function rowsOf(m: BinaryMask): Rows {
  const { width: w, height: h, data } = m;
  const left = new Int32Array(h).fill(-1);
  const right = new Int32Array(h).fill(-1);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++)
      if (data[y * w + x]) {
        left[y] = x;
        break;
      }
    for (let x = w - 1; x >= 0; x--)
      if (data[y * w + x]) {
        right[y] = x;
        break;
      }
    if (left[y]! >= 0) {
      if (top < 0) top = y;
      bottom = y;
    }
  }
  return { top, bottom, left, right };
}

/** The run of foreground on row y that contains (or is nearest to) column cx. */
export function runAt(m: BinaryMask, y: number, cx: number): [number, number] | null {
  const { width: w, data } = m;
  const row = y * w;
  let x = Math.round(cx);
  if (!data[row + x]) {
    let found = -1;
    for (let d = 1; d < w; d++) {
      if (x - d >= 0 && data[row + x - d]) {
        found = x - d;
        break;
      }
      if (x + d < w && data[row + x + d]) {
        found = x + d;
        break;
      }
    }
    if (found < 0) return null;
    x = found;
  }
  let a = x;
  let b = x;
  while (a > 0 && data[row + a - 1]) a--;
  while (b < w - 1 && data[row + b + 1]) b++;
  return [a, b];
}

/** The first garment cell down column x (clamped to the grid) from row `from`; -1 if none. */
export function topAt(m: BinaryMask, x: number, from = 0): number {
  const xi = Math.round(Math.min(m.width - 1, Math.max(0, x)));
  for (let y = from; y < m.height; y++) if (m.data[y * m.width + xi]) return y;
  return -1;
}

/** The last garment cell down column x (clamped to the grid); -1 if none. */
export function bottomAt(m: BinaryMask, x: number): number {
  const xi = Math.round(Math.min(m.width - 1, Math.max(0, x)));
  for (let y = m.height - 1; y >= 0; y--) if (m.data[y * m.width + xi]) return y;
  return -1;
}

/** Grid cell → garment pixels (the cell's centre). */
export const scalePt = (p: Point, s: number): Point => ({ x: (p.x + 0.5) * s, y: (p.y + 0.5) * s });
