import { describe, expect, it } from 'vitest';
import { solveSmall } from './solver.js';

describe('solveSmall', () => {
  it('solves a system that needs a row swap, leaving a and b untouched', () => {
    const a = Float64Array.from([0, 2, 1, 1, 1, 1, 2, 1, 3]);
    const b = Float64Array.from([7, 6, 13]);
    const x = new Float64Array(3);
    solveSmall(a, b, x);
    [1, 2, 3].forEach((v, i) => expect(x[i]).toBeCloseTo(v, 12));
    expect([...a]).toEqual([0, 2, 1, 1, 1, 1, 2, 1, 3]);
    expect([...b]).toEqual([7, 6, 13]);
  });

  it('sets the unknown of a singular direction to 0 instead of dividing by a near-zero pivot', () => {
    // The second and third columns are equal: x1 + x2 is determined, not each of them.
    const a = Float64Array.from([1, 1, 1, 0, 2, 2, 0, 1, 1]);
    const b = Float64Array.from([4, 6, 3]);
    const x = new Float64Array(3);
    solveSmall(a, b, x);
    expect(x.every(Number.isFinite)).toBe(true);
    expect(x[0]).toBeCloseTo(1, 12);
    expect(x[1]! + x[2]!).toBeCloseTo(3, 12);
  });
});
