/**
 * The engine's photo checks one photo at a time, on this thread, with the verdict as a value: for
 * `npm run bench:checks` and the tests. Production runs the same functions inside `runTryOn`.
 */
import type { Category } from '@aidressup/contract';
import { loadModels } from './models.js';
import { analysePerson, type PersonAnalysis } from './person.js';
import type { FloatMap, RGBAImage } from './image.js';
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
  /** A person photo at the working size and its analysis, as a try-on makes them. */
  analysePhoto(bytes: Uint8Array): Promise<{ image: RGBAImage; analysis: PersonAnalysis }>;
  /** A photo (a result) reduced to the working size, as a person photo is. */
  workingSize(bytes: Uint8Array): Promise<RGBAImage>;
  /** A garment photo as the garment stage reads it, and its cut-out's alpha (null when it cannot be cut out). */
  garmentCutout(bytes: Uint8Array): Promise<{ image: RGBAImage; alpha: FloatMap | null }>;
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
    analysePhoto: async (bytes) => {
      const photo = await decodePerson(bytes);
      return { image: photo.work, analysis: analysePerson(models, photo.work) };
    },
    workingSize: async (bytes) => (await decodePerson(bytes)).work,
    garmentCutout: async (bytes) => {
      const g = await decodeGarment(bytes);
      const image: RGBAImage = {
        width: g.image.width,
        height: g.image.height,
        data: new Uint8ClampedArray(g.image.data),
      };
      try {
        return { image, alpha: cutOutGarment(g.image, g.hasAlpha).alpha };
      } catch {
        return { image, alpha: null };
      }
    },
  };
}
