import type { Category, EngineErrorCode } from '@aidressup/contract';
// The error tables only: the worker threads need not load the API schemas (zod).
import { ERROR_MESSAGES } from '@aidressup/contract/errors';

/** What every try-on engine receives (DESIGN §4). Images are encoded JPEG/PNG/WEBP bytes. */
export interface TryOnInput {
  person: Uint8Array;
  garment: Uint8Array;
  category: Category;
  signal?: AbortSignal;
}

export interface TryOnOutput {
  image: Uint8Array;
  mimeType: 'image/jpeg' | 'image/png' | 'image/webp';
}

/** One interface for the built-in engine and every hosted one. */
export interface TryOnEngine {
  readonly id: string;
  readonly label: string;
  tryOn(input: TryOnInput): Promise<TryOnOutput>;
  /** Load models / check configuration ahead of the first request. */
  warm?(): Promise<void>;
  close?(): Promise<void>;
  /** The engine's own view of its state, from real calls only (never spends money). */
  health?(): EngineHealth;
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
