/**
 * A kept person photo: analysed once, then given back with each try-on. The result must be the
 * very image a fresh try-on of the same photo gives, with the analysis skipped.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalEngine, type LocalEngine } from './local-engine.js';
import { createMap } from './image.js';
import { decodePersonAnalysis, encodePersonAnalysis, PERSON_ANALYSIS_VERSION } from './person-analysis.js';
import type { PersonAnalysis } from './person.js';
import { isEngineError } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const read = (f: string) => new Uint8Array(readFileSync(join(here, '..', 'test-fixtures', f)));

describe('person analysis bytes', () => {
  it('read back exactly what was written, every number and every mask value', () => {
    const mask = createMap(7, 5);
    for (let i = 0; i < mask.data.length; i++) mask.data[i] = Math.fround(Math.sin(i) * 0.5 + 0.5) / 3;
    const a: PersonAnalysis = {
      width: 7,
      height: 5,
      keypoints: [
        { x: 1 / 3, y: 2.000000000000001, score: 0.1 + 0.2 },
        { x: -0, y: 1e-300, score: Math.fround(0.987654321) },
        { x: NaN, y: -Infinity, score: 0 },
      ],
      poseScore: Math.fround(0.75),
      mask,
      peopleCount: 1,
      skin: 2,
    };
    const back = decodePersonAnalysis(encodePersonAnalysis(a));
    expect(back).toBeDefined();
    expect(back!.keypoints).toEqual(a.keypoints);
    expect(Object.is(back!.keypoints[1]!.x, -0)).toBe(true);
    expect(back!.poseScore).toBe(a.poseScore);
    expect([back!.width, back!.height, back!.peopleCount, back!.skin]).toEqual([7, 5, 1, 2]);
    expect(Array.from(back!.mask.data)).toEqual(Array.from(a.mask.data));
  });

  it('are ignored when made by another version, damaged or not an analysis at all', () => {
    const a: PersonAnalysis = {
      width: 1,
      height: 1,
      keypoints: [],
      poseScore: 1,
      mask: createMap(1, 1),
      peopleCount: 1,
      skin: 0,
    };
    const bytes = encodePersonAnalysis(a);
    const text = new TextDecoder().decode(bytes);
    const older = new TextEncoder().encode(text.replace(PERSON_ANALYSIS_VERSION, 'person-analysis/0'));
    expect(decodePersonAnalysis(older)).toBeUndefined();
    expect(decodePersonAnalysis(bytes.subarray(0, bytes.length - 2))).toBeUndefined();
    expect(decodePersonAnalysis(new TextEncoder().encode('a photo, not an analysis'))).toBeUndefined();
  });
});

describe('a kept person photo on the built-in engine (worker pool)', () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    engine = createLocalEngine({ threads: 1 });
    await engine.warm();
  });
  afterAll(async () => {
    await engine.close();
  });

  const person = read('person/woman_tee_jeans_fullbody.jpg');
  const garment = read('garment/tshirt_womens_blue.jpg');

  it('gives the same image as a fresh try-on, bit for bit, without analysing the person again', async () => {
    const fresh = await engine.tryOnWithInfo({ person, garment, category: 'upper_body' });
    expect(fresh.info.personAnalysis).toBe('analysed');
    expect(fresh.info.timings.person).toBeGreaterThan(0);

    const { analysis, width, height } = await engine.analysePerson(person);
    expect([width, height]).toEqual([fresh.info.width, fresh.info.height]);
    const keptPerson = { key: 'photo-1', analysis };
    // First with this worker's cache empty (decoded here), then from the cache.
    for (let i = 0; i < 2; i++) {
      const kept = await engine.tryOnWithInfo({ person, garment, category: 'upper_body', keptPerson });
      expect(kept.info.personAnalysis).toBe('given');
      expect(kept.info.timings.person).toBeUndefined();
      expect(kept.keptPersonAnalysis).toBeUndefined();
      expect(Buffer.from(kept.image).equals(Buffer.from(fresh.image))).toBe(true);
    }
    // Another garment on the same kept photo, against its own fresh try-on.
    const jeans = read('garment/jeans_dark_straight.jpg');
    const freshJeans = await engine.tryOn({ person, garment: jeans, category: 'lower_body' });
    const keptJeans = await engine.tryOnWithInfo({ person, garment: jeans, category: 'lower_body', keptPerson });
    expect(keptJeans.info.personAnalysis).toBe('given');
    expect(Buffer.from(keptJeans.image).equals(Buffer.from(freshJeans.image))).toBe(true);
  });

  it('makes the analysis again when the kept one is missing or out of date, and gives it back', async () => {
    const fresh = await engine.tryOn({ person, garment, category: 'upper_body' });
    const rebuilt = await engine.tryOnWithInfo({
      person,
      garment,
      category: 'upper_body',
      keptPerson: { key: 'photo-2', analysis: new TextEncoder().encode('out of date') },
    });
    expect(rebuilt.keptPersonAnalysis).toBeInstanceOf(Uint8Array);
    expect(decodePersonAnalysis(rebuilt.keptPersonAnalysis!)).toBeDefined();
    expect(Buffer.from(rebuilt.image).equals(Buffer.from(fresh.image))).toBe(true);
  });

  it('refuses to keep a photo with no person in it', async () => {
    const code = await engine.analysePerson(garment).then(
      () => 'kept',
      (e: unknown) => (isEngineError(e) ? e.code : String(e)),
    );
    expect(code).toBe('PERSON_NOT_FOUND');
  });
});
