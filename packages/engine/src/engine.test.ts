/**
 * End-to-end tests of the built-in engine on openly licensed photos (see
 * test-fixtures/LICENSES.md), through the worker pool.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '@aidressup/contract';
import { createLocalEngine, workerLocation, type LocalEngine } from './local-engine.js';
import { scoreTryOnBytes } from './metrics.js';
import { isEngineError } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'test-fixtures');
const read = (f: string) => new Uint8Array(readFileSync(join(fixtures, f)));

const CASES: { person: string; garment: string; category: Category }[] = [
  { person: 'person/woman_tee_jeans_fullbody.jpg', garment: 'garment/tshirt_womens_blue.jpg', category: 'upper_body' },
  { person: 'person/man_leather_jacket_upper.jpg', garment: 'garment/tshirt_womens_blue.jpg', category: 'upper_body' },
  { person: 'person/woman_blouse_skirt.jpg', garment: 'garment/tshirt_black.jpg', category: 'upper_body' },
  { person: 'person/woman_tee_jeans_fullbody.jpg', garment: 'garment/jeans_dark_straight.jpg', category: 'lower_body' },
  { person: 'person/woman_croptop_skirt.jpg', garment: 'garment/skirt_pink_denim.jpg', category: 'lower_body' },
  { person: 'person/woman_tee_jeans_fullbody.jpg', garment: 'garment/dress_blue_sleeves.jpg', category: 'dresses' },
  { person: 'person/woman_croptop_skirt.jpg', garment: 'garment/dress_blue_sleeves.jpg', category: 'dresses' },
];

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isEngineError(e)) return e.code;
    throw e;
  }
  return 'no refusal';
}

describe('local engine (worker pool from TypeScript source)', () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    engine = createLocalEngine({ threads: 2 });
    await engine.warm();
  });
  afterAll(async () => {
    await engine.close();
  });

  it('has the built-in engine id and label', () => {
    expect(engine.id).toBe('local');
    expect(engine.label).toBe('Built-in preview (fast)');
  });

  it.each(CASES)('$category: $garment on $person transfers, preserves and places', async (c) => {
    const person = read(c.person);
    const garment = read(c.garment);
    const r = await engine.tryOnWithInfo({ person, garment, category: c.category });
    expect(r.mimeType).toBe('image/jpeg');
    const [pm, rm] = await Promise.all([sharp(person).metadata(), sharp(r.image).metadata()]);
    expect([rm.width, rm.height]).toEqual([pm.width, pm.height]);
    const s = await scoreTryOnBytes(person, garment, r.image, c.category, r.info.keypoints);
    expect(s.changedFraction).toBeGreaterThan(0.02);
    expect(s.transfer.result).toBeGreaterThan(s.transfer.original);
    expect(s.preservation.meanAbsDiff).toBeLessThanOrEqual(2 / 255);
    expect(s.preservation.headChanged).toBeLessThanOrEqual(0.02);
    expect(s.placement.inBand).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses a photo with no person (a garment photo) with PERSON_NOT_FOUND', async () => {
    const garment = read('garment/tshirt_womens_blue.jpg');
    expect(await refusal(engine.tryOn({ person: garment, garment, category: 'upper_body' }))).toBe('PERSON_NOT_FOUND');
    const jeans = read('garment/jeans_dark_straight.jpg');
    expect(await refusal(engine.tryOn({ person: jeans, garment, category: 'upper_body' }))).toBe('PERSON_NOT_FOUND');
  });

  it('refuses a head-to-hips photo for trousers with PERSON_TOO_SMALL', async () => {
    const person = read('person/man_leather_jacket_upper.jpg');
    expect(
      await refusal(engine.tryOn({ person, garment: read('garment/jeans_dark_straight.jpg'), category: 'lower_body' })),
    ).toBe('PERSON_TOO_SMALL');
  });

  it('refuses a tiny person in a large frame with PERSON_TOO_SMALL', async () => {
    const small = await sharp(read('person/woman_tee_jeans_fullbody.jpg')).resize(120, 120).toBuffer();
    const person = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c8c8c8' } })
      .composite([{ input: small, left: 450, top: 450 }])
      .jpeg()
      .toBuffer();
    const code = await refusal(
      engine.tryOn({
        person: new Uint8Array(person),
        garment: read('garment/tshirt_womens_blue.jpg'),
        category: 'upper_body',
      }),
    );
    expect(['PERSON_TOO_SMALL', 'PERSON_NOT_FOUND']).toContain(code);
  });

  it('refuses two people side by side with MULTIPLE_PEOPLE', async () => {
    const a = await sharp(read('person/woman_tee_jeans_fullbody.jpg')).resize(512, 1024, { fit: 'cover' }).toBuffer();
    const b = await sharp(read('person/woman_croptop_skirt.jpg')).resize(512, 1024, { fit: 'cover' }).toBuffer();
    const both = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c8c8c8' } })
      .composite([
        { input: a, left: 0, top: 0 },
        { input: b, left: 512, top: 0 },
      ])
      .jpeg()
      .toBuffer();
    expect(
      await refusal(
        engine.tryOn({
          person: new Uint8Array(both),
          garment: read('garment/tshirt_womens_blue.jpg'),
          category: 'upper_body',
        }),
      ),
    ).toBe('MULTIPLE_PEOPLE');
  });

  it('refuses a garment photo that cannot be separated from its background', async () => {
    // A garment lying on a busy patterned surface: no plain background to cut it from.
    const w = 512;
    const raw = Buffer.alloc(w * w * 3);
    let seed = 11;
    for (let by = 0; by < w; by += 16)
      for (let bx = 0; bx < w; bx += 16) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const c = [seed & 255, (seed >> 8) & 255, (seed >> 16) & 255];
        for (let y = by; y < by + 16; y++) for (let x = bx; x < bx + 16; x++) raw.set(c, (y * w + x) * 3);
      }
    const busy = await sharp(raw, { raw: { width: w, height: w, channels: 3 } })
      .jpeg()
      .toBuffer();
    const code = await refusal(
      engine.tryOn({
        person: read('person/woman_tee_jeans_fullbody.jpg'),
        garment: new Uint8Array(busy),
        category: 'upper_body',
      }),
    );
    expect(code).toBe('GARMENT_NOT_SEPARABLE');
  });

  it('refuses a studio product photo of a garment worn by a model with GARMENT_WORN; flat shots pass', async () => {
    const person = read('person/woman_tee_jeans_fullbody.jpg');
    // Store product photos of a model wearing the clothes, as a shopper might pick for the garment.
    for (const [worn, category] of [
      ['person/woman_blouse_skirt.jpg', 'upper_body'],
      ['person/woman_croptop_skirt.jpg', 'lower_body'],
      ['person/man_leather_jacket_upper.jpg', 'upper_body'],
    ] as const)
      expect(await refusal(engine.tryOn({ person, garment: read(worn), category })), worn).toBe('GARMENT_WORN');
    // A flat shot of a top on its own is not refused for it.
    expect(
      await refusal(engine.tryOn({ person, garment: read('garment/polo_navy.jpg'), category: 'upper_body' })),
    ).not.toBe('GARMENT_WORN');
  });

  it('dresses a whole outfit in one task: the trousers, then the top over them', async () => {
    expect(engine.outfit).toBe(true);
    const person = read('person/woman_tee_jeans_fullbody.jpg');
    const top = read('garment/tshirt_womens_blue.jpg');
    const bottom = read('garment/jeans_dark_straight.jpg');
    const r = await engine.tryOnWithInfo({ person, garment: top, lowerGarment: bottom, category: 'upper_body' });
    const [pm, rm] = await Promise.all([sharp(person).metadata(), sharp(r.image).metadata()]);
    expect([rm.width, rm.height]).toEqual([pm.width, pm.height]);
    // Both passes ran in the one worker task.
    expect(Object.keys(r.info.timings)).toEqual(expect.arrayContaining(['lower:fit+composite', 'fit+composite']));
    // What the top's pass changed (against the trousers-only result) is the top, in its band.
    const bottomOnly = await engine.tryOn({ person, garment: bottom, category: 'lower_body' });
    const upper = await scoreTryOnBytes(bottomOnly.image, top, r.image, 'upper_body', r.info.keypoints);
    expect(upper.transfer.result).toBeGreaterThan(upper.transfer.original);
    expect(upper.placement.inBand).toBeGreaterThanOrEqual(0.9);
    // Halfway from the hips to the knees and below, the outfit is the trousers-only result (the
    // top's pass left the legs alone), and the trousers did change the legs.
    const k = r.info.keypoints;
    const from = Math.round((Math.max(k[23]!.y, k[24]!.y) + Math.max(k[25]!.y, k[26]!.y)) / 2);
    const legs = (img: Uint8Array) =>
      sharp(img)
        .extract({ left: 0, top: from, width: pm.width!, height: pm.height! - from })
        .raw()
        .toBuffer();
    const [a, b, original] = await Promise.all([legs(r.image), legs(bottomOnly.image), legs(person)]);
    const changed = (x: Buffer, y: Buffer) => x.filter((v, i) => Math.abs(v - y[i]!) > 24).length / x.length;
    expect(changed(a, b)).toBeLessThan(0.002);
    expect(changed(b, original)).toBeGreaterThan(0.01);
    // Not the top alone: the bottom changed the picture too.
    const topOnly = await engine.tryOn({ person, garment: top, category: 'upper_body' });
    expect(Buffer.from(topOnly.image).equals(Buffer.from(r.image))).toBe(false);
  });

  it('applies EXIF orientation and keeps the photo size', async () => {
    // An upright 600×800 photo stored as 800×600 pixels with an EXIF "rotate 90° clockwise" tag.
    const upright = await sharp(read('person/woman_tee_jeans_fullbody.jpg')).resize(600, 800).jpeg().toBuffer();
    const stored = await sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const sm = await sharp(stored).metadata();
    expect([sm.width, sm.height, sm.orientation]).toEqual([800, 600, 6]);
    const r = await engine.tryOnWithInfo({
      person: new Uint8Array(stored),
      garment: read('garment/tshirt_womens_blue.jpg'),
      category: 'upper_body',
    });
    const m = await sharp(r.image).metadata();
    expect([m.width, m.height]).toEqual([600, 800]);
    // Upright: the head (nose) is above the hips.
    expect(r.info.keypoints[0]!.y).toBeLessThan(r.info.keypoints[23]!.y);
  });

  it('stops with ENGINE_TIMEOUT when the caller aborts', async () => {
    const ac = new AbortController();
    ac.abort();
    const code = await refusal(
      engine.tryOn({
        person: read('person/woman_tee_jeans_fullbody.jpg'),
        garment: read('garment/tshirt_womens_blue.jpg'),
        category: 'upper_body',
        signal: ac.signal,
      }),
    );
    expect(code).toBe('ENGINE_TIMEOUT');
  });

  it('keeps the event loop free while try-ons run', async () => {
    const person = read('person/woman_croptop_skirt.jpg');
    const garment = read('garment/tshirt_womens_blue.jpg');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await Promise.all([
      engine.tryOn({ person, garment, category: 'upper_body' }),
      engine.tryOn({ person, garment, category: 'upper_body' }),
    ]);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });
});

describe('local engine worker location', () => {
  it('uses worker.ts with the TypeScript loader from source, and plain worker.js from dist', () => {
    const src = workerLocation(pathToFileURL(join(here, 'local-engine.ts')).href);
    expect(src.filename).toBe(join(here, 'worker.ts'));
    expect(src.execArgv).toContain('--import');
    const dist = workerLocation(pathToFileURL(join(here, '..', 'dist', 'local-engine.js')).href);
    expect(dist.filename).toBe(join(here, '..', 'dist', 'worker.js'));
    expect(dist.execArgv).toEqual([]);
    // Benchmarks loaded from source ask for the compiled worker, as production runs it.
    const compiled = workerLocation(pathToFileURL(join(here, 'local-engine.ts')).href, true);
    expect(compiled.filename).toBe(join(here, '..', 'dist', 'worker.js'));
    expect(compiled.execArgv).toEqual([]);
  });

  it('runs from the built dist/ (as the production server does)', async () => {
    const require = createRequire(import.meta.url);
    const tsc = require.resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-b', join(here, '..')], { stdio: 'pipe' });
    const mod = (await import(pathToFileURL(join(here, '..', 'dist', 'index.js')).href)) as typeof import('./index.js');
    const engine = mod.createLocalEngine({ threads: 1 });
    try {
      const r = await engine.tryOn({
        person: read('person/woman_croptop_skirt.jpg'),
        garment: read('garment/tshirt_womens_blue.jpg'),
        category: 'upper_body',
      });
      const m = await sharp(r.image).metadata();
      expect(m.format).toBe('jpeg');
      expect(m.width).toBe(1024);
      const code = await refusal(
        engine.tryOn({
          person: read('garment/tshirt_womens_blue.jpg'),
          garment: read('garment/tshirt_womens_blue.jpg'),
          category: 'upper_body',
        }),
      );
      expect(code).toBe('PERSON_NOT_FOUND');
    } finally {
      await engine.close();
    }
  });
});
