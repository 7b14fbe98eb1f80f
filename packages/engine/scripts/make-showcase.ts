/**
 * Writes the web app's before/after showcase samples with the built-in engine, from
 * the openly licensed test photos only (see test-fixtures/LICENSES.md).
 *
 *   node --conditions=source --import tsx packages/engine/scripts/make-showcase.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { createLocalEngine } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '..', 'test-fixtures');
const outDir = resolve(here, '..', '..', '..', 'apps', 'web', 'public', 'showcase');

interface Sample {
  name: string;
  person: string;
  garment: string;
  category: Category;
}

export const SAMPLES: Sample[] = [
  // Garments without brand logos only, each on the person it looks best on.
  {
    name: 'casual',
    person: 'person/woman_blouse_skirt.jpg',
    garment: 'garment/dress_blue_sleeves.jpg',
    category: 'dresses',
  },
  { name: 'swap', person: 'person/woman_croptop_skirt.jpg', garment: 'garment/polo_navy.jpg', category: 'upper_body' },
  { name: 'pro', person: 'person/woman_blouse_skirt.jpg', garment: 'garment/polo_navy.jpg', category: 'upper_body' },
];

const HEIGHT = 600;
const MAX_BYTES = 80 * 1024;

/** Same crop for before and after: the middle of the frame at 3:4, 600 px tall, WebP ≤ 80 KB. */
async function toWebp(bytes: Uint8Array): Promise<Buffer> {
  for (let q = 90; q >= 40; q -= 6) {
    const out = await sharp(bytes)
      .rotate()
      .resize({ width: 450, height: HEIGHT, fit: 'cover', position: 'centre' })
      .webp({ quality: q })
      .toBuffer();
    if (out.length <= MAX_BYTES) return out;
  }
  throw new Error('could not fit the showcase image in 80 KB');
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const engine = createLocalEngine({ threads: 1 });
  try {
    for (const s of SAMPLES) {
      const person = new Uint8Array(readFileSync(join(fixtures, s.person)));
      const garment = new Uint8Array(readFileSync(join(fixtures, s.garment)));
      const result = await engine.tryOn({ person, garment, category: s.category });
      const before = await toWebp(person);
      const after = await toWebp(result.image);
      writeFileSync(join(outDir, `${s.name}-before.webp`), before);
      writeFileSync(join(outDir, `${s.name}-after.webp`), after);
      console.log(`${s.name}: before ${before.length} B, after ${after.length} B`);
    }
  } finally {
    await engine.close();
  }
  const lines = [
    '# Showcase images: sources and licences',
    '',
    'The "before" images are openly licensed photos; the "after" images were made from them by the',
    "product's built-in try-on engine (`packages/engine/scripts/make-showcase.ts`), cropped to 3:4 and",
    'saved as WebP.',
    '',
    '| Files | Person photo | Garment photo |',
    '|---|---|---|',
    ...SAMPLES.map(
      (s) =>
        `| \`${s.name}-before.webp\`, \`${s.name}-after.webp\` | \`${s.person.split('/').pop()}\` | \`${s.garment.split('/').pop()}\` |`,
    ),
    '',
    '## Attribution',
    '',
    '- People (`woman_*.jpg`): Image from the Bagisto project (https://github.com/bagisto/bagisto), © 2010-2025 Webkul Software, MIT License. These people look AI-generated, not photographs of real models.',
    '- `dress_blue_sleeves.jpg`, `polo_navy.jpg`: Images from the Clothing Dataset by Alexey Grigorev and contributors (https://github.com/alexeygrigorev/clothing-dataset), CC0 1.0.',
    '',
    'The full licence texts are in `packages/engine/test-fixtures/LICENSES.md`.',
    '',
  ];
  writeFileSync(join(outDir, 'ATTRIBUTION.md'), lines.join('\n'));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
