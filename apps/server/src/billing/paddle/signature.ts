/**
 * Paddle Billing webhook signatures.
 *
 * Paddle sends `Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256>`, where the HMAC is
 * computed with the notification destination's secret over `ts + ':' + rawBody`. During a
 * secret rotation the header can carry several `h1` values; any one matching is enough.
 * Unknown keys (a future `h2`, say) are ignored. The timestamp must be within a tolerance of
 * the current time (5 minutes by default) so a captured request cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'paddle-signature';
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export interface ParsedSignature {
  /** Unix time in seconds, exactly as sent (it is part of the signed payload). */
  ts: string;
  /** Every `h1` value, lower-cased hex. */
  h1: string[];
}

type SignatureFailure = 'missing_header' | 'malformed_header' | 'stale_timestamp' | 'signature_mismatch';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

export interface VerifyOptions {
  /** Seconds the timestamp may be away from now, either way. */
  toleranceSeconds?: number;
  /** Current time in milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const TIMESTAMP = /^\d{1,12}$/;
/** Headers longer than this are garbage; refuse before doing any work. */
const MAX_HEADER_LENGTH = 2048;

/**
 * Parse a `Paddle-Signature` header. Returns undefined when the header is not of the form
 * `ts=…;h1=…[;h1=…]` (exactly one numeric `ts`, at least one `h1` of 64 hex characters).
 */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  if (header.length === 0 || header.length > MAX_HEADER_LENGTH) return undefined;
  let ts: string | undefined;
  const h1: string[] = [];
  for (const rawPart of header.split(';')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') {
      if (ts !== undefined || !TIMESTAMP.test(value)) return undefined;
      ts = value;
    } else if (key === 'h1') {
      const hex = value.toLowerCase();
      if (!HEX_SHA256.test(hex)) return undefined;
      h1.push(hex);
    }
    // other keys (future schemes) are ignored
  }
  if (ts === undefined || h1.length === 0) return undefined;
  return { ts, h1 };
}

/** The hex HMAC-SHA256 Paddle computes for a body sent at `ts`. */
export function computeSignature(secret: string, ts: string, rawBody: Buffer | string): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${ts}:`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** Build a header value as Paddle would send it (used by tests and local tooling). */
export function signatureHeader(secret: string, rawBody: Buffer | string, tsSeconds: number): string {
  const ts = String(Math.floor(tsSeconds));
  return `ts=${ts};h1=${computeSignature(secret, ts, rawBody)}`;
}

/**
 * Verify a webhook request. `header` is the raw `Paddle-Signature` value (or undefined when
 * absent, or an array when the header was sent several times, which is refused).
 */
export function verifySignature(
  header: string | string[] | undefined,
  rawBody: Buffer,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (header === undefined || header === '') return { ok: false, reason: 'missing_header' };
  if (typeof header !== 'string') return { ok: false, reason: 'malformed_header' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const timestamp = Number(parsed.ts);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'stale_timestamp' };

  const expected = Buffer.from(computeSignature(secret, parsed.ts, rawBody), 'hex');
  let matched = false;
  for (const candidate of parsed.h1) {
    const given = Buffer.from(candidate, 'hex');
    // Both are 32 bytes (the parser only admits 64 hex characters); check anyway, because
    // timingSafeEqual throws on buffers of different lengths.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'signature_mismatch' };
}
