/**
 * Merchants and the "Try it on" widget of shops (docs/embed.md): the operator's merchant calls,
 * the merchant's usage call (secret key), and the embed frame's session and try-on.
 */
import { z } from 'zod';
import { LineTicketSchema } from './api.js';
import { CATEGORY_VALUES } from './categories.js';
import { PRODUCT_PHOTO_REFUSAL_CODES } from './errors.js';

/** A publishable key: public by design, in the shop's page. */
export const PUBLISHABLE_KEY_PATTERN = /^pk_[A-Za-z0-9_-]{20,64}$/;
/** A secret key: shown once, stored hashed; reads the merchant's usage. */
export const SECRET_KEY_PATTERN = /^sk_[A-Za-z0-9_-]{20,64}$/;
/** An embed session's token (Authorization: Bearer), scoped to the embed try-on only. */
export const EMBED_TOKEN_PATTERN = /^es_[A-Za-z0-9_-]{20,64}$/;

/** How long an embed session's token works, and how long its results are kept after the try-on. */
export const EMBED_SESSION_MINUTES = 30;
export const EMBED_RESULT_MINUTES = 30;
/** Default daily caps (UTC days) of a merchant's try-ons, and of one shopper's on one shop. */
export const MERCHANT_DAILY_LIMIT_DEFAULT = 500;
export const SHOPPER_DAILY_LIMIT_DEFAULT = 10;
/** At most this many allowed origins per merchant. */
export const MAX_ALLOWED_ORIGINS = 20;
/** Days of usage the usage calls answer (default and most). */
export const USAGE_DAYS_DEFAULT = 30;
export const USAGE_DAYS_MAX = 365;
/** Refused product photos listed by the usage calls (the most refused first). */
export const PRODUCT_PHOTO_REFUSALS_LISTED = 100;
/** The longest garment image address the widget passes on (a longer one is not recorded). */
export const GARMENT_URL_MAX_LENGTH = 1000;

/** A hostname: dot-separated labels of letters, digits and hyphens (no `*`, `_`, brackets or empty label). */
const HOSTNAME = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*';
/**
 * An allowed origin as written: `https://` and a hostname, or `http://localhost`; an optional port;
 * at most a trailing `/`. Nothing else: no `*`, path, query, userinfo, `;` or `,`, since the list
 * goes verbatim into the frame page's `frame-ancestors`.
 */
const ALLOWED_ORIGIN = new RegExp(`^(?:https://${HOSTNAME}|http://localhost)(?::(\\d{1,5}))?/?$`, 'i');

/**
 * Whether `text` is an allowed origin (`AllowedOriginSchema`'s rule): `https://host[:port]` with a
 * hostname of letters, digits, dots and hyphens, or `http://localhost[:port]`.
 */
export function isAllowedOrigin(text: string): boolean {
  const match = ALLOWED_ORIGIN.exec(text);
  if (!match) return false;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  return URL.canParse(text);
}

/** An allowed origin (`isAllowedOrigin`), kept as the browser sends it in Origin: lower case, no default port, no `/`. */
export const AllowedOriginSchema = z
  .string()
  .trim()
  .max(200)
  .refine(isAllowedOrigin, {
    message: 'an origin is https://host[:port] (http:// for localhost only): letters, digits, dots and hyphens',
  })
  .transform((s) => new URL(s).origin);

const Name = z.string().trim().min(1).max(100);
const Limit = z.number().int().min(0).max(1_000_000);

// ---------- POST /api/admin/merchants ----------
export const AdminMerchantCreateRequestSchema = z.object({
  name: Name,
  allowedOrigins: z.array(AllowedOriginSchema).min(1).max(MAX_ALLOWED_ORIGINS),
  billing: z.literal('merchant').default('merchant'),
  /** Credits to start with (an `admin` grant on the merchant's ledger account). */
  credits: z.number().int().min(0).max(1_000_000).default(0),
  dailyLimit: Limit.optional(),
  shopperDailyLimit: Limit.optional(),
});
export type AdminMerchantCreateRequest = z.input<typeof AdminMerchantCreateRequestSchema>;

// ---------- PATCH /api/admin/merchants/:id ----------
export const AdminMerchantUpdateRequestSchema = z
  .object({
    name: Name.optional(),
    allowedOrigins: z.array(AllowedOriginSchema).min(1).max(MAX_ALLOWED_ORIGINS).optional(),
    dailyLimit: Limit.optional(),
    shopperDailyLimit: Limit.optional(),
    reason: z.string().trim().min(1).max(500),
  })
  .refine(
    (b) =>
      b.name !== undefined ||
      b.allowedOrigins !== undefined ||
      b.dailyLimit !== undefined ||
      b.shopperDailyLimit !== undefined,
    { message: 'nothing to change' },
  );
export type AdminMerchantUpdateRequest = z.infer<typeof AdminMerchantUpdateRequestSchema>;

export const MerchantSchema = z.object({
  id: z.string(),
  name: z.string(),
  publishableKey: z.string(),
  allowedOrigins: z.array(z.string()),
  billing: z.literal('merchant'),
  credits: z.number().int(),
  dailyLimit: z.number().int(),
  shopperDailyLimit: z.number().int(),
  /** Since when try-ons were refused for want of credits (null: not out of credits). */
  outOfCreditsSince: z.string().nullable(),
  /** Try-ons refused for want of credits (all time). */
  refusedNoCredits: z.number().int(),
  createdAt: z.string(),
  keysRotatedAt: z.string().nullable(),
});
export type Merchant = z.infer<typeof MerchantSchema>;

/** A merchant with its secret key: only in the answer that made the key (creation, rotation). */
export const MerchantWithSecretSchema = MerchantSchema.extend({ secretKey: z.string() });
export const AdminMerchantCreatedResponseSchema = z.object({
  success: z.literal(true),
  merchant: MerchantWithSecretSchema,
  /** The secret key (also in `merchant`): shown this once, stored hashed. */
  secretKey: z.string(),
});
export type AdminMerchantCreatedResponse = z.infer<typeof AdminMerchantCreatedResponseSchema>;

export const AdminMerchantListResponseSchema = z.object({ success: z.literal(true), items: z.array(MerchantSchema) });
export type AdminMerchantListResponse = z.infer<typeof AdminMerchantListResponseSchema>;

export const MerchantUsageDaySchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  /** Try-ons started (charged one credit each). */
  tryOns: z.number().int(),
  succeeded: z.number().int(),
  /** Failed or refused by the engine: refunded. */
  refunded: z.number().int(),
  /** Shoppers (distinct embed sessions) that day. */
  sessions: z.number().int(),
});
export type MerchantUsageDay = z.infer<typeof MerchantUsageDaySchema>;

/**
 * A shop's garment image the widget refused, so that product cannot be previewed there: an engine's
 * refusal of the garment photo itself (being worn, not separable from its background) or an upload
 * check of it (not a JPEG, PNG or WEBP, unreadable, too small or too large). Counted over the days
 * asked for, one entry per image and reason.
 */
export const ProductPhotoRefusalSchema = z.object({
  /** SHA-256 of the image's bytes, hex (`sha256sum` of the file gives the same). */
  garmentSha256: z.string(),
  /** The image's address as the shop's page gave it to the widget (null: not given). */
  garmentUrl: z.string().nullable(),
  /** Why: GARMENT_WORN, GARMENT_NOT_SEPARABLE, or the upload check's code. */
  code: z.enum(PRODUCT_PHOTO_REFUSAL_CODES),
  refusals: z.number().int(),
  lastRefusedAt: z.string(),
});
export type ProductPhotoRefusal = z.infer<typeof ProductPhotoRefusalSchema>;

export const MerchantSessionSummarySchema = z.object({
  id: z.string(),
  origin: z.string(),
  createdAt: z.string(),
  tryOns: z.number().int(),
  results: z.number().int(),
});
export type MerchantSessionSummary = z.infer<typeof MerchantSessionSummarySchema>;

export const AdminMerchantDetailResponseSchema = z.object({
  success: z.literal(true),
  merchant: MerchantSchema,
  usage: z.array(MerchantUsageDaySchema),
  /** The shop's garment images refused in those days (at most PRODUCT_PHOTO_REFUSALS_LISTED). */
  refusedProductPhotos: z.array(ProductPhotoRefusalSchema),
  /** The latest shopper sessions (at most 50) with their try-ons and results. */
  sessions: z.array(MerchantSessionSummarySchema),
});
export type AdminMerchantDetailResponse = z.infer<typeof AdminMerchantDetailResponseSchema>;

export const AdminMerchantResponseSchema = z.object({ success: z.literal(true), merchant: MerchantSchema });
export type AdminMerchantResponse = z.infer<typeof AdminMerchantResponseSchema>;

// ---------- POST /api/admin/merchants/:id/keys ----------
export const AdminMerchantRotateRequestSchema = z.object({
  /** Which key to replace: the secret one (default), the publishable one (the shop's snippet changes), or both. */
  key: z.enum(['secret', 'publishable', 'both']).default('secret'),
  reason: z.string().trim().min(1).max(500).optional(),
});
export type AdminMerchantRotateRequest = z.input<typeof AdminMerchantRotateRequestSchema>;

// ---------- GET /api/merchant/usage (Authorization: Bearer sk_…) ----------
export const MerchantUsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(USAGE_DAYS_MAX).default(USAGE_DAYS_DEFAULT),
});
export const MerchantUsageResponseSchema = z.object({
  success: z.literal(true),
  merchant: z.object({ id: z.string(), name: z.string(), credits: z.number().int() }),
  usage: z.array(MerchantUsageDaySchema),
  /** The shop's garment images the widget refused in those days, the most refused first (at most 100). */
  refusedProductPhotos: z.array(ProductPhotoRefusalSchema),
});
export type MerchantUsageResponse = z.infer<typeof MerchantUsageResponseSchema>;

// ---------- POST /api/embed/session ----------
export const EmbedSessionRequestSchema = z.object({
  key: z.string().max(100),
  /** The shop page's origin as the frame learnt it from the page's message (checked against the list). */
  origin: z.string().max(200).optional(),
});
export type EmbedSessionRequest = z.infer<typeof EmbedSessionRequestSchema>;
export const EmbedSessionResponseSchema = z.object({
  success: z.literal(true),
  /** Authorization: Bearer <token>, for the embed try-on only. */
  token: z.string(),
  expiresAt: z.string(),
  merchant: z.object({ name: z.string() }),
  /** The widget's engine's own estimate of a try-on, in seconds: the frame waits as long as it may take. */
  estimateSeconds: z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() }),
});
export type EmbedSessionResponse = z.infer<typeof EmbedSessionResponseSchema>;

// ---------- POST /api/embed/tryon (multipart, Authorization: Bearer es_…) ----------
export const EmbedTryOnFieldsSchema = z.object({
  category: z.enum(CATEGORY_VALUES).default('upper_body'),
  /**
   * Optional: the `ticket` of an earlier ENGINE_BUSY answer. Sent with the retry, it keeps the
   * shopper's place in line; an unknown or expired one joins at the end.
   */
  lineTicket: LineTicketSchema.optional(),
});
/**
 * The garment image's address in the shop's page (form field `garmentUrl`, optional): only recorded
 * with a refusal of that image, for the merchant. Never fetched. An http(s) URL; anything else is
 * ignored.
 */
export const GarmentUrlSchema = z
  .string()
  .max(GARMENT_URL_MAX_LENGTH)
  .refine((s) => URL.canParse(s) && ['http:', 'https:'].includes(new URL(s).protocol));
export const EmbedTryOnResponseSchema = z.object({
  success: z.literal(true),
  /** The result (same origin as the frame), kept EMBED_RESULT_MINUTES. */
  imageUrl: z.string(),
  tryonId: z.string(),
  expiresAt: z.string(),
});
export type EmbedTryOnResponse = z.infer<typeof EmbedTryOnResponseSchema>;

/** Messages between the shop's page (embed.js) and the frame. */
export const EMBED_MESSAGES = {
  /** frame → page: ready for the garment. */
  ready: 'aidressup:ready',
  /** page → frame: the garment's bytes, its MIME type, category and address (`url`). */
  garment: 'aidressup:garment',
  /** page → frame: the garment could not be read in the page. */
  garmentError: 'aidressup:garment-error',
  /** frame → page: a result is shown (no image, no personal data). */
  result: 'aidressup:result',
  /** frame → page: the shopper asked to close. */
  close: 'aidressup:close',
} as const;
