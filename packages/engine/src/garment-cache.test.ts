/**
 * The garment cache: a garment photo analysed once per worker, the result of a later try-on of it
 * the very image a fresh try-on gives; held by bytes, handed out as copies, and gone after its age
 * (a shopper's garment photo is not kept past the upload rules).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GarmentCache } from './garment-cache.js';
import { createLocalEngine, type LocalEngine } from './local-engine.js';
import type { PreparedGarment } from './prepare-garment.js';

const here = dirname(fileURLToPath(import.meta.url));
const read = (f: string) => new Uint8Array(readFileSync(join(here, '..', 'test-fixtures', f)));

/** A prepared garment of `side` × `side` pixels (about 8 bytes a pixel), its first pixel `mark`. */
function garmentOf(side: number, mark = 7): PreparedGarment {
  const image = { width: side, height: side, data: new Uint8ClampedArray(side * side * 4) };
  image.data[0] = mark;
  return {
    image,
    alpha: { width: side, height: side, data: new Float32Array(side * side).fill(0.5) },
    landmarks: {
      kind: 'lower',
      waistLeft: { x: 1, y: 2 },
      waistRight: { x: 3, y: 2 },
      crotch: null,
      hipLeft: null,
      hipRight: null,
      legLeft: null,
      legRight: null,
      hemLeft: { x: 1, y: 9 },
      hemRight: { x: 3, y: 9 },
    },
    cutout: { width: 4, height: 4, data: new Uint8Array(16) },
    cutoutScale: 2,
  };
}

describe('GarmentCache', () => {
  it('keys by the photo’s bytes and the category it was prepared for', () => {
    const a = new Uint8Array([1, 2, 3]);
    expect(GarmentCache.key(a, 'upper_body')).toBe(GarmentCache.key(new Uint8Array([1, 2, 3]), 'upper_body'));
    expect(GarmentCache.key(a, 'upper_body')).not.toBe(GarmentCache.key(a, 'dresses'));
    expect(GarmentCache.key(a, 'upper_body')).not.toBe(GarmentCache.key(new Uint8Array([1, 2, 4]), 'upper_body'));
  });

  it('hands out copies: what a try-on does to its garment never reaches the next one', () => {
    const cache = new GarmentCache(64 * 1024 * 1024, 60_000, Date.now, 0);
    const g = garmentOf(8);
    cache.put('k', g);
    // Changed after it was held: the held one is the garment as it was put.
    g.image.data[0] = 99;
    const first = cache.take('k')!;
    expect(first.image.data[0]).toBe(7);
    first.image.data[0] = 42;
    first.alpha.data[0] = 0;
    first.landmarks.hemLeft.x = 100;
    const second = cache.take('k')!;
    expect(second.image.data[0]).toBe(7);
    expect(second.alpha.data[0]).toBe(0.5);
    expect(second.landmarks.hemLeft.x).toBe(1);
    expect(second.image.data).toBeInstanceOf(Uint8ClampedArray);
    expect(second.alpha.data).toBeInstanceOf(Float32Array);
  });

  it('holds at most its bytes, the least recently used out first', () => {
    // 64 × 64 pixels: 16 KB of colour and 16 KB of alpha (and 16 bytes of cut-out) each.
    const each = 64 * 64 * 8 + 16;
    const cache = new GarmentCache(3 * each, 60_000, Date.now, 0);
    for (const k of ['a', 'b', 'c']) cache.put(k, garmentOf(64));
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * each });
    cache.take('a'); // a is now the most recently used
    cache.put('d', garmentOf(64));
    expect(cache.take('b')).toBeUndefined();
    expect(cache.take('a')).toBeDefined();
    expect(cache.take('c')).toBeDefined();
    expect(cache.take('d')).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(3 * each);
    // One larger than the whole cache is not held, and pushes nothing out.
    cache.put('huge', garmentOf(128));
    expect(cache.take('huge')).toBeUndefined();
    expect(cache.size.entries).toBe(3);
  });

  it('drops a garment its age after it was analysed, however often it was used, and sweeps unasked', () => {
    let now = 1_000_000;
    const cache = new GarmentCache(64 * 1024 * 1024, 15 * 60_000, () => now, 0);
    cache.put('shopper', garmentOf(8));
    for (let i = 0; i < 14; i++) {
      now += 60_000;
      expect(cache.take('shopper')).toBeDefined();
    }
    now += 60_000; // 15 minutes since it was analysed
    expect(cache.take('shopper')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });

    cache.put('unused', garmentOf(8));
    now += 15 * 60_000;
    cache.sweep();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('a garment seen before on the built-in engine (worker pool)', () => {
  let cached: LocalEngine;
  let fresh: LocalEngine;
  beforeAll(async () => {
    cached = createLocalEngine({ threads: 1 });
    fresh = createLocalEngine({ threads: 1, garmentCacheBytes: 0 });
    await Promise.all([cached.warm(), fresh.warm()]);
  });
  afterAll(async () => {
    await Promise.all([cached.close(), fresh.close()]);
  });

  it('gives the very image a fresh analysis gives, bit for bit, on the same person and on another', async () => {
    const garment = read('garment/tshirt_womens_blue.jpg');
    const people = [read('person/woman_tee_jeans_fullbody.jpg'), read('person/man_leather_jacket_upper.jpg')];
    const first = await cached.tryOnWithInfo({ person: people[0]!, garment, category: 'upper_body' });
    expect(first.info.garmentAnalysis).toBe('analysed');
    for (const person of people) {
      const again = await cached.tryOnWithInfo({ person, garment, category: 'upper_body' });
      expect(again.info.garmentAnalysis).toBe('cached');
      expect(again.info.timings['garment-check']).toBeUndefined();
      const reference = await fresh.tryOnWithInfo({ person, garment, category: 'upper_body' });
      expect(reference.info.garmentAnalysis).toBe('analysed');
      expect(Buffer.from(again.image).equals(Buffer.from(reference.image))).toBe(true);
    }
  });

  it('does not hold a refused garment photo: it is checked and refused again', async () => {
    const worn = read('person/woman_blouse_skirt.jpg');
    const person = read('person/woman_tee_jeans_fullbody.jpg');
    for (let i = 0; i < 2; i++)
      await expect(cached.tryOn({ person, garment: worn, category: 'upper_body' })).rejects.toMatchObject({
        code: 'GARMENT_WORN',
      });
  });
});
