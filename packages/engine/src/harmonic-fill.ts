import type { Rgb } from './reveal.js';

/**
 * Fill the unknown cells (role 1) of a grid with the harmonic interpolation of the known
 * ones (role 2, values in `val`, RGB); role 0 cells are outside (the fill runs along them).
 * Nested iteration: the problem is solved on a grid half the size first, and its solution
 * starts over-relaxed Gauss–Seidel here, so a few sweeps suffice at any size. Cells with no
 * known value in reach take `fallback`.
 */
export function harmonicFill(role: Uint8Array, val: Float32Array, bw: number, bh: number, fallback: Rgb): void {
  const cells: number[] = [];
  for (let j = 0; j < bw * bh; j++) if (role[j] === 1) cells.push(j);
  if (!cells.length) return;
  if (bw > 12 && bh > 12) {
    const cw = Math.ceil(bw / 2);
    const chh = Math.ceil(bh / 2);
    const crole = new Uint8Array(cw * chh);
    const cval = new Float32Array(cw * chh * 3);
    const cn = new Uint16Array(cw * chh);
    for (let y = 0; y < bh; y++)
      for (let x = 0; x < bw; x++) {
        const j = y * bw + x;
        const q = (y >> 1) * cw + (x >> 1);
        if (role[j] === 2) {
          if (crole[q] !== 2) {
            crole[q] = 2;
            cval[q * 3] = cval[q * 3 + 1] = cval[q * 3 + 2] = 0;
            cn[q] = 0;
          }
          for (let ch = 0; ch < 3; ch++) cval[q * 3 + ch] = cval[q * 3 + ch]! + val[j * 3 + ch]!;
          cn[q] = cn[q]! + 1;
        } else if (role[j] === 1 && crole[q] === 0) crole[q] = 1;
      }
    for (let q = 0; q < cw * chh; q++)
      if (crole[q] === 2) for (let ch = 0; ch < 3; ch++) cval[q * 3 + ch] = cval[q * 3 + ch]! / cn[q]!;
    harmonicFill(crole, cval, cw, chh, fallback);
    for (const j of cells) {
      const q = (Math.floor(j / bw) >> 1) * cw + ((j % bw) >> 1);
      for (let ch = 0; ch < 3; ch++) val[j * 3 + ch] = cval[q * 3 + ch]!;
    }
  } else for (const j of cells) val.set(fallback, j * 3);
  // Which neighbours take part, once per cell (bits: left, right, up, down).
  const N = bw * bh;
  const nb = new Uint8Array(cells.length);
  for (let c = 0; c < cells.length; c++) {
    const q = cells[c]!;
    const x = q % bw;
    nb[c] =
      (x > 0 && role[q - 1] ? 1 : 0) |
      (x < bw - 1 && role[q + 1] ? 2 : 0) |
      (q >= bw && role[q - bw] ? 4 : 0) |
      (q + bw < N && role[q + bw] ? 8 : 0);
  }
  const omega = 1.7;
  for (let it = 0; it < 12; it++)
    for (let c = 0; c < cells.length; c++) {
      const m = nb[c]!;
      if (!m) continue;
      const o = cells[c]! * 3;
      let n = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      if (m & 1) {
        r += val[o - 3]!;
        g += val[o - 2]!;
        b += val[o - 1]!;
        n++;
      }
      if (m & 2) {
        r += val[o + 3]!;
        g += val[o + 4]!;
        b += val[o + 5]!;
        n++;
      }
      if (m & 4) {
        const u = o - bw * 3;
        r += val[u]!;
        g += val[u + 1]!;
        b += val[u + 2]!;
        n++;
      }
      if (m & 8) {
        const d = o + bw * 3;
        r += val[d]!;
        g += val[d + 1]!;
        b += val[d + 2]!;
        n++;
      }
      val[o] = val[o]! + omega * (r / n - val[o]!);
      val[o + 1] = val[o + 1]! + omega * (g / n - val[o + 1]!);
      val[o + 2] = val[o + 2]! + omega * (b / n - val[o + 2]!);
    }
}
