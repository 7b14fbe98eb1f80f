import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import showcase from '../tryon/showcase-samples.json';
import { SHOWCASE_CREDITS } from './image-credits';

const publicDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'showcase');
const attribution = readFileSync(join(publicDir, 'ATTRIBUTION.md'), 'utf8');

describe('the image credits of the showcase', () => {
  it('name every card of the showcase, in its order', () => {
    expect(SHOWCASE_CREDITS.map((c) => c.name)).toEqual(showcase.samples.map((s) => s.name));
  });

  for (const c of SHOWCASE_CREDITS) {
    const sample = showcase.samples.find((s) => s.name === c.name);
    it(`${c.name}: credits a result exactly when the page shows one, and every image it shows exists`, () => {
      expect(c.result).toBe(sample?.showResult);
      for (const kind of ['person', 'garment', ...(c.result ? ['result'] : [])])
        expect(existsSync(join(publicDir, `${c.name}-${kind}.webp`)), `${c.name}-${kind}.webp`).toBe(true);
      expect(existsSync(join(publicDir, `${c.name}-result.webp`))).toBe(c.result);
    });

    it(`${c.name}: the photos it names are the ones ATTRIBUTION.md (written with the images) names`, () => {
      expect(attribution).toContain(`| \`${c.name}-person.webp\` | \`${c.person.file}\` |`);
      expect(attribution).toContain(`| \`${c.name}-garment.webp\` | \`${c.garment.file}\` |`);
      const derived = `| \`${c.name}-result.webp\` | derived from \`${c.person.file}\` and \`${c.garment.file}\` |`;
      if (c.result) expect(attribution).toContain(derived);
      else expect(attribution).not.toContain(`${c.name}-result.webp`);
    });
  }
});
