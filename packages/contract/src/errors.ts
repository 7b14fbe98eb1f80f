import { MESSAGES } from './messages.js';

/** Error codes the API answers with, and the HTTP status for each (one table). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  MISSING_FILE: 400,
  UNSUPPORTED_FORMAT: 415,
  FILE_TOO_LARGE: 413,
  PAYLOAD_TOO_LARGE: 413,
  MALFORMED_UPLOAD: 400,
  IMAGE_UNREADABLE: 422,
  IMAGE_TOO_MANY_PIXELS: 422,
  IMAGE_TOO_SMALL: 422,
  INVALID_CATEGORY: 400,
  INVALID_DEVICE_ID: 400,
  INVALID_PLAN: 400,
  ENGINE_UNAVAILABLE: 400,
  UNAUTHORIZED: 401,
  NO_CREDITS: 402,
  FORBIDDEN: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  BILLING_DISABLED: 409,
  RATE_LIMITED: 429,
  TOO_MANY_REQUESTS: 429,
  PERSON_NOT_FOUND: 422,
  MULTIPLE_PEOPLE: 422,
  PERSON_TOO_SMALL: 422,
  GARMENT_NOT_SEPARABLE: 422,
  GARMENT_NOT_PLACED: 422,
  GARMENT_WORN: 422,
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
  ENGINE_BUSY: 503,
  REAUTH_REQUIRED: 401,
  ACCOUNT_BLOCKED: 403,
  ALREADY_REPORTED: 409,
  NOT_REPORTABLE: 409,
  REPORT_DECIDED: 409,
  EMBED_KEY_INVALID: 404,
  ORIGIN_NOT_ALLOWED: 403,
  EMBED_SESSION_INVALID: 401,
  MERCHANT_NO_CREDITS: 402,
  EMBED_LIMIT_REACHED: 429,
  CATEGORY_NOT_OFFERED: 400,
  PHOTOS_GONE: 410,
  NOT_RERUNNABLE: 409,
  PHOTO_LIMIT: 409,
  CONFIRM_OTHER_BROWSER: 409,
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
  'GARMENT_WORN',
  'CONTENT_BLOCKED',
  'ENGINE_FAILED',
  'ENGINE_TIMEOUT',
] as const satisfies readonly ErrorCode[];
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/**
 * An engine's refusals of the garment photo itself, whatever the person photo: the garment is being
 * worn, or it cannot be cut out of its background. In the shop widget the garment is the shop's own
 * product photo, so such a refusal says the product cannot be previewed there and is counted for
 * the merchant by garment image (docs/embed.md). GARMENT_NOT_PLACED is not one: it depends on the
 * person photo too, and another one may work.
 */
export const GARMENT_REFUSAL_CODES = [
  'GARMENT_WORN',
  'GARMENT_NOT_SEPARABLE',
] as const satisfies readonly EngineErrorCode[];
export type GarmentRefusalCode = (typeof GARMENT_REFUSAL_CODES)[number];

/**
 * The upload checks' refusals (before any engine runs): in the shop widget, those of the garment
 * image (form field `clothingImage`) are refusals of the shop's product photo too, and counted so.
 */
export const UPLOAD_REFUSAL_CODES = [
  'UNSUPPORTED_FORMAT',
  'IMAGE_UNREADABLE',
  'IMAGE_TOO_MANY_PIXELS',
  'IMAGE_TOO_SMALL',
] as const satisfies readonly ErrorCode[];

/** What the merchant's count of refused product photos records as the reason. */
export const PRODUCT_PHOTO_REFUSAL_CODES = [...GARMENT_REFUSAL_CODES, ...UPLOAD_REFUSAL_CODES] as const;
export type ProductPhotoRefusalCode = (typeof PRODUCT_PHOTO_REFUSAL_CODES)[number];

/** The message each code is answered with when no more specific one is given. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: MESSAGES.invalidRequest,
  MISSING_FILE: MESSAGES.uploadBothPhotos,
  UNSUPPORTED_FORMAT: MESSAGES.unsupportedFormat,
  FILE_TOO_LARGE: MESSAGES.fileTooLarge,
  PAYLOAD_TOO_LARGE: MESSAGES.requestTooLarge,
  MALFORMED_UPLOAD: MESSAGES.malformedUpload,
  IMAGE_UNREADABLE: MESSAGES.imageUnreadable,
  IMAGE_TOO_MANY_PIXELS: MESSAGES.imageTooManyPixels,
  IMAGE_TOO_SMALL: MESSAGES.photoTooSmall,
  INVALID_CATEGORY: MESSAGES.invalidCategory,
  INVALID_DEVICE_ID: MESSAGES.invalidDeviceId,
  INVALID_PLAN: MESSAGES.invalidPlan,
  ENGINE_UNAVAILABLE: MESSAGES.engineUnavailable,
  UNAUTHORIZED: MESSAGES.notSignedIn,
  NO_CREDITS: MESSAGES.noCredits,
  FORBIDDEN: MESSAGES.forbidden,
  CROSS_SITE_REQUEST: MESSAGES.crossSiteRequest,
  NOT_FOUND: MESSAGES.notFound,
  BILLING_DISABLED: MESSAGES.demoBillingDisabled,
  RATE_LIMITED: MESSAGES.rateLimited,
  TOO_MANY_REQUESTS: MESSAGES.tooManyTryOns,
  PERSON_NOT_FOUND: MESSAGES.personNotFound,
  MULTIPLE_PEOPLE: MESSAGES.multiplePeople,
  PERSON_TOO_SMALL: MESSAGES.personTooSmall,
  GARMENT_NOT_SEPARABLE: MESSAGES.garmentNotSeparable,
  GARMENT_NOT_PLACED: MESSAGES.garmentNotPlaced,
  GARMENT_WORN: MESSAGES.garmentWorn,
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
  ENGINE_BUSY: MESSAGES.engineBusy,
  REAUTH_REQUIRED: MESSAGES.reauthRequired,
  ACCOUNT_BLOCKED: MESSAGES.accountBlocked,
  ALREADY_REPORTED: MESSAGES.alreadyReported,
  NOT_REPORTABLE: MESSAGES.notReportable,
  REPORT_DECIDED: MESSAGES.reportDecided,
  EMBED_KEY_INVALID: MESSAGES.embedKeyInvalid,
  ORIGIN_NOT_ALLOWED: MESSAGES.originNotAllowed,
  EMBED_SESSION_INVALID: MESSAGES.embedSessionInvalid,
  MERCHANT_NO_CREDITS: MESSAGES.merchantNoCredits,
  EMBED_LIMIT_REACHED: MESSAGES.embedLimitReached,
  CATEGORY_NOT_OFFERED: MESSAGES.categoryNotOffered,
  PHOTOS_GONE: MESSAGES.photosGone,
  NOT_RERUNNABLE: MESSAGES.notRerunnable,
  PHOTO_LIMIT: MESSAGES.photoLimit,
  CONFIRM_OTHER_BROWSER: MESSAGES.confirmOtherBrowser,
};
