/**
 * The torso column of a top or dress: the garment body's sides on its cut-out, read near the
 * hem, at the chest (a garment wider at its hem), or between hanging sleeves.
 */
import type { BinaryMask } from './types.js';
import { median } from './stats.js';
import { bottomAt, runAt, type Rows } from './cutout-scan.js';

/** The garment body's column: its sides (median run ends over 72–92 % of the height) and centre. */
export function torsoColumn(m: BinaryMask, rows: Rows, H: number): { cx: number; tL: number; tR: number } {
  // The runs through the garment's centre of mass.
  let cx = 0;
  let n = 0;
  for (let y = rows.top; y <= rows.bottom; y++)
    for (let x = 0; x < m.width; x++)
      if (m.data[y * m.width + x]) {
        cx += x;
        n++;
      }
  cx /= Math.max(1, n);
  const { tL, tR } = medianRun(m, Math.round(rows.top + H * 0.72), rows.top + H * 0.92, cx);
  return { cx: (tL + tR) / 2, tL, tR };
}

/** The median ends of the runs through column cx on rows y0..y1 (0 when none), and how many rows had one. */
function medianRun(m: BinaryMask, y0: number, y1: number, cx: number): { tL: number; tR: number; rows: number } {
  const ls: number[] = [];
  const rs: number[] = [];
  for (let y = y0; y <= y1; y++) {
    const run = runAt(m, y, cx);
    if (run) {
      ls.push(run[0]);
      rs.push(run[1]);
    }
  }
  return { tL: median(ls), tR: median(rs), rows: ls.length };
}

/**
 * A garment wider at its hem than at its chest (an A-line dress, a flared top) whose sleeves
 * end above the chest: the column taken low down would take the sleeves in. The sleeves'
 * ends show as the sharpest narrowing of the run through the centre in the upper 45 % of
 * the height; the rows just below it are the chest. Returns that column when it is clearly
 * narrower than `low` (the one taken near the hem), else null.
 */
export function bodiceColumn(
  m: BinaryMask,
  rows: Rows,
  H: number,
  cx: number,
  low: { tL: number; tR: number },
): { tL: number; tR: number; chestY: number } | null {
  const y0 = Math.round(rows.top + H * 0.05);
  const y1 = Math.round(rows.top + H * 0.45);
  const width = (y: number) => {
    const run = runAt(m, y, cx);
    return run ? run[1] - run[0] : 0;
  };
  let best = 0;
  let at = -1;
  for (let y = y0 + 2; y <= y1 - 2; y++) {
    const above = width(y - 2);
    const drop = above - width(y + 2);
    if (drop > best && drop > above * 0.15) {
      best = drop;
      at = y;
    }
  }
  if (at < 0) return null;
  const { tL, tR, rows: found } = medianRun(m, at + 3, at + 3 + Math.max(2, H * 0.05), cx);
  if (!found) return null;
  return tR - tL < (low.tR - low.tL) * 0.85 ? { tL, tR, chestY: at + 3 } : null;
}

/**
 * Sleeves hanging down against the garment body (a blouse laid flat, arms down) merge with it
 * in the cut-out, so the run through the centre spans body and sleeves on every row. The hem
 * shows them: the body's hem is a raised notch between two lower, narrower lobes, the cuffs.
 * Returns the notch's sides as the torso column, or null when the hem has no such notch.
 */
export function hangingSleeveColumn(
  m: BinaryMask,
  rows: Rows,
  H: number,
  cx: number,
): { tL: number; tR: number; hemY: number } | null {
  const centre = bottomAt(m, cx);
  if (centre < 0) return null;
  let left = Infinity;
  let right = -Infinity;
  for (let y = rows.top; y <= rows.bottom; y++) {
    if (rows.left[y]! >= 0) left = Math.min(left, rows.left[y]!);
    right = Math.max(right, rows.right[y]!);
  }
  const full = right - left;
  let lobeL = -1;
  let lobeR = -1;
  for (let x = Math.floor(left); x < cx; x++) lobeL = Math.max(lobeL, bottomAt(m, x));
  for (let x = Math.ceil(cx); x <= right; x++) lobeR = Math.max(lobeR, bottomAt(m, x));
  const depth = Math.min(lobeL, lobeR) - centre;
  if (depth < H * 0.06) return null;
  // The notch's sides: outward from the centre, where the hem drops by half the depth.
  let tL = Math.round(cx);
  while (tL > left && bottomAt(m, tL - 1) < centre + depth * 0.5) tL--;
  let tR = Math.round(cx);
  while (tR < right && bottomAt(m, tR + 1) < centre + depth * 0.5) tR++;
  const tw = tR - tL;
  // A body between two cuffs: the notch is wide, each lobe narrower than it.
  if (tw < full * 0.3 || tL - left > tw || right - tR > tw) return null;
  return { tL, tR, hemY: centre };
}
