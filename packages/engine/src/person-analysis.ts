/**
 * A person photo analysed once and given back later: when a shopper keeps a photo, the engine
 * analyses it (`analysePersonPhoto`) and the server keeps the bytes of that analysis beside the
 * photo; later try-ons pass them back (`TryOnInput.keptPerson`) and the pipeline skips the
 * analysis (`runTryOn`'s `analysis`). The bytes are the whole `PersonAnalysis`, exactly: the
 * numbers as JSON (which reads back every double as it was), the float maps as raw float32, so a
 * try-on with a kept analysis gives the very image a fresh one gives.
 *
 * `PERSON_ANALYSIS_VERSION` names what the analysis is made of: change it whenever
 * `analysePerson` (person.ts), its models or the person photo's decoding (photo-io.ts) change, and
 * every kept analysis made before is ignored and made again on its next use.
 */
import { checkPerson } from './refusals.js';
import { isEngineError } from './types.js';
import type { FloatMap } from './image.js';
import type { Models } from './models.js';
import { analysePerson, type PersonAnalysis } from './person.js';
import { decodePerson, type PersonPhoto } from './photo-io.js';
import { isWornGarment, wornEvidence } from './garment-worn.js';

export const PERSON_ANALYSIS_VERSION = 'person-analysis/1';

const MAGIC = 'AIDU-PA1';
const HEADER_BYTES = 12; // magic (8) + header length (uint32 LE)

interface Header {
  version: string;
  /** Every field of the analysis but the float maps, as JSON values. */
  fields: Record<string, unknown>;
  /** The float maps, in order after the header (4-byte aligned). */
  maps: { key: string; width: number; height: number }[];
}

function isFloatMap(v: unknown): v is FloatMap {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as FloatMap).data instanceof Float32Array &&
    typeof (v as FloatMap).width === 'number' &&
    typeof (v as FloatMap).height === 'number'
  );
}

/** The analysis as bytes (a few hundred KB: its person mask is float32 at the working size). */
export function encodePersonAnalysis(analysis: PersonAnalysis): Uint8Array {
  const fields: Record<string, unknown> = {};
  const maps: { key: string; map: FloatMap }[] = [];
  for (const [key, value] of Object.entries(analysis)) {
    if (isFloatMap(value)) maps.push({ key, map: value });
    else fields[key] = value;
  }
  const header: Header = {
    version: PERSON_ANALYSIS_VERSION,
    fields,
    maps: maps.map(({ key, map }) => ({ key, width: map.width, height: map.height })),
  };
  const json = new TextEncoder().encode(JSON.stringify(header, keepNumbers));
  const start = align4(HEADER_BYTES + json.length);
  const total = maps.reduce((n, { map }) => n + map.data.length * 4, start);
  const out = new Uint8Array(total);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(8, json.length, true);
  out.set(json, HEADER_BYTES);
  let offset = start;
  for (const { map } of maps) {
    out.set(new Uint8Array(map.data.buffer, map.data.byteOffset, map.data.byteLength), offset);
    offset += map.data.byteLength;
  }
  return out;
}

const align4 = (n: number) => (n + 3) & ~3;

/** JSON keeps every finite double but -0, NaN and the infinities: those are written as `{"$n": "…"}`. */
function keepNumbers(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
    return { $n: Object.is(value, -0) ? '-0' : String(value) };
  return value;
}

function readNumbers(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 1 && '$n' in value)
    return Number((value as { $n: string }).$n);
  return value;
}

/**
 * The analysis back from its bytes; undefined when they are not an analysis of this version
 * (made by an older engine, or damaged): the caller then analyses the photo again.
 */
export function decodePersonAnalysis(bytes: Uint8Array): PersonAnalysis | undefined {
  try {
    if (bytes.length < HEADER_BYTES || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint32(8, true);
    const text = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + length));
    const header = JSON.parse(text, readNumbers) as Header;
    if (header.version !== PERSON_ANALYSIS_VERSION) return undefined;
    const out: Record<string, unknown> = { ...header.fields };
    let offset = align4(HEADER_BYTES + length);
    for (const m of header.maps) {
      const n = m.width * m.height;
      if (offset + n * 4 > bytes.length) return undefined;
      // A copy: the map is written to nowhere, but it must not alias a buffer the caller reuses.
      const data = new Float32Array(n);
      new Uint8Array(data.buffer).set(bytes.subarray(offset, offset + n * 4));
      out[m.key] = { width: m.width, height: m.height, data };
      offset += n * 4;
    }
    const analysis = out as unknown as PersonAnalysis;
    if (!Array.isArray(analysis.keypoints) || !analysis.mask) return undefined;
    return analysis;
  } catch {
    return undefined;
  }
}

/**
 * A photo worth keeping: one person the engine can dress in at least one category (`head`: the
 * photo shows a head on top of a body, as `checkPerson` takes it). Throws the
 * refusal the photo gets for a top (PERSON_NOT_FOUND, MULTIPLE_PEOPLE, PERSON_TOO_SMALL) when no
 * category fits: a person photo the try-on would refuse whatever the garment.
 */
function checkKeepable(analysis: PersonAnalysis, head: boolean): void {
  let first: unknown;
  for (const category of ['upper_body', 'lower_body', 'dresses'] as const) {
    try {
      checkPerson(analysis, category, head);
      return;
    } catch (e) {
      if (!isEngineError(e)) throw e;
      first ??= e;
    }
  }
  throw first;
}

/**
 * The entry a kept photo goes through once: decoded as a try-on decodes it, analysed, and checked
 * to be worth keeping (`checkKeepable`). The analysis comes back as bytes to keep beside the photo.
 */
export async function analysePersonPhoto(
  models: Models,
  bytes: Uint8Array,
): Promise<{ photo: PersonPhoto; analysis: PersonAnalysis }> {
  const photo = await decodePerson(bytes);
  const analysis = analysePerson(models, photo.work);
  // A head on top of a body counts as a person, as in a try-on (garment-worn.ts).
  checkKeepable(analysis, isWornGarment(wornEvidence(photo.work, analysis, null)));
  return { photo, analysis };
}
