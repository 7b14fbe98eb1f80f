/**
 * `npm run showcase`: makes the home page's showcase from the openly licensed photos in
 * test-fixtures/ (see test-fixtures/LICENSES.md) with the engine the page uses (the built-in one),
 * so the showcase never drifts from what the product really does.
 *
 * For every sample it runs the engine on the pair: a pair the engine refuses fails the script, so
 * the page never shows a pair the product cannot dress. The engine's result goes on the page only
 * where a person has looked at it and judged it good enough to show a shopper (`showResult`);
 * otherwise the page shows the two photos the try-on starts from and says what it does. Every
 * result is also written to a review folder (printed at the end) for that judgement.
 *
 * Writes apps/web/public/showcase/<name>-person.webp, <name>-garment.webp (and <name>-result.webp,
 * 450×600 WebP under 80 KB, when shown), apps/web/public/showcase/ATTRIBUTION.md and
 * apps/web/src/features/tryon/showcase-samples.json, which the page reads.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import { createLocalEngine } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const fixtures = resolve(here, '..', 'test-fixtures');
const outDir = join(repo, 'apps', 'web', 'public', 'showcase');
const manifestFile = join(repo, 'apps', 'web', 'src', 'features', 'tryon', 'showcase-samples.json');
const reviewDir = join(tmpdir(), 'aidressup-showcase-review');

/** The engine the page uses by default, and so the one the showcase is made with. */
const ENGINE = 'local';

interface Sample {
  /** The card (its texts are `tryon.showcase.<name>.*`). */
  name: 'casual' | 'swap' | 'pro';
  person: string;
  garment: string;
  category: Category;
  /**
   * True only after a person looked at this pair's result and judged it fit to show a shopper as
   * a quick preview. Last judged 2026-12-02 by eye, over every pair of the open fixtures the engine
   * dresses: the blue dress on the woman in the blouse and skirt reads as the dress (a little of
   * the blouse shows at the shoulders and of the old skirt's flare by the hands); the striped polo
   * on the woman in the crop top looks right. No pair with a navy polo looked right (cut-out
   * edges at the shoulders), so the professional card keeps the two photos only.
   */
  showResult: boolean;
}

const SAMPLES: Sample[] = [
  {
    name: 'casual',
    person: 'person/woman_blouse_skirt.jpg',
    garment: 'garment/dress_blue_sleeves.jpg',
    category: 'dresses',
    showResult: true,
  },
  {
    name: 'swap',
    person: 'person/woman_croptop_skirt.jpg',
    garment: 'garment/polo_striped.jpg',
    category: 'upper_body',
    showResult: true,
  },
  {
    name: 'pro',
    person: 'person/woman_blouse_skirt.jpg',
    garment: 'garment/polo_navy.jpg',
    category: 'upper_body',
    showResult: false,
  },
];

const MAX_BYTES = 80 * 1024;

/** 450×600 WebP under 80 KB: people cropped to 3:4 from the middle; garments whole, on a light ground. */
async function toWebp(bytes: Uint8Array, fit: 'cover' | 'contain'): Promise<Buffer> {
  for (let q = 88; q >= 40; q -= 6) {
    const out = await sharp(bytes)
      .rotate()
      .resize({ width: 450, height: 600, fit, position: 'centre', background: '#f4f4f5' })
      .flatten({ background: '#f4f4f5' })
      .webp({ quality: q })
      .toBuffer();
    if (out.length <= MAX_BYTES) return out;
  }
  throw new Error('could not fit the showcase image in 80 KB');
}

const ATTRIBUTION: Record<string, string> = {
  person:
    'Image from the Bagisto project (https://github.com/bagisto/bagisto), © 2010-2025 Webkul Software, MIT License. These people look AI-generated, not photographs of real models.',
  garment:
    'Image from the Clothing Dataset by Alexey Grigorev and contributors (https://github.com/alexeygrigorev/clothing-dataset), CC0 1.0.',
};

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  mkdirSync(reviewDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (f.endsWith('.webp')) rmSync(join(outDir, f));
  const engine = createLocalEngine({ threads: 1 });
  try {
    for (const s of SAMPLES) {
      const person = new Uint8Array(readFileSync(join(fixtures, s.person)));
      const garment = new Uint8Array(readFileSync(join(fixtures, s.garment)));
      // Throws (and fails the script) when the engine cannot dress this pair.
      const result = await engine.tryOn({ person, garment, category: s.category });
      const after = await toWebp(result.image, 'cover');
      writeFileSync(join(reviewDir, `${s.name}-result.webp`), after);
      writeFileSync(join(outDir, `${s.name}-person.webp`), await toWebp(person, 'cover'));
      writeFileSync(join(outDir, `${s.name}-garment.webp`), await toWebp(garment, 'contain'));
      if (s.showResult) writeFileSync(join(outDir, `${s.name}-result.webp`), after);
      console.log(`${s.name}: the engine dressed the pair; result ${s.showResult ? 'shown' : 'kept for review only'}`);
    }
  } finally {
    await engine.close();
  }
  const manifest = {
    engine: ENGINE,
    samples: SAMPLES.map((s) => ({ name: s.name, category: s.category, showResult: s.showResult })),
  };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const lines = [
    '# Showcase images: sources and licences',
    '',
    'Made by `npm run showcase` (`packages/engine/scripts/make-showcase.ts`) from openly licensed photos',
    "in `packages/engine/test-fixtures/`: each pair is run through the product's built-in engine, and the",
    'page shows the two photos (cropped to 3:4, saved as WebP) and, where judged good enough, the result',
    "(the engine's quick preview, cropped to 3:4, saved as WebP).",
    '',
    '| Files | Photo | Attribution |',
    '|---|---|---|',
    ...SAMPLES.flatMap((s) => [
      `| \`${s.name}-person.webp\` | \`${s.person.split('/').pop()}\` | ${ATTRIBUTION.person} |`,
      `| \`${s.name}-garment.webp\` | \`${s.garment.split('/').pop()}\` | ${ATTRIBUTION.garment} |`,
      ...(s.showResult
        ? [
            `| \`${s.name}-result.webp\` | derived from \`${s.person.split('/').pop()}\` and \`${s.garment.split('/').pop()}\` | A quick preview made by the built-in preview engine of AI Dress Up from the two photos above; it keeps their licences and attributions. |`,
          ]
        : []),
    ]),
    '',
    'The full licence texts are in `packages/engine/test-fixtures/LICENSES.md`.',
    '',
  ];
  writeFileSync(join(outDir, 'ATTRIBUTION.md'), lines.join('\n'));
  console.log(`Every result, for review: ${reviewDir}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
