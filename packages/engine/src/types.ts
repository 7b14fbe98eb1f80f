import type { EngineErrorCode, TryOnCategory } from '@aidressup/contract';
// The error tables only: the worker threads need not load the API schemas (zod).
import { ERROR_MESSAGES } from '@aidressup/contract/errors';

/** What every try-on engine receives: the two photos and the garment's category. Images are encoded JPEG/PNG/WEBP bytes. */
export interface TryOnInput {
  person: Uint8Array;
  garment: Uint8Array;
  /** `accessories` only for engines that declare it in `categories`. */
  category: TryOnCategory;
  /**
   * A whole outfit: trousers or a skirt dressed first, then `garment` (a top, category
   * upper_body) over the result. Only passed to engines that declare `outfit`; for the others
   * the server makes the two calls itself.
   */
  lowerGarment?: Uint8Array;
  /**
   * The person photo is one the shopper keeps: `key` names it (the same photo, the same key; the
   * engine may hold it decoded under that key) and `analysis` is what `analysePerson` made of it
   * when it was kept. Engines that keep nothing of a person photo ignore it.
   */
  keptPerson?: KeptPersonInput;
  signal?: AbortSignal;
}

export interface KeptPersonInput {
  key: string;
  analysis?: Uint8Array | undefined;
}

export interface TryOnOutput {
  image: Uint8Array;
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
  /**
   * The kept person photo's analysis, made again because the one given was missing or out of
   * date: kept in place of the old one.
   */
  keptPersonAnalysis?: Uint8Array;
}

/** One interface for the built-in engine and every hosted one. */
export interface TryOnEngine {
  readonly id: string;
  readonly label: string;
  tryOn(input: TryOnInput): Promise<TryOnOutput>;
  /** True when `tryOn` dresses a whole outfit (`lowerGarment`) itself, in one job. */
  readonly outfit?: boolean;
  /** The categories it can dress; none declared: the three clothing categories. */
  readonly categories?: readonly TryOnCategory[];
  /**
   * Analyses a person photo once, when the shopper keeps it; the bytes come back with later
   * try-ons of that photo (`TryOnInput.keptPerson`). Refuses (EngineError PERSON_NOT_FOUND,
   * MULTIPLE_PEOPLE, PERSON_TOO_SMALL) a photo it could dress nothing on. Engines without it keep
   * nothing of a person photo.
   */
  analysePerson?(person: Uint8Array, signal?: AbortSignal): Promise<PersonAnalysisOutput>;
  /** Load models / check configuration ahead of the first request. */
  warm?(): Promise<void>;
  close?(): Promise<void>;
  /** The engine's own view of its state, from real calls only (never spends money). */
  health?(): EngineHealth;
}

export interface PersonAnalysisOutput {
  /** The analysis, to keep beside the photo. */
  analysis: Uint8Array;
  /** The photo's size as the engine read it. */
  width: number;
  height: number;
}

/** An engine's health; implementations add their own details (last success, error rate, …). */
export interface EngineHealth {
  status: 'ok' | 'degraded' | 'down';
}

/**
 * A refusal or failure the shopper may see. `message` is safe to show; `detail`
 * (provider request ids, raw errors) is for logs only.
 */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly detail: string | undefined;
  constructor(code: EngineErrorCode, message?: string, detail?: string) {
    super(message ?? ERROR_MESSAGES[code]);
    this.name = 'EngineError';
    this.code = code;
    this.detail = detail;
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof Error && (e as EngineError).name === 'EngineError' && typeof (e as EngineError).code === 'string';
}

// ---------------------------------------------------------------- shared by the engine's own modules
// (not part of the package's public API: index.ts exports the names above only)

export interface Point {
  x: number;
  y: number;
}

/** A binary mask (0 / 1 per cell) on a (usually reduced) grid. */
export interface BinaryMask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A sleeve's landmarks (see UpperLandmarks). */
interface Sleeve {
  outer: Point;
  inner: Point;
  length: number;
  profile?: { outer: Point; inner: Point; at: number }[];
}

/** Landmarks of a top or a dress, in garment image pixels. */
export interface UpperLandmarks {
  kind: 'upper';
  neckLeft: Point;
  neckRight: Point;
  shoulderLeft: Point;
  shoulderRight: Point;
  armpitLeft: Point;
  armpitRight: Point;
  /**
   * Sleeve ends (outer and inner cuff corners), and the sleeve's outline on both sides at
   * cross-sections along its axis (`at`: distance from the armhole's middle); absent for
   * sleeveless garments.
   */
  sleeveLeft: Sleeve | null;
  sleeveRight: Sleeve | null;
  hemLeft: Point;
  hemRight: Point;
  /** Waist (narrowest torso row between armpits and hem) — used for dresses. */
  waistLeft: Point;
  waistRight: Point;
  /**
   * Sleeves that hang down beside the garment body and touch it in the cut-out (a blouse laid
   * flat with its arms down): below the armpits the body is the torso column, not the whole run.
   */
  hangingSleeves?: boolean;
  /** The shoulder points are the tops of thin straps (a cami, a strap top). */
  straps?: boolean;
}

/** Landmarks of trousers or a skirt, in garment image pixels. */
export interface LowerLandmarks {
  kind: 'lower';
  waistLeft: Point;
  waistRight: Point;
  /** Top of the gap between the legs; null for skirts. */
  crotch: Point | null;
  /** Outer edges at the crotch's height. */
  hipLeft: Point | null;
  hipRight: Point | null;
  legLeft: { outer: Point; inner: Point } | null;
  legRight: { outer: Point; inner: Point } | null;
  hemLeft: Point;
  hemRight: Point;
}

export type GarmentLandmarks = UpperLandmarks | LowerLandmarks;
