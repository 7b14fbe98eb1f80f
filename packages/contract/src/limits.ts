/** Upload rules and other limits both the browser and the server apply. */
export const ALLOWED_IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'] as const;
export const ALLOWED_IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;
/** 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Decoded images above this many pixels are refused. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/**
 * The smallest photos a try-on accepts, on their shorter side (EXIF orientation does not change it),
 * checked in the page and on the server before anything is charged. A person: the engines find the
 * body with pose models that look at 256 × 256 pixels (the built-in one's person and pose models
 * both), and a person photo shorter than that leaves the body too few pixels to place a garment on.
 * A garment: it is cut out and drawn over the body at the person photo's working size (the built-in
 * engine's torso is about 150-300 pixels wide at its 640-pixel working size; hosted engines work at
 * 768 × 1024), so 160 pixels keeps it at most about twice enlarged.
 */
export const MIN_PERSON_PHOTO_SIDE = 256;
export const MIN_GARMENT_PHOTO_SIDE = 160;
/** Longest side images are normalised to before the engine sees them. */
export const MAX_NORMALISED_SIDE = 2048;
/** Client timeout for a try-on. */
export const CLIENT_TIMEOUT_MS = 120_000;
/** Server-side deadline for an engine call: below the client's timeout. */
export const ENGINE_DEADLINE_MS = 100_000;
export const CREDITS_PER_TRYON = 1;
/** A whole outfit (a top and a bottom dressed in one try-on) uses two try-ons: free trials first, then credits. */
export const TRYONS_PER_OUTFIT = 2;
/**
 * Results of try-ons that used a free trial are reduced to at most this many pixels on their
 * longest side; try-ons paid with credits keep the engine's full resolution (HD downloads).
 */
export const FREE_RESULT_MAX_SIDE = 1024;
/** Device type breakpoints. */
export const MOBILE_MAX_WIDTH = 768;
export const TABLET_MAX_WIDTH = 1024;
/** Retention (as the legal pages say). */
export const RESULT_RETENTION_DAYS = 30;
export const UPLOAD_RETENTION_MINUTES = 30;
/**
 * How long a quick preview's photos are kept (privately, for its owner's "Make it photo-real"),
 * when a hosted engine is configured; within the legal pages' "about 30 minutes".
 */
export const PREVIEW_PHOTOS_KEPT_MINUTES = UPLOAD_RETENTION_MINUTES;
export const TRANSACTION_RETENTION_YEARS = 7;
export const REFUND_WINDOW_DAYS = 14;
/** Device ids: 8–128 characters of [A-Za-z0-9_-]. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export function isAllowedImageType(type: string): boolean {
  return (ALLOWED_IMAGE_TYPES as readonly string[]).includes(type.toLowerCase());
}
