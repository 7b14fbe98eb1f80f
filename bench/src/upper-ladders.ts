/**
 * Ladders for choosing the faults' thresholds by eye: for one fault, results (of one set, from
 * one or more builds) sorted by that fault's figure, each labelled with it, in rows of eight.
 * Where along a ladder the fault starts to show is where its threshold goes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { UpperRun } from './upper-pairs.js';

const W = 180;
const H = 240;
const L = 16;
const PER_ROW = 8;

export async function ladder(
  items: { run: UpperRun; value: number }[],
  dir: string,
  name: string,
  maxRows = 6,
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const sorted = [...items].filter((i) => i.run.result).sort((a, b) => a.value - b.value);
  const per = PER_ROW * maxRows;
  const files: string[] = [];
  for (let s = 0; s * per < sorted.length; s++) {
    const part = sorted.slice(s * per, (s + 1) * per);
    const comps: sharp.OverlayOptions[] = [];
    for (const [k, it] of part.entries()) {
      const x = (k % PER_ROW) * W;
      const y = Math.floor(k / PER_ROW) * (H + L);
      comps.push({
        input: await sharp(it.run.result).resize(W, H, { fit: 'contain', background: '#fff' }).png().toBuffer(),
        left: x,
        top: y,
      });
      const text = `${it.value.toFixed(3)} ${it.run.id.slice(0, 22)}`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      comps.push({
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${L}"><rect width="100%" height="100%" fill="#fff"/><text x="2" y="12" font-size="10" font-family="sans-serif">${text}</text></svg>`,
        ),
        left: x,
        top: y + H,
      });
    }
    const file = join(dir, `${name}-${s + 1}.png`);
    await sharp({
      create: {
        width: W * Math.min(PER_ROW, part.length),
        height: Math.ceil(part.length / PER_ROW) * (H + L),
        channels: 3,
        background: '#fff',
      },
    })
      .composite(comps)
      .png()
      .toFile(file);
    files.push(file);
  }
  return files;
}
