/** Typed API errors: a contract error code, a message safe to show, and optional extra fields. */
import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '@aidressup/contract';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly extra: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message?: string, extra?: Record<string, unknown>) {
    super(message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.extra = extra;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function defaultMessage(code: ErrorCode): string {
  return ERROR_MESSAGES[code];
}
