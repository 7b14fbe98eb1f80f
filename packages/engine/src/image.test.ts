import { describe, expect, it } from 'vitest';
import { blurMap, blurRect, createMap, type FloatMap } from './image.js';

/** Direct (slow) clamped box blur, `passes` times. */
function naiveBlur(m: FloatMap, r: number, passes: number): Float64Array {
  const { width: w, height: h } = m;
  let cur = Float64Array.from(m.data);
  const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
  for (let p = 0; p < passes; p++) {
    const t = new Float64Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += cur[y * w + clamp(x + k, w)]!;
        t[y * w + x] = s / (2 * r + 1);
      }
    const o = new Float64Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += t[clamp(y + k, h) * w + x]!;
        o[y * w + x] = s / (2 * r + 1);
      }
    cur = o;
  }
  return cur;
}

function randomMap(w: number, h: number, seed: number): FloatMap {
  const m = createMap(w, h);
  let s = seed;
  for (let i = 0; i < w * h; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    m.data[i] = s % 3 === 0 ? 0 : (s % 1000) / 999;
  }
  return m;
}

describe('blurMap', () => {
  it('matches a direct clamped box blur for small and large radii', () => {
    const m = randomMap(23, 17, 7);
    for (const r of [1, 2, 3, 7, 11, 30])
      for (const passes of [1, 2]) {
        const got = blurMap(m, r, passes).data;
        const want = naiveBlur(m, r, passes);
        for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-5);
      }
  });

  it('leaves the input alone and copies it for r < 1', () => {
    const m = randomMap(9, 5, 3);
    const before = m.data.slice();
    const b = blurMap(m, 0, 2);
    expect(Array.from(b.data)).toEqual(Array.from(before));
    b.data[0] = 42;
    blurMap(m, 3, 2);
    expect(Array.from(m.data)).toEqual(Array.from(before));
  });
});

describe('blurRect', () => {
  it('gives the full blur on a sub-rectangle, also at the image edges', () => {
    const w = 40;
    const h = 31;
    const m = randomMap(w, h, 11);
    for (const [r, passes] of [
      [2, 1],
      [3, 2],
      [9, 2],
    ] as const) {
      const full = blurMap(m, r, passes).data;
      for (const [x0, y0, x1, y1] of [
        [10, 8, 25, 20],
        [0, 0, 5, 30],
        [30, 25, 39, 30],
      ] as const) {
        const part = blurRect(m.data, w, h, r, passes, x0, y0, x1, y1);
        expect(part.length).toBe((x1 - x0 + 1) * (y1 - y0 + 1));
        for (let y = y0; y <= y1; y++)
          for (let x = x0; x <= x1; x++)
            expect(Math.abs(part[(y - y0) * (x1 - x0 + 1) + x - x0]! - full[y * w + x]!)).toBeLessThan(1e-5);
      }
    }
  });
});
