/**
 * The one check of an API error answer, for the server tests (app.inject, fetch) and the browser
 * tests (Playwright's request API, as `@aidressup/server/testing/api-error`): the status, and the
 * body `{ success: false, code, error }`. Given a message, the whole body must be exactly that
 * (plus `extra` fields); without one, the message need only be a string.
 *
 * It asserts with node:assert, so it works under Vitest and Playwright alike.
 */
import assert from 'node:assert/strict';
import type { ErrorCode } from '@aidressup/contract';

/** An answer from app.inject: status and body at hand. */
interface InjectAnswer {
  statusCode: number;
  json(): unknown;
}

/** An answer from fetch (`status`) or Playwright (`status()`): the body is read asynchronously. */
type AsyncAnswer = { status: number; json(): Promise<unknown> } | { status(): number; json(): Promise<unknown> };

export interface ApiErrorDetails {
  /** The exact message; omitted, any string. */
  message?: string;
  /** Fields the error body carries besides success, code and error (with `message` only). */
  extra?: Record<string, unknown>;
  /** Names the case in a failure (a loop's current input). */
  label?: string;
}

export function expectApiError(
  res: InjectAnswer,
  status: number,
  code: ErrorCode,
  details?: string | ApiErrorDetails,
): void;
export function expectApiError(
  res: AsyncAnswer,
  status: number,
  code: ErrorCode,
  details?: string | ApiErrorDetails,
): Promise<void>;
export function expectApiError(
  res: InjectAnswer | AsyncAnswer,
  status: number,
  code: ErrorCode,
  details: string | ApiErrorDetails = {},
): void | Promise<void> {
  const want = typeof details === 'string' ? { message: details } : details;
  if ('statusCode' in res) return check(res.statusCode, res.json(), status, code, want);
  const got = typeof res.status === 'function' ? res.status() : res.status;
  return res.json().then((body) => check(got, body, status, code, want));
}

function check(gotStatus: number, body: unknown, status: number, code: ErrorCode, want: ApiErrorDetails): void {
  const label = want.label ? `${want.label}: ` : '';
  if (want.message !== undefined) {
    assert.deepStrictEqual(
      { status: gotStatus, body },
      { status, body: { success: false, code, error: want.message, ...want.extra } },
      `${label}expected ${status} ${code} "${want.message}", got ${gotStatus} ${JSON.stringify(body)}`,
    );
    return;
  }
  if (want.extra) throw new Error('expectApiError: `extra` needs the exact `message`');
  const b = (body ?? {}) as Record<string, unknown>;
  assert.deepStrictEqual(
    { status: gotStatus, success: b.success, code: b.code, error: typeof b.error },
    { status, success: false, code, error: 'string' },
    `${label}expected ${status} ${code}, got ${gotStatus} ${JSON.stringify(body)}`,
  );
}
