/**
 * Contact sheets of upper-body try-ons, to look at every one: per pair the person and the garment
 * (small, one above the other) and the results large enough to see edges: the result before a
 * change and after it side by side, when both are there. Six pairs per sheet, numbered files.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { UpperRun } from './upper-pairs.js';

const SMALL_W = 150;
const SMALL_H = 200;
const BIG_W = 300;
const BIG_H = 400;
const LABEL_H = 18;
const PER_ROW = 2;
const ROWS = 3;

async function fit(bytes: Uint8Array | Buffer, w: number, h: number): Promise<Buffer> {
  return sharp(bytes).rotate().resize(w, h, { fit: 'contain', background: '#ffffff' }).png().toBuffer();
}

async function text(t: string, w: number, h: number, colour = '#222'): Promise<Buffer> {
  const esc = t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ffffff"/><text x="3" y="${h - 5}" font-family="sans-serif" font-size="12" fill="${colour}">${esc}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function placeholder(t: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${BIG_W}" height="${BIG_H}"><rect width="100%" height="100%" fill="#eeeeee"/><text x="10" y="${BIG_H / 2}" font-family="sans-serif" font-size="14" fill="#c00">${t}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface SheetRow {
  run: UpperRun;
  before?: UpperRun | undefined;
  /** A line under the pair (figures). */
  note?: string;
  /** Marked red (a figure beyond its threshold). */
  flagged?: boolean;
}

/** Writes `<prefix>-NN.png` files; returns their paths. */
export async function upperSheets(rows: SheetRow[], dir: string, prefix: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const withBefore = rows.some((r) => r.before);
  const cellW = SMALL_W + BIG_W * (withBefore ? 2 : 1) + 10;
  const cellH = BIG_H + LABEL_H * 2;
  const files: string[] = [];
  const perSheet = PER_ROW * ROWS;
  for (let s = 0; s * perSheet < rows.length; s++) {
    const part = rows.slice(s * perSheet, (s + 1) * perSheet);
    const comps: sharp.OverlayOptions[] = [];
    for (const [k, r] of part.entries()) {
      const x = (k % PER_ROW) * cellW;
      const y = Math.floor(k / PER_ROW) * cellH;
      comps.push({ input: await fit(readFileSync(r.run.person), SMALL_W, SMALL_H), left: x, top: y });
      comps.push({ input: await fit(readFileSync(r.run.garment), SMALL_W, SMALL_H), left: x, top: y + SMALL_H });
      const results = withBefore ? [r.before, r.run] : [r.run];
      for (const [j, q] of results.entries()) {
        const img = q?.result ? await fit(q.result, BIG_W, BIG_H) : await placeholder(q?.error ?? 'not run');
        comps.push({ input: img, left: x + SMALL_W + j * BIG_W, top: y });
      }
      const n = s * perSheet + k + 1;
      comps.push({
        input: await text(
          `${n}. ${r.run.set} ${r.run.id}${withBefore ? '   (before | after)' : ''}`,
          cellW - 10,
          LABEL_H,
        ),
        left: x,
        top: y + BIG_H,
      });
      comps.push({
        input: await text(r.note ?? '', cellW - 10, LABEL_H, r.flagged ? '#c00' : '#222'),
        left: x,
        top: y + BIG_H + LABEL_H,
      });
    }
    const file = join(dir, `${prefix}-${String(s + 1).padStart(2, '0')}.png`);
    await sharp({
      create: {
        width: cellW * Math.min(PER_ROW, part.length),
        height: Math.ceil(part.length / PER_ROW) * cellH,
        channels: 3,
        background: '#ffffff',
      },
    })
      .composite(comps)
      .png({ compressionLevel: 6 })
      .toFile(file);
    files.push(file);
  }
  return files;
}
