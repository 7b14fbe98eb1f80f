/**
 * The engine's photo checks one photo at a time, on this thread, with the verdict as a value: for
 * `npm run bench:checks` and the tests. Production runs the same functions inside `runTryOn`.
 */
import type { Category } from '@aidressup/contract';
import { loadModels } from './models.js';
import { analysePerson } from './person.js';
import { checkPerson } from './refusals.js';
import { checkGarment, runTryOn } from './pipeline.js';
import { decodeGarment, decodePerson } from './photo-io.js';
import { isWornGarment, wornEvidence, WORN_MIN_PERSON_SHARE, type WornEvidence } from './garment-worn.js';
import { cutOutGarment } from './prepare-garment.js';
import { isEngineError } from './types.js';

export interface Verdict {
  /** The refusal's error code, or null when the photo (or pair) passes. */
  refused: string | null;
  detail?: string;
  /** CPU time of the check on this thread, in ms. */
  cpuMs: number;
}

async function judge(run: () => Promise<unknown>): Promise<Verdict> {
  const start = process.cpuUsage();
  const cpu = () => {
    const u = process.cpuUsage(start);
    return (u.user + u.system) / 1000;
  };
  try {
    await run();
    return { refused: null, cpuMs: cpu() };
  } catch (e) {
    if (isEngineError(e)) return { refused: e.code, detail: e.detail, cpuMs: cpu() };
    throw e;
  }
}

export interface PhotoChecks {
  /** The person photo's checks for a category: person found, several people, too small or cut off. */
  person(bytes: Uint8Array, category: Category): Promise<Verdict>;
  /** The garment photo's checks: worn, then not separable. */
  garment(bytes: Uint8Array): Promise<Verdict>;
  /** The worn check's figures for a garment photo (the cut-out's when it has one). */
  wornEvidence(bytes: Uint8Array): Promise<WornEvidence>;
  /** A whole try-on: every check, the result's check (GARMENT_NOT_PLACED) last. */
  tryOn(person: Uint8Array, garment: Uint8Array, category: Category): Promise<Verdict>;
  /** The result the result's check would refuse, to look at. */
  uncheckedResult(person: Uint8Array, garment: Uint8Array, category: Category): Promise<Uint8Array>;
}

export async function createPhotoChecks(): Promise<PhotoChecks> {
  const models = await loadModels();
  return {
    person: (bytes, category) =>
      judge(async () => {
        const photo = await decodePerson(bytes);
        const analysis = analysePerson(models, photo.work);
        checkPerson(analysis, category, isWornGarment(wornEvidence(photo.work, analysis, null)));
      }),
    garment: (bytes) =>
      judge(async () => {
        const g = await decodeGarment(bytes);
        checkGarment(models, g.image, g.hasAlpha);
      }),
    wornEvidence: async (bytes) => {
      const g = await decodeGarment(bytes);
      let cut = null;
      try {
        cut = cutOutGarment(g.image, g.hasAlpha);
      } catch {
        cut = null;
      }
      return wornEvidence(g.image, analysePerson(models, g.image, { minPersonShare: WORN_MIN_PERSON_SHARE }), cut);
    },
    tryOn: (person, garment, category) => judge(() => runTryOn(models, { person, garment, category })),
    uncheckedResult: async (person, garment, category) =>
      (await runTryOn(models, { person, garment, category }, { resultCheck: false })).image,
  };
}
