/**
 * A deterministic engine double for server tests and benchmarks: no model, no network.
 * Its "result" is the person image shrunk to 64×64 with a tint per category, so a test can
 * tell that the pipeline stored what the engine returned.
 */
import sharp from 'sharp';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';

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
}

export interface EngineDouble extends TryOnEngine {
  calls: TryOnInput[];
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
    failWith: options.failWith,
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
      return { image, mimeType: 'image/png' };
    },
  };
  return double;
}
