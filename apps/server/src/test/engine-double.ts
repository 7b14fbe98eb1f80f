/**
 * A deterministic engine double for server tests and benchmarks: no model, no network.
 * Its "result" is the person image shrunk to 64×64 with a tint per category, so a test can
 * tell that the pipeline stored what the engine returned.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  EngineError,
  type PersonAnalysisOutput,
  type TryOnEngine,
  type TryOnInput,
  type TryOnOutput,
} from '@aidressup/engine';

export interface EngineDoubleOptions {
  id?: string;
  /** Wait this long before answering (honours the abort signal). */
  delayMs?: number;
  /** Hold every call until `release()`: the test says when the engine answers (honours the abort signal). */
  held?: boolean;
  /** Make every call fail with this error. */
  failWith?: Error;
  /** Return the result without decoding the inputs (for timing the server alone). */
  instant?: boolean;
  /** `analysePerson` refuses every photo with this (a photo with no person in it). */
  refusePerson?: EngineError;
}

/**
 * The double's "analysis" of a person photo (kept photos): names the photo's bytes, so a test can
 * tell that a try-on was given the analysis of its own photo.
 */
export function doubleAnalysisOf(person: Uint8Array): Uint8Array {
  return new TextEncoder().encode(`analysis of ${createHash('sha256').update(person).digest('hex')}`);
}

export interface EngineDouble extends TryOnEngine {
  calls: TryOnInput[];
  /** The person photos `analysePerson` was asked about. */
  analyses: Uint8Array[];
  refusePerson: EngineError | undefined;
  failWith: Error | undefined;
  /** Lets the held calls, and every later one, answer (with `held`). */
  release(): void;
}

const TINT: Record<string, { r: number; g: number; b: number }> = {
  upper_body: { r: 255, g: 0, b: 0 },
  lower_body: { r: 0, g: 255, b: 0 },
  dresses: { r: 0, g: 0, b: 255 },
};

let instantResult: Buffer | undefined;

/** Resolves when `until` does, or rejects as a timeout when `signal` aborts first. */
function wait(
  until: Promise<void>,
  signal: AbortSignal | undefined,
  onAbort: () => void = () => undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    until.then(resolve, reject);
    signal?.addEventListener('abort', () => {
      onAbort();
      reject(new EngineError('ENGINE_TIMEOUT'));
    });
  });
}

export function createEngineDouble(options: EngineDoubleOptions = {}): EngineDouble {
  let release: () => void = () => undefined;
  const released = options.held ? new Promise<void>((r) => (release = r)) : Promise.resolve();
  const double: EngineDouble = {
    id: options.id ?? 'test-double',
    label: 'Deterministic test double',
    calls: [],
    analyses: [],
    refusePerson: options.refusePerson,
    failWith: options.failWith,
    async analysePerson(person: Uint8Array): Promise<PersonAnalysisOutput> {
      double.analyses.push(person);
      if (double.refusePerson) throw double.refusePerson;
      const meta = await sharp(person).metadata();
      return { analysis: doubleAnalysisOf(person), width: meta.width ?? 0, height: meta.height ?? 0 };
    },
    release: () => release(),
    async tryOn(input: TryOnInput): Promise<TryOnOutput> {
      double.calls.push(input);
      if (options.held) await wait(released, input.signal);
      if (options.delayMs) {
        let timer: NodeJS.Timeout | undefined;
        const elapsed = new Promise<void>((r) => (timer = setTimeout(r, options.delayMs)));
        await wait(elapsed, input.signal, () => clearTimeout(timer));
      }
      if (double.failWith) throw double.failWith;
      if (options.instant) {
        instantResult ??= await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
          .png()
          .toBuffer();
        return { image: instantResult, mimeType: 'image/png' };
      }
      const image = await sharp(input.person)
        .resize(64, 64, { fit: 'fill' })
        .tint(TINT[input.category] ?? TINT.upper_body!)
        .png()
        .toBuffer();
      // A kept photo whose analysis is missing: made again, and handed back to be kept.
      const rebuilt = input.keptPerson && !input.keptPerson.analysis ? doubleAnalysisOf(input.person) : undefined;
      return { image, mimeType: 'image/png', ...(rebuilt ? { keptPersonAnalysis: rebuilt } : {}) };
    },
  };
  return double;
}
