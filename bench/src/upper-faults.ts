/**
 * The six faults a shopper sees on an upper-body result, as figures a program can read from the
 * photos alone: the person photo and the result (both at the working size), the person's mask and
 * pose keypoints, and the garment photo. Nothing of the engine's own layers is used, so a figure
 * reads a result of any build alike. They are for finding faults; the judgement is by eye.
 *
 *   remnant   old-top pixels left unchanged on the garment's rows, per garment pixel (fault 1)
 *   slices    thin garment slivers and gaps along the arms, per garment pixel there (fault 2)
 *   flatArms  repainted arm skin with no texture or another colour than the person's skin (fault 3)
 *   sleeve    angle between a sleeve (garment beyond the shoulder) and the upper arm, degrees (fault 4)
 *   rim       garment outline pixels of the garment photo's backdrop colour (fault 5)
 *   outside   garment pixels on the background above the hips, per garment pixel (fault 5)
 *   light     correlation of the garment's broad luminance with the photo's over the torso (fault 6)
 */
export interface Img {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}
export interface Map2 {
  width: number;
  height: number;
  data: Float32Array;
}
export interface Kp {
  x: number;
  y: number;
  score: number;
}

export interface FaultInput {
  person: Img;
  result: Img;
  mask: Map2;
  keypoints: Kp[];
  garment: Img;
  garmentAlpha: Map2 | null;
}

export interface UpperFaults {
  remnant: number;
  slices: number;
  flatArms: number;
  /** Null: no sleeve beside the shoulders (sleeveless, or arms across the body). */
  sleeve: number | null;
  rim: number;
  outside: number;
  /** Null: too little garment on the torso to tell. */
  light: number | null;
}

const K = { lS: 11, rS: 12, lE: 13, rE: 14, lW: 15, rW: 16, lI: 19, rI: 20, lH: 23, rH: 24 } as const;
const BITS = 4;
const L = 1 << BITS;
const bin = (r: number, g: number, b: number) => ((r >> (8 - BITS)) * L + (g >> (8 - BITS))) * L + (b >> (8 - BITS));
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : 0;
};
const lum = (d: Uint8ClampedArray, o: number) => 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;

export function isSkinRgb(r: number, g: number, b: number): boolean {
  const cr = 128 + 0.5 * r - 0.419 * g - 0.081 * b;
  const cb = 128 - 0.169 * r - 0.331 * g + 0.5 * b;
  return cr >= 138 && cr <= 178 && cb >= 77 && cb <= 127 && r > g && r > 50;
}

/** A colour histogram (shares), each bin summed with its neighbours. */
function palette(d: Uint8ClampedArray, take: (i: number) => boolean, n: number, stride = 2): Float32Array | null {
  const h = new Float32Array(L * L * L);
  let count = 0;
  for (let i = 0; i < n; i += stride) {
    if (!take(i)) continue;
    const o = i * 4;
    h[bin(d[o]!, d[o + 1]!, d[o + 2]!)]!++;
    count++;
  }
  if (count < 40) return null;
  let a = h;
  for (const s of [1, L, L * L]) {
    const b = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const c = Math.floor(i / s) % L;
      b[i] = a[i]! + (c > 0 ? a[i - s]! : 0) + (c < L - 1 ? a[i + s]! : 0);
    }
    a = b;
  }
  for (let i = 0; i < a.length; i++) a[i] = a[i]! / count;
  return a;
}

function segDist2(px: number, py: number, a: Kp, b: Kp): { d2: number; t: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy || 1e-6;
  const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / l2));
  const ex = px - a.x - t * dx;
  const ey = py - a.y - t * dy;
  return { d2: ex * ex + ey * ey, t };
}

export function upperFaults(f: FaultInput): UpperFaults {
  const { person: P, result: R, mask: M, keypoints: k } = f;
  const w = P.width;
  const h = P.height;
  const n = w * h;
  const pd = P.data;
  const rd = R.data;
  const md = M.data;
  const sw = Math.max(8, Math.hypot(k[K.lS]!.x - k[K.rS]!.x, k[K.lS]!.y - k[K.rS]!.y));
  const sMid = { x: (k[K.lS]!.x + k[K.rS]!.x) / 2, y: (k[K.lS]!.y + k[K.rS]!.y) / 2 };
  const hMid = { x: (k[K.lH]!.x + k[K.rH]!.x) / 2, y: (k[K.lH]!.y + k[K.rH]!.y) / 2 };
  const centre = (y: number) => sMid.x + ((hMid.x - sMid.x) * (y - sMid.y)) / Math.max(1, hMid.y - sMid.y);
  // Changed pixels, and those of the garment's colours.
  const changed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const d = Math.max(Math.abs(rd[o]! - pd[o]!), Math.abs(rd[o + 1]! - pd[o + 1]!), Math.abs(rd[o + 2]! - pd[o + 2]!));
    if (d > 20) changed[i] = 1;
  }
  const ga = f.garmentAlpha;
  const gn = f.garment.width * f.garment.height;
  const gPal = ga ? palette(f.garment.data, (i) => ga.data[i]! > 0.9, gn) : null;
  // The garment photo's backdrop: the mean of its border pixels outside the cut-out.
  let bg = [255, 255, 255];
  {
    const gw = f.garment.width;
    const gh = f.garment.height;
    const s = [0, 0, 0];
    let c = 0;
    for (let i = 0; i < gn; i++) {
      const x = i % gw;
      const y = (i / gw) | 0;
      if (x > 2 && y > 2 && x < gw - 3 && y < gh - 3) continue;
      if (ga && ga.data[i]! > 0.05) continue;
      for (let ch = 0; ch < 3; ch++) s[ch]! += f.garment.data[i * 4 + ch]!;
      c++;
    }
    if (c) bg = s.map((v) => v / c);
  }
  const garmentPx = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!changed[i]) continue;
    const o = i * 4;
    if (!gPal || gPal[bin(rd[o]!, rd[o + 1]!, rd[o + 2]!)]! >= 0.003) garmentPx[i] = 1;
  }
  // The garment's rows.
  let yTop = -1;
  let yHem = -1;
  const minRow = Math.max(2, sw * 0.05);
  for (let y = 0; y < h; y++) {
    let c = 0;
    for (let x = 0; x < w; x++) c += garmentPx[y * w + x]!;
    if (c >= minRow) {
      if (yTop < 0) yTop = y;
      yHem = y;
    }
  }
  const hipY = hMid.y;
  // The old top's colours: the photo's torso core, not skin.
  const oldPal = palette(
    pd,
    (i) => {
      const y = (i / w) | 0;
      const x = i % w;
      const t = (y - sMid.y) / Math.max(1, hMid.y - sMid.y);
      if (t < 0.15 || t > 0.75 || Math.abs(x - centre(y)) > sw * 0.3 || md[i]! < 0.5) return false;
      const o = i * 4;
      return !isSkinRgb(pd[o]!, pd[o + 1]!, pd[o + 2]!);
    },
    n,
    1,
  );
  const hands = [k[K.lW]!, k[K.rW]!, k[K.lI]!, k[K.rI]!];
  const nearHand = (x: number, y: number) => hands.some((q) => Math.hypot(x - q.x, y - q.y) < sw * 0.14);
  let gArea = 0;
  let remnantPx = 0;
  // A pixel of the result that still looks like the old top: its colours, not the garment's, not skin.
  if (yTop >= 0)
    for (let y = Math.ceil(yTop + sw * 0.1); y <= yHem - sw * 0.05; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (garmentPx[i]) gArea++;
        if (md[i]! < 0.5 || !oldPal) continue;
        const o = i * 4;
        const b = bin(rd[o]!, rd[o + 1]!, rd[o + 2]!);
        if (isSkinRgb(rd[o]!, rd[o + 1]!, rd[o + 2]!) || oldPal[b]! < 0.01 || (gPal && gPal[b]! >= 0.002)) continue;
        if (nearHand(x, y)) continue;
        remnantPx++;
      }
  const remnant = gArea ? remnantPx / gArea : 0;
  // Arms: shoulder (a quarter down) → elbow → wrist.
  const arms: [Kp, Kp, Kp][] = [
    [k[K.lS]!, k[K.lE]!, k[K.lW]!],
    [k[K.rS]!, k[K.rE]!, k[K.rW]!],
  ];
  const segs: [Kp, Kp][] = [];
  for (const [s, e, wr] of arms) {
    if (e.score < 0.5) continue;
    segs.push([{ x: s.x + (e.x - s.x) * 0.25, y: s.y + (e.y - s.y) * 0.25, score: 1 }, e]);
    if (wr.score >= 0.5) segs.push([e, wr]);
  }
  const inArm = (x: number, y: number, r: number) => segs.some(([a, b]) => segDist2(x, y, a, b).d2 <= r * r);
  // Slices: along rows in the arms' zone, thin runs of what the result changed between runs of
  // the photo's own pixels, and thin runs of the photo between changed ones (a torn layer). The
  // changed pixels are read with a low threshold and a 3 × 3 majority (a dark garment on dark
  // clothes still differs; single noisy pixels do not count).
  const zone = new Uint8Array(n);
  for (let y = Math.max(0, yTop); y >= 0 && y <= yHem; y++)
    for (let x = 0; x < w; x++) if (inArm(x, y, sw * 0.22)) zone[y * w + x] = 1;
  const low = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!zone[i]) continue;
    const o = i * 4;
    const d = Math.max(Math.abs(rd[o]! - pd[o]!), Math.abs(rd[o + 1]! - pd[o + 1]!), Math.abs(rd[o + 2]! - pd[o + 2]!));
    if (d > 10) low[i] = 1;
  }
  const chg = new Uint8Array(n);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!zone[i]) continue;
      let c = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) c += low[i + dy * w + dx]!;
      chg[i] = c >= 5 ? 1 : 0;
    }
  const thin = Math.max(2, sw * 0.035);
  let zoneG = 0;
  let sliver = 0;
  for (let y = Math.max(0, yTop); y >= 0 && y <= yHem; y++) {
    const row = y * w;
    const runs: [number, number, number][] = [];
    for (let x = 0; x < w;) {
      if (!zone[row + x]) {
        x++;
        continue;
      }
      const v = chg[row + x]!;
      let e = x;
      while (e + 1 < w && zone[row + e + 1] && chg[row + e + 1] === v) e++;
      runs.push([x, e, v]);
      if (v) zoneG += e - x + 1;
      x = e + 1;
    }
    for (let k = 1; k + 1 < runs.length; k++) {
      const [a0, a1] = runs[k]!;
      const prev = runs[k - 1]!;
      const next = runs[k + 1]!;
      // Bounded on both sides, within the zone, by runs of the other kind.
      if (prev[1] + 1 !== a0 || next[0] !== a1 + 1) continue;
      if (a1 - a0 + 1 < thin) sliver += a1 - a0 + 1;
    }
  }
  const slices = zoneG > sw * sw * 0.02 ? sliver / zoneG : 0;
  // Flat arms: repainted arm skin against the person's visible skin (texture and colour).
  const localStd = (d: Uint8ClampedArray, i: number) => {
    const x = i % w;
    const y = (i / w) | 0;
    let s = 0;
    let s2 = 0;
    let c = 0;
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const v = lum(d, (yy * w + xx) * 4);
        s += v;
        s2 += v * v;
        c++;
      }
    const m = s / c;
    return Math.sqrt(Math.max(0, s2 / c - m * m));
  };
  const handAt = (x: number, y: number) => hands.some((q) => Math.hypot(x - q.x, y - q.y) < sw * 0.16);
  const ref = { tex: [] as number[], rgb: [0, 0, 0] };
  const rep = { tex: [] as number[], rgb: [0, 0, 0] };
  const repaint = (i: number) => {
    const o = i * 4;
    return changed[i] === 1 && !garmentPx[i] && isSkinRgb(rd[o]!, rd[o + 1]!, rd[o + 2]!);
  };
  for (let i = w * 3; i < n - w * 3; i += 2) {
    const x = i % w;
    const y = (i / w) | 0;
    if (x < 3 || x >= w - 3 || md[i]! < 0.5) continue;
    if (!inArm(x, y, sw * 0.2) && !handAt(x, y)) continue;
    const o = i * 4;
    if (!changed[i] && isSkinRgb(pd[o]!, pd[o + 1]!, pd[o + 2]!)) {
      ref.tex.push(localStd(pd, i));
      for (let c = 0; c < 3; c++) ref.rgb[c]! += pd[o + c]!;
    } else if (repaint(i) && inArm(x, y, sw * 0.2)) {
      // Inside the repainted area only (its outline is an edge, not texture).
      if (!repaint(i - 2) || !repaint(i + 2) || !repaint(i - 2 * w) || !repaint(i + 2 * w)) continue;
      rep.tex.push(localStd(rd, i));
      for (let c = 0; c < 3; c++) rep.rgb[c]! += rd[o + c]!;
    }
  }
  let flatArms = 0;
  if (rep.tex.length * 2 > sw * sw * 0.015) {
    const repTex = median(rep.tex);
    const repRgb = rep.rgb.map((v) => v / rep.tex.length);
    // Without bare arm or hand skin in the photo, the face's is the reference.
    if (ref.tex.length < 40) {
      const nose = k[0]!;
      for (let y = Math.round(nose.y - sw * 0.15); y <= nose.y + sw * 0.15; y++)
        for (let x = Math.round(nose.x - sw * 0.15); x <= nose.x + sw * 0.15; x++) {
          if (x < 0 || y < 0 || x >= w || y >= h) continue;
          const i = y * w + x;
          const o = i * 4;
          if (!isSkinRgb(pd[o]!, pd[o + 1]!, pd[o + 2]!)) continue;
          ref.tex.push(localStd(pd, i));
          for (let c = 0; c < 3; c++) ref.rgb[c]! += pd[o + c]!;
        }
    }
    if (ref.tex.length >= 20) {
      const refTex = median(ref.tex);
      const refRgb = ref.rgb.map((v) => v / ref.tex.length);
      const dist = refRgb.reduce((s, v, c) => s + Math.abs(v - repRgb[c]!), 0);
      const flatness = Math.max(0, 1 - repTex / Math.max(0.4, refTex));
      flatArms = Math.min(1, Math.max(flatness, dist / 120));
    }
  }
  // Sleeves: the garment beside each shoulder, beyond the shoulder joint, against the upper arm.
  let sleeve: number | null = null;
  for (const [s, e] of arms) {
    if (e.score < 0.5 || s.score < 0.5) continue;
    const side = s.x < centre(s.y) ? -1 : 1;
    const up = Math.hypot(e.x - s.x, e.y - s.y);
    let vx = 0;
    let vy = 0;
    let c = 0;
    const y0 = Math.max(0, Math.ceil(s.y - sw * 0.15));
    const y1 = Math.min(h - 1, Math.floor(s.y + up * 0.9));
    for (let y = y0; y <= y1; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (!garmentPx[i] || (x - centre(y)) * side < sw * 0.58) continue;
        if (Math.hypot(x - s.x, y - s.y) > up * 0.9) continue;
        vx += x - s.x;
        vy += y - s.y;
        c++;
      }
    if (c < sw * sw * 0.01) continue;
    const a = Math.atan2(vy, vx) - Math.atan2(e.y - s.y, e.x - s.x);
    const deg = Math.abs((((a * 180) / Math.PI + 540) % 360) - 180);
    sleeve = Math.max(sleeve ?? 0, deg);
  }
  // Rim: the changed region's outline in the backdrop's colour (not a garment colour).
  let outlinePx = 0;
  let rimPx = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!changed[i]) continue;
      if (changed[i - 1] && changed[i + 1] && changed[i - w] && changed[i + w]) continue;
      outlinePx++;
      // The outline and one pixel inwards.
      for (const j of [i, i - 1, i + 1, i - w, i + w]) {
        if (!changed[j]) continue;
        const o = j * 4;
        const db = Math.abs(rd[o]! - bg[0]!) + Math.abs(rd[o + 1]! - bg[1]!) + Math.abs(rd[o + 2]! - bg[2]!);
        const inPal = gPal ? gPal[bin(rd[o]!, rd[o + 1]!, rd[o + 2]!)]! >= 0.002 : true;
        if (db < 45 && !inPal) {
          rimPx++;
          break;
        }
      }
    }
  const rim = outlinePx ? rimPx / outlinePx : 0;
  // Outside: garment on the background above the hips (away from the mask's soft edge).
  let gAll = 0;
  let out = 0;
  for (let y = 2; y < Math.min(h - 2, hipY); y++)
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      if (!garmentPx[i]) continue;
      gAll++;
      if (md[i]! >= 0.15) continue;
      if (md[i - 2]! >= 0.5 || md[i + 2]! >= 0.5 || md[i - 2 * w]! >= 0.5 || md[i + 2 * w]! >= 0.5) continue;
      out++;
    }
  const outside = gAll ? out / gAll : 0;
  // Light: broad log-luminance of the result against the photo's, on the garment over the torso.
  let light: number | null = null;
  {
    const ya = Math.ceil(sMid.y + sw * 0.25);
    const yb = Math.floor(Math.min(yHem, hipY) - sw * 0.1);
    const r = Math.max(3, Math.round(sw * 0.08));
    const pts: [number, number, string][] = [];
    const step = Math.max(2, Math.round(r / 2));
    for (let y = ya; y <= yb; y += step)
      for (let x = Math.ceil(centre(y) - sw * 0.45); x <= centre(y) + sw * 0.45; x += step) {
        if (x < r || y < r || x >= w - r || y >= h - r) continue;
        let sp = 0;
        let sr = 0;
        let c = 0;
        const rgb = [0, 0, 0];
        for (let dy = -r; dy <= r; dy += 2)
          for (let dx = -r; dx <= r; dx += 2) {
            const j = (y + dy) * w + x + dx;
            if (!garmentPx[j] || md[j]! < 0.5) continue;
            sp += Math.log(lum(pd, j * 4) + 8);
            sr += Math.log(lum(rd, j * 4) + 8);
            for (let ch = 0; ch < 3; ch++) rgb[ch]! += rd[j * 4 + ch]!;
            c++;
          }
        if (c < 8) continue;
        const t = rgb[0]! + rgb[1]! + rgb[2]! + 1;
        const key = `${Math.round((rgb[0]! / t) * 30)},${Math.round((rgb[1]! / t) * 30)},${Math.round(Math.log(t / c + 8) * 2)}`;
        pts.push([sp / c, sr / c, key]);
      }
    // Within each of the garment's colours (chroma and a coarse brightness), the result's broad
    // luminance against the photo's: a print's own contrast does not count, the light does.
    const groups = new Map<string, [number, number][]>();
    for (const p of pts) {
      const key = p[2];
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push([p[0], p[1]]);
    }
    let cov = 0;
    let vp = 0;
    let vr = 0;
    let used = 0;
    for (const g of groups.values()) {
      if (g.length < 4) continue;
      const mp = g.reduce((s, p) => s + p[0], 0) / g.length;
      const mr = g.reduce((s, p) => s + p[1], 0) / g.length;
      for (const [a, b] of g) {
        cov += (a - mp) * (b - mr);
        vp += (a - mp) ** 2;
        vr += (b - mr) ** 2;
      }
      used += g.length;
    }
    // Only where the photo has light to carry (its broad luminance varies over the torso).
    if (used >= 12 && Math.sqrt(vp / used) >= 0.03) light = vr > 0 ? cov / Math.sqrt(vp * vr) : 0;
  }
  return { remnant, slices, flatArms, sleeve, rim, outside, light };
}
