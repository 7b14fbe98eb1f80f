import { MESSAGES } from './messages.js';

/** Error codes the API answers with, and the HTTP status for each (one table). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MISSING_FILE: 400,
  UNSUPPORTED_FORMAT: 415,
  FILE_TOO_LARGE: 413,
  IMAGE_UNREADABLE: 422,
  IMAGE_TOO_MANY_PIXELS: 422,
  INVALID_CATEGORY: 400,
  INVALID_DEVICE_ID: 400,
  INVALID_PLAN: 400,
  ENGINE_UNAVAILABLE: 400,
  UNAUTHORIZED: 401,
  NO_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BILLING_DISABLED: 409,
  RATE_LIMITED: 429,
  PERSON_NOT_FOUND: 422,
  MULTIPLE_PEOPLE: 422,
  PERSON_TOO_SMALL: 422,
  GARMENT_NOT_SEPARABLE: 422,
  GARMENT_NOT_PLACED: 422,
  CONTENT_BLOCKED: 422,
  ENGINE_FAILED: 502,
  ENGINE_TIMEOUT: 504,
  INVALID_SIGNATURE: 400,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  INVALID_EMAIL: 400,
  INVALID_CODE: 400,
  CODE_EXPIRED: 410,
  CODE_LOCKED: 429,
  PORTAL_UNAVAILABLE: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Codes an engine may refuse a try-on with; the shopper is never charged for them. */
export const ENGINE_ERROR_CODES = [
  'PERSON_NOT_FOUND',
  'MULTIPLE_PEOPLE',
  'PERSON_TOO_SMALL',
  'GARMENT_NOT_SEPARABLE',
  'GARMENT_NOT_PLACED',
  'CONTENT_BLOCKED',
  'ENGINE_FAILED',
  'ENGINE_TIMEOUT',
] as const satisfies readonly ErrorCode[];
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/** The message each code is answered with when no more specific one is given. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
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
  GARMENT_NOT_PLACED: MESSAGES.garmentNotPlaced,
  CONTENT_BLOCKED: MESSAGES.contentBlocked,
  ENGINE_FAILED: MESSAGES.engineFailed,
  ENGINE_TIMEOUT: MESSAGES.engineTimeout,
  INVALID_SIGNATURE: MESSAGES.invalidSignature,
  INTERNAL_ERROR: MESSAGES.internalError,
  SERVICE_UNAVAILABLE: MESSAGES.serviceUnavailable,
  INVALID_EMAIL: MESSAGES.invalidEmail,
  INVALID_CODE: MESSAGES.invalidCode,
  CODE_EXPIRED: MESSAGES.codeExpired,
  CODE_LOCKED: MESSAGES.codeLocked,
  PORTAL_UNAVAILABLE: MESSAGES.portalUnavailable,
};
