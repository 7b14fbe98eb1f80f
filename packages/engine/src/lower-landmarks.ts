/**
 * Landmarks of trousers or a skirt (waist, crotch, legs and hem), found on its cut-out's
 * analysis grid.
 */
import type { BinaryMask, LowerLandmarks, Point } from './types.js';
import { rowsOf, runAt, scalePt, topAt, type Rows } from './cutout-scan.js';

/**
 * Crotch: the first background cell down the centre column (or a few cells beside it) from
 * which the gap runs on to the hem, between 12 % and 85 % of the height; null for skirts.
 */
function findCrotch(m: BinaryMask, rows: Rows, H: number, cx: number, waistRun: [number, number]): Point | null {
  const top = topAt(m, cx);
  for (let y = Math.max(top, rows.top) + 1; y <= rows.bottom; y++) {
    let gapX = -1;
    for (let d = 0; d <= Math.max(1, (waistRun[1] - waistRun[0]) * 0.08); d++) {
      if (!m.data[y * m.width + Math.round(cx - d)]) gapX = Math.round(cx - d);
      else if (!m.data[y * m.width + Math.round(cx + d)]) gapX = Math.round(cx + d);
      if (gapX >= 0) break;
    }
    if (gapX >= 0) {
      // Require the gap to continue down to the bottom (a real split between legs).
      let open = 0;
      for (let yy = y; yy <= rows.bottom; yy++) if (!m.data[yy * m.width + gapX]) open++;
      if (open > (rows.bottom - y) * 0.8 && y < rows.top + H * 0.85 && y > rows.top + H * 0.12) return { x: gapX, y };
    }
  }
  return null;
}

/** One leg's end (outer and inner corners, in garment pixels): its lowest run on its side of the crotch, a little above it. */
function legEnd(
  m: BinaryMask,
  rows: Rows,
  H: number,
  crotch: Point,
  side: -1 | 1,
  s: number,
): { outer: Point; inner: Point } | null {
  let best: [number, number] | null = null;
  let bestY = -1;
  for (let y = rows.bottom; y > crotch.y; y--) {
    const row = y * m.width;
    let a = -1;
    let b = -1;
    if (side < 0) {
      for (let x = 0; x < crotch.x; x++)
        if (m.data[row + x]) {
          if (a < 0) a = x;
          b = x;
        }
    } else {
      for (let x = Math.round(crotch.x) + 1; x < m.width; x++)
        if (m.data[row + x]) {
          if (a < 0) a = x;
          b = x;
        }
    }
    if (a >= 0 && b - a > 2) {
      best = [a, b];
      bestY = y - Math.max(1, H * 0.015);
      break;
    }
  }
  if (!best) return null;
  const run = runAt(m, Math.round(bestY), (best[0] + best[1]) / 2) ?? best;
  return side < 0
    ? { outer: scalePt({ x: run[0], y: bestY }, s), inner: scalePt({ x: run[1], y: bestY }, s) }
    : { outer: scalePt({ x: run[1], y: bestY }, s), inner: scalePt({ x: run[0], y: bestY }, s) };
}

/** Landmarks of trousers or a skirt from its cut-out on the analysis grid (`scale`: grid cells → garment pixels). */
export function lowerLandmarks(m: BinaryMask, scale: number): LowerLandmarks {
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top + 1;
  const wy = Math.round(rows.top + H * 0.05);
  const waistRun: [number, number] = [rows.left[wy]!, rows.right[wy]!];
  const cx = (waistRun[0] + waistRun[1]) / 2;
  const crotch = findCrotch(m, rows, H, cx, waistRun);
  const hemY = rows.bottom - Math.max(1, H * 0.04);
  const s = scale;
  if (crotch) {
    const legLeft = legEnd(m, rows, H, crotch, -1, s);
    const legRight = legEnd(m, rows, H, crotch, 1, s);
    if (legLeft && legRight) {
      return {
        kind: 'lower',
        waistLeft: scalePt({ x: waistRun[0], y: wy }, s),
        waistRight: scalePt({ x: waistRun[1], y: wy }, s),
        crotch: scalePt(crotch, s),
        hipLeft: scalePt({ x: rows.left[crotch.y]!, y: crotch.y }, s),
        hipRight: scalePt({ x: rows.right[crotch.y]!, y: crotch.y }, s),
        legLeft,
        legRight,
        hemLeft: legLeft.outer,
        hemRight: legRight.outer,
      };
    }
  }
  const hemRun: [number, number] = [rows.left[Math.round(hemY)]!, rows.right[Math.round(hemY)]!];
  return {
    kind: 'lower',
    waistLeft: scalePt({ x: waistRun[0], y: wy }, s),
    waistRight: scalePt({ x: waistRun[1], y: wy }, s),
    crotch: null,
    hipLeft: null,
    hipRight: null,
    legLeft: null,
    legRight: null,
    hemLeft: scalePt({ x: hemRun[0], y: hemY }, s),
    hemRight: scalePt({ x: hemRun[1], y: hemY }, s),
  };
}
