/**
 * Garment landmarks: neck, shoulders, armpits, sleeves, hem and waist of a top or dress,
 * or waist, crotch and legs of trousers and skirts, found on the cut-out's analysis grid;
 * and the part labels (garment body, left and right sleeve or leg) of its cells.
 */
import type { Category } from '@aidressup/contract';
import type { BinaryMask, GarmentLandmarks, LowerLandmarks, Point, UpperLandmarks } from './types.js';
import { median } from './stats.js';

/** Each row's outermost garment cells (-1 on empty rows) and the first and last non-empty rows. */
interface Rows {
  top: number;
  bottom: number;
  left: Int32Array;
  right: Int32Array;
}

function rowsOf(m: BinaryMask): Rows {
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
function runAt(m: BinaryMask, y: number, cx: number): [number, number] | null {
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
function topAt(m: BinaryMask, x: number, from = 0): number {
  const xi = Math.round(Math.min(m.width - 1, Math.max(0, x)));
  for (let y = from; y < m.height; y++) if (m.data[y * m.width + xi]) return y;
  return -1;
}

/** The last garment cell down column x (clamped to the grid); -1 if none. */
function bottomAt(m: BinaryMask, x: number): number {
  const xi = Math.round(Math.min(m.width - 1, Math.max(0, x)));
  for (let y = m.height - 1; y >= 0; y--) if (m.data[y * m.width + xi]) return y;
  return -1;
}

/** Grid cell → garment pixels (the cell's centre). */
const scalePt = (p: Point, s: number): Point => ({ x: (p.x + 0.5) * s, y: (p.y + 0.5) * s });

/** Sleeve cuff on one side: pixels outside the torso column, farthest from the shoulder. */
function findSleeve(
  m: BinaryMask,
  side: -1 | 1,
  torsoEdge: number,
  shoulder: Point,
  armpit: Point,
  minLen: number,
  cx: number,
  hanging: boolean,
): { outer: Point; inner: Point; length: number } | null {
  const { width: w, height: h } = m;
  const margin = Math.max(2, Math.round(w * 0.015));
  // Below the armpit only pixels separated from the garment body's run count as sleeve
  // (sleeves hanging against the body: pixels outside the torso column).
  const data = new Uint8Array(m.data);
  if (!hanging)
    for (let y = Math.max(0, Math.round(armpit.y)); y < h; y++) {
      const run = runAt(m, y, cx);
      if (!run) continue;
      for (let x = run[0]; x <= run[1]; x++) data[y * w + x] = 0;
    }
  const root = { x: (shoulder.x + armpit.x) / 2, y: (shoulder.y + armpit.y) / 2 };
  let far: Point | null = null;
  let farD = 0;
  let count = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      count++;
      const d = Math.hypot(x - root.x, y - root.y);
      if (d > farD) {
        farD = d;
        far = { x, y };
      }
    }
  if (!far || count < (w * h) / 800 || farD < minLen) return null;
  // A sleeve reaches well beyond the garment body's side; the flared top corners of a
  // strap or crop top (wider at the top than at the hem) do not, and are not sleeves.
  if ((far.x - torsoEdge) * side < minLen * 0.6) return null;
  const ax = (far.x - root.x) / farD;
  const ay = (far.y - root.y) / farD;
  // Cuff: sleeve pixels whose projection on the axis is within the last 8 %.
  let minP = Infinity;
  let maxP = -Infinity;
  let pMin: Point = far;
  let pMax: Point = far;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      const along = (x - root.x) * ax + (y - root.y) * ay;
      if (along < farD * 0.9) continue;
      const across = -(x - root.x) * ay + (y - root.y) * ax;
      if (across < minP) {
        minP = across;
        pMin = { x, y };
      }
      if (across > maxP) {
        maxP = across;
        pMax = { x, y };
      }
    }
  // "outer" is the cuff corner nearer the shoulder line (upper edge of the sleeve).
  const dMin = Math.hypot(pMin.x - shoulder.x, pMin.y - shoulder.y) - Math.hypot(pMin.x - armpit.x, pMin.y - armpit.y);
  const dMax = Math.hypot(pMax.x - shoulder.x, pMax.y - shoulder.y) - Math.hypot(pMax.x - armpit.x, pMax.y - armpit.y);
  const [outer, inner] = dMin < dMax ? [pMin, pMax] : [pMax, pMin];
  return { outer, inner, length: farD };
}

/** The garment body's column: its sides (median run ends over 72–92 % of the height) and centre. */
function torsoColumn(m: BinaryMask, rows: Rows, H: number): { cx: number; tL: number; tR: number } {
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
function bodiceColumn(
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
function hangingSleeveColumn(
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

/** Shoulder points (the top edge above the torso sides) and collar corners, on the analysis grid. */
function shouldersAndNeck(
  m: BinaryMask,
  rows: Rows,
  cx: number,
  tL: number,
  tR: number,
): { shoulderLeft: Point; shoulderRight: Point; neckLeft: Point; neckRight: Point } {
  const tw = tR - tL;
  // Shoulders: top edge straight above the torso sides (pulled in a little).
  const sLx = tL + tw * 0.04;
  const sRx = tR - tw * 0.04;
  // Highest point of the top edge near each side (straps and halter necks included).
  const topNear = (x0: number, x1: number, fallbackX: number): Point => {
    let best = { x: fallbackX, y: topAt(m, fallbackX) };
    if (best.y < 0) best.y = m.height;
    for (let x = Math.round(Math.min(x0, x1)); x <= Math.max(x0, x1); x++) {
      const y = topAt(m, x);
      if (y >= 0 && y < best.y - 1) best = { x, y };
    }
    return best;
  };
  const sTopL = topAt(m, sLx);
  const sTopR = topAt(m, sRx);
  const H0 = rows.bottom - rows.top;
  const shoulderLeft =
    sTopL >= 0 && sTopL < rows.top + H0 * 0.25 ? { x: sLx, y: sTopL } : topNear(sLx, sLx + tw * 0.3, sLx);
  const shoulderRight =
    sTopR >= 0 && sTopR < rows.top + H0 * 0.25 ? { x: sRx, y: sTopR } : topNear(sRx, sRx - tw * 0.3, sRx);
  const nLx = cx - tw * 0.18;
  const nRx = cx + tw * 0.18;
  // Collar corners: the top edge, but never far above the shoulders (hoods, hanger bars).
  const sTop = Math.min(shoulderLeft.y, shoulderRight.y);
  const neckLeft = { x: nLx, y: Math.max(topAt(m, nLx), sTop - tw * 0.12) };
  const neckRight = { x: nRx, y: Math.max(topAt(m, nRx), sTop - tw * 0.12) };
  return { shoulderLeft, shoulderRight, neckLeft, neckRight };
}

/** Armpits: scanning up from the hem (or the chest), the first row whose extent leaves the torso column (else a fixed drop below the shoulders). */
function findArmpits(
  m: BinaryMask,
  rows: Rows,
  H: number,
  cx: number,
  tL: number,
  tR: number,
  shoulderY: number,
  fromY = rows.top + H * 0.7,
): { armpitLeft: Point; armpitRight: Point } {
  const tw = tR - tL;
  const margin = Math.max(2, tw * 0.06);
  let armL = -1;
  let armR = -1;
  for (let y = Math.round(fromY); y > rows.top; y--) {
    const run = runAt(m, y, cx);
    if (!run) continue;
    if (armL < 0 && run[0] < tL - margin) armL = y;
    if (armR < 0 && run[1] > tR + margin) armR = y;
    if (armL >= 0 && armR >= 0) break;
  }
  const fallback = shoulderY + tw * 0.45;
  return {
    armpitLeft: { x: tL, y: armL > shoulderY + tw * 0.15 ? armL : fallback },
    armpitRight: { x: tR, y: armR > shoulderY + tw * 0.15 ? armR : fallback },
  };
}

/** Waist: the narrowest torso run from just below the armpits to 75 % of the height. */
function findWaist(
  m: BinaryMask,
  rows: Rows,
  H: number,
  cx: number,
  tL: number,
  tR: number,
  armpitY: number,
): { y: number; run: [number, number] } {
  let waistY = Math.round(rows.top + H * 0.45);
  let waistW = Infinity;
  let waistRun: [number, number] = [tL, tR];
  const wy0 = Math.round(armpitY + H * 0.05);
  for (let y = wy0; y < rows.top + H * 0.75; y++) {
    const run = runAt(m, y, cx);
    if (run && run[1] - run[0] < waistW) {
      waistW = run[1] - run[0];
      waistY = y;
      waistRun = run;
    }
  }
  return { y: waistY, run: waistRun };
}

/** Landmarks of a top or dress from its cut-out on the analysis grid (`scale`: grid cells → garment pixels). */
export function upperLandmarks(m: BinaryMask, scale: number): UpperLandmarks {
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top + 1;
  const column = torsoColumn(m, rows, H);
  const hanging = hangingSleeveColumn(m, rows, H, column.cx);
  const bodice = hanging ? null : bodiceColumn(m, rows, H, column.cx, column);
  const { tL, tR } = hanging ?? bodice ?? column;
  const cx = (tL + tR) / 2;
  const tw = tR - tL;
  const { shoulderLeft, shoulderRight, neckLeft, neckRight } = shouldersAndNeck(m, rows, cx, tL, tR);
  const shoulderY = (shoulderLeft.y + shoulderRight.y) / 2;

  // Straps: a little below each shoulder point the garment is only a thin run.
  const thin = (p: Point) => {
    const run = runAt(m, Math.round(p.y + tw * 0.1), p.x);
    return !!run && run[1] - run[0] < tw * 0.12 && run[0] <= p.x + 1 && run[1] >= p.x - 1;
  };
  const straps = thin(shoulderLeft) && thin(shoulderRight);
  // A strap top's armpits are its body's top corners. Hanging sleeves leave the torso column
  // on every row: their armpits are a fixed drop.
  const sideTop = (x: number) => {
    for (let y = Math.round(shoulderY + tw * 0.1); y <= rows.bottom; y++) {
      if (!m.data[y * m.width + Math.round(x)]) continue;
      const run = runAt(m, y, x);
      if (run && run[1] - run[0] > tw * 0.3) return y;
    }
    return shoulderY + tw * 0.45;
  };
  const { armpitLeft, armpitRight } = straps
    ? {
        armpitLeft: { x: tL, y: sideTop(tL + tw * 0.04) },
        armpitRight: { x: tR, y: sideTop(tR - tw * 0.04) },
      }
    : hanging
      ? {
          armpitLeft: { x: tL, y: shoulderY + tw * 0.45 },
          armpitRight: { x: tR, y: shoulderY + tw * 0.45 },
        }
      : findArmpits(m, rows, H, cx, tL, tR, shoulderY, bodice?.chestY);
  const minSleeve = tw * 0.22;
  const sleeveLeft = findSleeve(m, -1, tL, shoulderLeft, armpitLeft, minSleeve, cx, !!hanging);
  const sleeveRight = findSleeve(m, 1, tR, shoulderRight, armpitRight, minSleeve, cx, !!hanging);
  const armpitY = Math.max(armpitLeft.y, armpitRight.y);
  const hemY = hanging ? hanging.hemY - 1 : rows.bottom - Math.max(1, H * 0.04);
  const hemRun0 = (hanging ? null : runAt(m, Math.round(hemY), cx)) ?? [tL, tR];
  const hemRun: [number, number] = [Math.max(hemRun0[0], tL - tw * 0.25), Math.min(hemRun0[1], tR + tw * 0.25)];
  const waist = hanging
    ? { y: Math.round(armpitY + (hemY - armpitY) * 0.4), run: [tL, tR] as [number, number] }
    : findWaist(m, rows, H, cx, tL, tR, armpitY);
  const s = scale;
  return {
    kind: 'upper',
    neckLeft: scalePt(neckLeft, s),
    neckRight: scalePt(neckRight, s),
    shoulderLeft: scalePt(shoulderLeft, s),
    shoulderRight: scalePt(shoulderRight, s),
    armpitLeft: scalePt(armpitLeft, s),
    armpitRight: scalePt(armpitRight, s),
    sleeveLeft: sleeveLeft && {
      outer: scalePt(sleeveLeft.outer, s),
      inner: scalePt(sleeveLeft.inner, s),
      length: sleeveLeft.length * s,
    },
    sleeveRight: sleeveRight && {
      outer: scalePt(sleeveRight.outer, s),
      inner: scalePt(sleeveRight.inner, s),
      length: sleeveRight.length * s,
    },
    hemLeft: scalePt({ x: hemRun[0], y: hemY }, s),
    hemRight: scalePt({ x: hemRun[1], y: hemY }, s),
    waistLeft: scalePt({ x: waist.run[0], y: waist.y }, s),
    waistRight: scalePt({ x: waist.run[1], y: waist.y }, s),
    ...(hanging ? { hangingSleeves: true } : {}),
    ...(straps ? { straps: true } : {}),
  };
}

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

/** The landmarks for a category: trousers and skirts, or tops and dresses. */
export function garmentLandmarks(m: BinaryMask, scale: number, category: Category): GarmentLandmarks {
  return category === 'lower_body' ? lowerLandmarks(m, scale) : upperLandmarks(m, scale);
}

/** Part labels (see fit.ts PART: 255 garment body, 80 left sleeve/leg, 160 right) on the analysis grid. */
export function partLabels(m: BinaryMask, scale: number, lm: GarmentLandmarks): Uint8Array {
  const { width: w, height: h } = m;
  const labels = new Uint8Array(w * h).fill(255);
  const g = (v: number) => v / scale - 0.5;
  if (lm.kind === 'lower') {
    if (!lm.crotch || !lm.legLeft || !lm.legRight) return labels;
    const rows = rowsOf(m);
    const cy = g(lm.crotch.y) - (rows.bottom - rows.top) * 0.03;
    const cx = g(lm.crotch.x);
    for (let y = Math.max(0, Math.ceil(cy)); y < h; y++)
      for (let x = 0; x < w; x++) labels[y * w + x] = x < cx ? 80 : 160;
    return labels;
  }
  const tL = g(lm.armpitLeft.x);
  const tR = g(lm.armpitRight.x);
  const tw = tR - tL;
  const cx = (tL + tR) / 2;
  const overlap = tw * 0.04;
  const rows = rowsOf(m);
  const H = rows.bottom - rows.top;
  for (let y = 0; y < h; y++) {
    const below = y > Math.max(g(lm.armpitLeft.y), g(lm.armpitRight.y)) + H * 0.02;
    const run: [number, number] | null = !below ? null : lm.hangingSleeves ? [tL, tR] : runAt(m, y, cx);
    for (let x = 0; x < w; x++) {
      let left: boolean;
      let right: boolean;
      if (!below) {
        left = x < tL + overlap;
        right = x > tR - overlap;
      } else if (run) {
        left = x < run[0];
        right = x > run[1];
      } else {
        left = right = false;
      }
      if (left && lm.sleeveLeft) labels[y * w + x] = 80;
      else if (right && lm.sleeveRight) labels[y * w + x] = 160;
    }
  }
  return labels;
}
