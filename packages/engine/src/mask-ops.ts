/**
 * Operations on binary masks (one byte per cell, non-zero = set): connected components,
 * flood fills from the border, region growing, morphology and hole filling. The engine's
 * only connected-component labeller lives here.
 */
import type { BinaryMask } from './types.js';

/** 4: neighbours share an edge; 8: also a corner. */
export type Connectivity = 4 | 8;

/** Bounding box of a component (inclusive cell coordinates) and its size in cells. */
export interface ComponentBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
}

export interface Components {
  /**
   * Per cell: 0 (not set) or the id of its component. Ids run 1, 2, … in the order the
   * components' first cells come in a row-by-row scan.
   */
  labels: Int32Array;
  /** `sizes[id]`: the component's cell count; `sizes[0]` is 0. */
  sizes: number[];
}

export interface LabelOptions {
  /** Default 4. */
  connectivity?: Connectivity;
  /** Also collect each component's bounding box (default false). */
  boxes?: boolean;
}

/**
 * Label the connected components of the set cells of a `width`×`height` mask. With
 * `boxes`, `boxes[id]` is the component's bounding box (`boxes[0]` is an empty box).
 */
export function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  options?: LabelOptions & { boxes?: false },
): Components;
export function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  options: LabelOptions & { boxes: true },
): Components & { boxes: ComponentBox[] };
export function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
  options: LabelOptions = {},
): Components & { boxes?: ComponentBox[] } {
  const w = width;
  const h = height;
  const n = w * h;
  const eight = options.connectivity === 8;
  const boxes: ComponentBox[] | undefined = options.boxes ? [{ x0: w, y0: h, x1: -1, y1: -1, area: 0 }] : undefined;
  const labels = new Int32Array(n);
  const sizes: number[] = [0];
  // Every cell is labelled when it is pushed, so it is pushed at most once.
  const stack = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (!mask[i] || labels[i]) continue;
    const id = sizes.length;
    let size = 0;
    let bx0 = w;
    let by0 = h;
    let bx1 = -1;
    let by1 = -1;
    let sp = 0;
    labels[i] = id;
    stack[sp++] = i;
    while (sp > 0) {
      const p = stack[--sp]!;
      size++;
      const x = p % w;
      const y = (p - x) / w;
      if (boxes) {
        if (x < bx0) bx0 = x;
        if (x > bx1) bx1 = x;
        if (y < by0) by0 = y;
        if (y > by1) by1 = y;
      }
      const xl = x > 0;
      const xr = x < w - 1;
      const yu = y > 0;
      const yd = y < h - 1;
      let q = p - 1;
      if (xl && mask[q] && !labels[q]) {
        labels[q] = id;
        stack[sp++] = q;
      }
      q = p + 1;
      if (xr && mask[q] && !labels[q]) {
        labels[q] = id;
        stack[sp++] = q;
      }
      q = p - w;
      if (yu && mask[q] && !labels[q]) {
        labels[q] = id;
        stack[sp++] = q;
      }
      q = p + w;
      if (yd && mask[q] && !labels[q]) {
        labels[q] = id;
        stack[sp++] = q;
      }
      if (eight) {
        q = p - w - 1;
        if (yu && xl && mask[q] && !labels[q]) {
          labels[q] = id;
          stack[sp++] = q;
        }
        q = p - w + 1;
        if (yu && xr && mask[q] && !labels[q]) {
          labels[q] = id;
          stack[sp++] = q;
        }
        q = p + w - 1;
        if (yd && xl && mask[q] && !labels[q]) {
          labels[q] = id;
          stack[sp++] = q;
        }
        q = p + w + 1;
        if (yd && xr && mask[q] && !labels[q]) {
          labels[q] = id;
          stack[sp++] = q;
        }
      }
    }
    sizes.push(size);
    boxes?.push({ x0: bx0, y0: by0, x1: bx1, y1: by1, area: size });
  }
  return boxes ? { labels, sizes, boxes } : { labels, sizes };
}

/** Keep only the largest 4-connected component (the first of equal ones). */
export function largestComponent(m: BinaryMask): BinaryMask {
  const { width: w, height: h } = m;
  const { labels, sizes } = labelComponents(m.data, w, h);
  let bestId = 0;
  for (let id = 1; id < sizes.length; id++) if (sizes[id]! > sizes[bestId]!) bestId = id;
  const out = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) out[i] = labels[i] === bestId && bestId ? 1 : 0;
  return { width: w, height: h, data: out };
}

/**
 * The largest 4-connected component, plus any other piece of at least `minShare` of its
 * size. When a background-coloured band splits the garment (a white stripe on a white
 * backdrop), the pieces are joined by filling each row between its outermost set cells.
 */
export function mainComponents(m: BinaryMask, minShare: number): BinaryMask {
  const { width: w, height: h } = m;
  const { labels, sizes } = labelComponents(m.data, w, h);
  let largest = 0;
  for (const s of sizes) if (s > largest) largest = s;
  const keep = new Uint8Array(sizes.length);
  let kept = 0;
  for (let id = 1; id < sizes.length; id++)
    if (sizes[id]! > 0 && sizes[id]! >= largest * minShare) {
      keep[id] = 1;
      kept++;
    }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) out[i] = keep[labels[i]!]!;
  if (kept > 1) bridgePieces(out, w, h);
  return { width: w, height: h, data: out };
}

/** Join the pieces of a mask: fill each row between its outermost set cells, and bridge empty rows between pieces. */
function bridgePieces(out: Uint8Array, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    let a = -1;
    let b = -1;
    for (let x = 0; x < w; x++)
      if (out[y * w + x]) {
        if (a < 0) a = x;
        b = x;
      }
    for (let x = a; x >= 0 && x <= b; x++) out[y * w + x] = 1;
  }
  // Rows between pieces with no set cell at all: bridge from the rows above and below.
  let last = -1;
  for (let y = 0; y < h; y++) {
    let any = false;
    for (let x = 0; x < w && !any; x++) if (out[y * w + x]) any = true;
    if (!any) continue;
    if (last >= 0 && y - last > 1) {
      let a = w;
      let b = -1;
      for (const yy of [last, y])
        for (let x = 0; x < w; x++)
          if (out[yy * w + x]) {
            a = Math.min(a, x);
            b = Math.max(b, x);
          }
      for (let yy = last + 1; yy < y; yy++) for (let x = a; x <= b; x++) out[yy * w + x] = 1;
    }
    last = y;
  }
}

/**
 * Flood-fill (4-connected) from every border cell through cells where `pass[i]` is truthy
 * (or, with `through = 0`, where it is 0); returns the reached set.
 */
export function floodFromBorder(w: number, h: number, pass: Uint8Array, through: 0 | 1 = 1): Uint8Array {
  // `seen` starts as 1 on every cell that may not be entered, then marks reached cells 2.
  const seen = new Uint8Array(w * h);
  const n = w * h;
  if (through) for (let i = 0; i < n; i++) seen[i] = pass[i] ? 0 : 1;
  else for (let i = 0; i < n; i++) seen[i] = pass[i] ? 1 : 0;
  const stack = new Int32Array(n);
  let sp = 0;
  const seed = (i: number): void => {
    if (!seen[i]) {
      seen[i] = 2;
      stack[sp++] = i;
    }
  };
  for (let x = 0; x < w; x++) {
    seed(x);
    seed((h - 1) * w + x);
  }
  for (let y = 0; y < h; y++) {
    seed(y * w);
    seed(y * w + w - 1);
  }
  const last = w * (h - 1);
  while (sp > 0) {
    const p = stack[--sp]!;
    const x = p % w;
    let q = p - 1;
    if (x > 0 && !seen[q]) {
      seen[q] = 2;
      stack[sp++] = q;
    }
    q = p + 1;
    if (x < w - 1 && !seen[q]) {
      seen[q] = 2;
      stack[sp++] = q;
    }
    q = p - w;
    if (p >= w && !seen[q]) {
      seen[q] = 2;
      stack[sp++] = q;
    }
    q = p + w;
    if (p < last && !seen[q]) {
      seen[q] = 2;
      stack[sp++] = q;
    }
  }
  for (let i = 0; i < n; i++) seen[i] = seen[i] === 2 ? 1 : 0;
  return seen;
}

/**
 * Grow a region in place `steps` times (4-connected, breadth first) into cells where `into`
 * is 1; with `uphill`, only into cells whose value is at least that of the cell grown from.
 */
export function growInto(
  region: Uint8Array,
  into: Uint8Array,
  w: number,
  h: number,
  steps: number,
  uphill?: Float32Array,
): void {
  const N = w * h;
  const queue = new Int32Array(N);
  let tail = 0;
  for (let i = 0; i < N; i++) {
    if (!region[i]) continue;
    const x = i % w;
    if (
      (x > 0 && !region[i - 1] && into[i - 1]) ||
      (x < w - 1 && !region[i + 1] && into[i + 1]) ||
      (i >= w && !region[i - w] && into[i - w]) ||
      (i < N - w && !region[i + w] && into[i + w])
    )
      queue[tail++] = i;
  }
  let head = 0;
  for (let s = 0; s < steps && head < tail; s++) {
    const end = tail;
    for (; head < end; head++) {
      const p = queue[head]!;
      const x = p % w;
      const floor = uphill ? uphill[p]! : -Infinity;
      let q = p - 1;
      if (x > 0 && !region[q] && into[q] && (!uphill || uphill[q]! >= floor)) {
        region[q] = 1;
        queue[tail++] = q;
      }
      q = p + 1;
      if (x < w - 1 && !region[q] && into[q] && (!uphill || uphill[q]! >= floor)) {
        region[q] = 1;
        queue[tail++] = q;
      }
      q = p - w;
      if (p >= w && !region[q] && into[q] && (!uphill || uphill[q]! >= floor)) {
        region[q] = 1;
        queue[tail++] = q;
      }
      q = p + w;
      if (p < N - w && !region[q] && into[q] && (!uphill || uphill[q]! >= floor)) {
        region[q] = 1;
        queue[tail++] = q;
      }
    }
  }
}

/**
 * Morphological erosion (r > 0) or dilation (r < 0) with a square of radius |r| (separable,
 * windowed counts: O(1) per cell). Outside the mask counts as not set.
 */
export function morph(m: BinaryMask, r: number): BinaryMask {
  const { width: w, height: h } = m;
  const erode = r > 0;
  const k = Math.abs(r);
  const full = 2 * k + 1;
  const src = m.data;
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  const pre = new Int32Array(Math.max(w, h) + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) pre[x + 1] = pre[x]! + src[row + x]!;
    if (erode) {
      for (let x = k; x < w - k; x++) tmp[row + x] = pre[x + k + 1]! - pre[x - k]! === full ? 1 : 0;
    } else {
      for (let x = 0; x < w; x++) tmp[row + x] = pre[Math.min(w, x + k + 1)]! - pre[Math.max(0, x - k)]! > 0 ? 1 : 0;
    }
  }
  // Vertical: running column counts over the window, row by row.
  const cnt = new Int32Array(w);
  for (let y = 0; y < Math.min(k, h); y++) for (let x = 0; x < w; x++) cnt[x]! += tmp[y * w + x]!;
  for (let y = 0; y < h; y++) {
    const add = y + k;
    if (add < h) for (let x = 0, o = add * w; x < w; x++) cnt[x]! += tmp[o + x]!;
    const row = y * w;
    if (erode) {
      if (y - k >= 0 && add < h) for (let x = 0; x < w; x++) out[row + x] = cnt[x] === full ? 1 : 0;
    } else for (let x = 0; x < w; x++) out[row + x] = cnt[x]! > 0 ? 1 : 0;
    const sub = y - k;
    if (sub >= 0) for (let x = 0, o = sub * w; x < w; x++) cnt[x]! -= tmp[o + x]!;
  }
  return { width: w, height: h, data: out };
}

/** Fill holes: the outside is what the border reaches through unset cells; everything else is set. */
export function fillHoles(m: BinaryMask): BinaryMask {
  const outside = floodFromBorder(m.width, m.height, m.data, 0);
  const out = new Uint8Array(m.data.length);
  for (let i = 0; i < out.length; i++) out[i] = outside[i] ? 0 : 1;
  return { width: m.width, height: m.height, data: out };
}
