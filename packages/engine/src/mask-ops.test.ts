import { describe, expect, it } from 'vitest';
import { labelComponents, mainComponents, type Connectivity } from './mask-ops.js';

/** Reference labelling: union-find over the cells, ids renumbered in row-by-row order of first cell. */
function naiveLabels(
  m: Uint8Array,
  w: number,
  h: number,
  c: Connectivity,
): { labels: number[]; sizes: number[]; boxes: number[][] } {
  const parent = Array.from({ length: w * h }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const nb =
    c === 8
      ? [
          [-1, -1],
          [0, -1],
          [1, -1],
          [-1, 0],
        ]
      : [
          [0, -1],
          [-1, 0],
        ];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!m[y * w + x]) continue;
      for (const [dx, dy] of nb) {
        const xx = x + dx!;
        const yy = y + dy!;
        if (xx < 0 || yy < 0 || xx >= w || !m[yy * w + xx]) continue;
        parent[find(yy * w + xx)] = find(y * w + x);
      }
    }
  const ids = new Map<number, number>();
  const labels: number[] = [];
  const sizes = [0];
  const boxes = [[w, h, -1, -1]];
  for (let i = 0; i < w * h; i++) {
    if (!m[i]) {
      labels.push(0);
      continue;
    }
    const root = find(i);
    if (!ids.has(root)) {
      ids.set(root, sizes.length);
      sizes.push(0);
      boxes.push([w, h, -1, -1]);
    }
    const id = ids.get(root)!;
    labels.push(id);
    sizes[id]!++;
    const b = boxes[id]!;
    const x = i % w;
    const y = Math.floor(i / w);
    b[0] = Math.min(b[0]!, x);
    b[1] = Math.min(b[1]!, y);
    b[2] = Math.max(b[2]!, x);
    b[3] = Math.max(b[3]!, y);
  }
  return { labels, sizes, boxes };
}

function randomMask(w: number, h: number, seed: number, density: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let i = 0; i < m.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    m[i] = seed % 100 < density ? 1 : 0;
  }
  return m;
}

describe('connected components', () => {
  it('tells 4- from 8-connectivity on a diagonal', () => {
    // 1 0
    // 0 1
    const m = Uint8Array.from([1, 0, 0, 1]);
    expect(labelComponents(m, 2, 2).sizes).toEqual([0, 1, 1]);
    expect(labelComponents(m, 2, 2, { connectivity: 8 }).sizes).toEqual([0, 2]);
    expect(Array.from(labelComponents(m, 2, 2, { connectivity: 8 }).labels)).toEqual([1, 0, 0, 1]);
  });

  it('matches a reference labelling (labels, sizes, boxes) on random masks, both connectivities', () => {
    for (const [w, h, seed, density] of [
      [37, 23, 11, 45],
      [1, 40, 3, 60],
      [40, 1, 5, 60],
      [64, 48, 7, 55],
    ] as const) {
      const m = randomMask(w, h, seed, density);
      for (const c of [4, 8] as const) {
        const ref = naiveLabels(m, w, h, c);
        const got = labelComponents(m, w, h, { connectivity: c, boxes: true });
        expect(Array.from(got.labels)).toEqual(ref.labels);
        expect(got.sizes).toEqual(ref.sizes);
        expect(got.boxes.slice(1).map((b) => [b.x0, b.y0, b.x1, b.y1])).toEqual(ref.boxes.slice(1));
        expect(got.boxes.slice(1).map((b) => b.area)).toEqual(ref.sizes.slice(1));
      }
    }
  });

  it('keeps the large pieces and joins them row by row', () => {
    const w = 10;
    const h = 6;
    const m = new Uint8Array(w * h);
    for (let y = 0; y < 6; y++) for (let x = 0; x < 3; x++) m[y * w + x] = 1; // 18 cells
    for (let y = 0; y < 4; y++) for (let x = 6; x < 8; x++) m[y * w + x] = 1; // 8 cells
    m[5 * w + 9] = 1; // 1 cell: dropped
    const out = mainComponents({ width: w, height: h, data: m }, 0.15).data;
    expect(out[0 * w + 4]).toBe(1); // between the two kept pieces
    expect(out[5 * w + 9]).toBe(0);
    expect(out[5 * w + 4]).toBe(0); // row 5 has only the first piece
  });
});
