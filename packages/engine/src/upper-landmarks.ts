/**
 * Landmarks of a top or dress (neck, shoulders, armpits, sleeves, hem and waist), found on
 * its cut-out's analysis grid.
 */
import type { BinaryMask, Point, UpperLandmarks } from './types.js';
import { rowsOf, runAt, scalePt, topAt, type Rows } from './cutout-scan.js';
import { bodiceColumn, hangingSleeveColumn, torsoColumn } from './torso-column.js';

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
): { outer: Point; inner: Point; length: number; profile: { outer: Point; inner: Point; at: number }[] } | null {
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
  // The sleeve's axis runs from its root to the middle of its pixels (towards the farthest one
  // it would run to a corner of the cuff): the cuff is the sleeve's cross-section at its far end.
  let cxs = 0;
  let cys = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      cxs += x;
      cys += y;
    }
  let ax = cxs / count - root.x;
  let ay = cys / count - root.y;
  const al = Math.hypot(ax, ay) || 1;
  ax /= al;
  ay /= al;
  let end = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      end = Math.max(end, (x - root.x) * ax + (y - root.y) * ay);
    }
  // Cuff: sleeve pixels within the last part of the axis, their extremes across it.
  let minP = Infinity;
  let maxP = -Infinity;
  let pMin: Point = far;
  let pMax: Point = far;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!data[y * w + x]) continue;
      if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
      const along = (x - root.x) * ax + (y - root.y) * ay;
      if (along < end * 0.86) continue;
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
  const outerSide = dMin < dMax ? -1 : 1;
  // Cross-sections along the axis: the sleeve's outline on its two sides (the top edge and the
  // underarm seam as they really run, not the straight lines between its corners).
  const profile: { outer: Point; inner: Point; at: number }[] = [];
  for (const u of [0.15, 0.35, 0.55, 0.75, 0.95]) {
    const at = end * u;
    let lo = Infinity;
    let hi = -Infinity;
    let pLo: Point | null = null;
    let pHi: Point | null = null;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (!data[y * w + x]) continue;
        if (side < 0 ? x >= torsoEdge - margin : x <= torsoEdge + margin) continue;
        const along = (x - root.x) * ax + (y - root.y) * ay;
        if (Math.abs(along - at) > 1.5) continue;
        const across = -(x - root.x) * ay + (y - root.y) * ax;
        if (across < lo) {
          lo = across;
          pLo = { x, y };
        }
        if (across > hi) {
          hi = across;
          pHi = { x, y };
        }
      }
    if (!pLo || !pHi || hi - lo < 2) continue;
    profile.push(outerSide < 0 ? { outer: pLo, inner: pHi, at } : { outer: pHi, inner: pLo, at });
  }
  return { outer, inner, length: farD, profile };
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
  let sleeveLeft = findSleeve(m, -1, tL, shoulderLeft, armpitLeft, minSleeve, cx, !!hanging);
  let sleeveRight = findSleeve(m, 1, tR, shoulderRight, armpitRight, minSleeve, cx, !!hanging);
  // One sleeve found and the other side not bare (a sleeve cut off by the photo's edge, or too
  // odd to be read): the found one, mirrored about the torso's middle.
  const mirrorX = (tL + tR) / 2;
  const mirror = (sl: NonNullable<typeof sleeveLeft>) => {
    const f = (p: Point): Point => ({ x: 2 * mirrorX - p.x, y: p.y });
    return {
      outer: f(sl.outer),
      inner: f(sl.inner),
      length: sl.length,
      profile: sl.profile.map((q) => ({ outer: f(q.outer), inner: f(q.inner), at: q.at })),
    };
  };
  const beyond = (side: -1 | 1, edge: number) => {
    let n = 0;
    for (let y = Math.round(Math.min(shoulderLeft.y, shoulderRight.y)); y < Math.max(armpitLeft.y, armpitRight.y); y++)
      for (let x = 0; x < m.width; x++) if (m.data[y * m.width + x] && (x - edge) * side > 2) n++;
    return n;
  };
  if (sleeveLeft && !sleeveRight && beyond(1, tR) > beyond(-1, tL) * 0.3) sleeveRight = mirror(sleeveLeft);
  else if (sleeveRight && !sleeveLeft && beyond(-1, tL) > beyond(1, tR) * 0.3) sleeveLeft = mirror(sleeveRight);
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
      profile: sleeveLeft.profile.map((q) => ({
        outer: scalePt(q.outer, s),
        inner: scalePt(q.inner, s),
        at: q.at * s,
      })),
    },
    sleeveRight: sleeveRight && {
      outer: scalePt(sleeveRight.outer, s),
      inner: scalePt(sleeveRight.inner, s),
      length: sleeveRight.length * s,
      profile: sleeveRight.profile.map((q) => ({
        outer: scalePt(q.outer, s),
        inner: scalePt(q.inner, s),
        at: q.at * s,
      })),
    },
    hemLeft: scalePt({ x: hemRun[0], y: hemY }, s),
    hemRight: scalePt({ x: hemRun[1], y: hemY }, s),
    waistLeft: scalePt({ x: waist.run[0], y: waist.y }, s),
    waistRight: scalePt({ x: waist.run[1], y: waist.y }, s),
    ...(hanging ? { hangingSleeves: true } : {}),
    ...(straps ? { straps: true } : {}),
  };
}
