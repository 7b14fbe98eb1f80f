/** Typed API errors: a contract error code, a message safe to show, and optional extra fields. */
import { ERROR_STATUS, MESSAGES, type ErrorCode } from '@aidressup/contract';

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: MESSAGES.invalidRequest,
  MISSING_FILE: MESSAGES.uploadBothPhotos,
  UNSUPPORTED_FORMAT: MESSAGES.unsupportedFormat,
  FILE_TOO_LARGE: MESSAGES.fileTooLarge,
  IMAGE_UNREADABLE: MESSAGES.imageUnreadable,
  IMAGE_TOO_MANY_PIXELS: MESSAGES.imageTooManyPixels,
  INVALID_CATEGORY: MESSAGES.invalidCategory,
  INVALID_DEVICE_ID: MESSAGES.invalidDeviceId,
  INVALID_PLAN: MESSAGES.invalidPlan,
  ENGINE_UNAVAILABLE: MESSAGES.engineUnavailable,
  UNAUTHORIZED: MESSAGES.notSignedIn,
  NO_CREDITS: MESSAGES.noCredits,
  FORBIDDEN: MESSAGES.forbidden,
  NOT_FOUND: MESSAGES.notFound,
  BILLING_DISABLED: MESSAGES.demoBillingDisabled,
  RATE_LIMITED: MESSAGES.rateLimited,
  PERSON_NOT_FOUND: MESSAGES.personNotFound,
  MULTIPLE_PEOPLE: MESSAGES.multiplePeople,
  PERSON_TOO_SMALL: MESSAGES.personTooSmall,
  GARMENT_NOT_SEPARABLE: MESSAGES.garmentNotSeparable,
  CONTENT_BLOCKED: MESSAGES.contentBlocked,
  ENGINE_FAILED: MESSAGES.engineFailed,
  ENGINE_TIMEOUT: MESSAGES.engineTimeout,
  INVALID_SIGNATURE: MESSAGES.invalidSignature,
  INTERNAL_ERROR: MESSAGES.internalError,
  SERVICE_UNAVAILABLE: MESSAGES.serviceUnavailable,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly extra: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message?: string, extra?: Record<string, unknown>) {
    super(message ?? DEFAULT_MESSAGES[code]);
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
  return DEFAULT_MESSAGES[code];
}
