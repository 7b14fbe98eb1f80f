/**
 * Request and response schemas for every call of the API.
 * The server validates and serialises with them; the web app parses responses with them.
 */
import { z } from 'zod';
import { TRYON_CATEGORY_VALUES } from './categories.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';
import { PLAN_IDS } from './plans.js';
import { DEVICE_ID_PATTERN } from './limits.js';
import { TryOnReportStateSchema } from './report.js';

// ---------- shared pieces ----------
export const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Unknown'] as const;
export const OPERATING_SYSTEMS = ['Windows', 'MacOS', 'Linux', 'Android', 'iOS', 'Unknown'] as const;
export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;
export const SEGMENTS = ['trial', 'trial_exhausted', 'customer', 'subscriber'] as const;
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const;
export const FREE_TRIALS_WITHHELD_REASONS = ['device', 'network'] as const;

export type Browser = (typeof BROWSERS)[number];
export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];
export type DeviceType = (typeof DEVICE_TYPES)[number];
export type Segment = (typeof SEGMENTS)[number];
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type FreeTrialsWithheldReason = (typeof FREE_TRIALS_WITHHELD_REASONS)[number];

/** Lenient enum: unknown values become `Unknown` (the device info's enumerations). */
const lenientEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? v : 'Unknown'),
    z.enum(values),
  );

const shortText = (max: number) => z.string().trim().max(max);

/** Device info sent at sign-in. */
export const DeviceInfoSchema = z.object({
  browser: lenientEnum(BROWSERS),
  os: lenientEnum(OPERATING_SYSTEMS),
  screen_resolution: z
    .string()
    .regex(/^\d{1,5}x\d{1,5}$/)
    .nullable()
    .optional()
    .catch(null),
  timezone: shortText(64).nullable().optional().catch(null),
  language: shortText(35).nullable().optional().catch(null),
  device_type: z.enum(DEVICE_TYPES).nullable().optional().catch(null),
  country: shortText(64).nullable().optional().catch(null),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

export const DeviceIdSchema = z.string().regex(DEVICE_ID_PATTERN);

export const SubscriptionSchema = z.object({
  planId: z.enum(PLAN_IDS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currentPeriodEnd: z.string().nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** The user as the server returns it. */
export const UserSchema = z.object({
  id: z.string(),
  credits: z.number().int().nonnegative(),
  free_trials_used: z.number().int().nonnegative(),
  free_trials_limit: z.number().int().nonnegative(),
  segment: z.enum(SEGMENTS),
  created_at: z.string(),
  subscription: SubscriptionSchema.optional(),
  /** The signed-in email; null while the user is anonymous. */
  email: z.string().nullable().default(null),
  /**
   * Why a new user started with no free trials: `device` when this device's trials were already
   * used, `network` past the daily cap of new users from one address; null otherwise.
   */
  free_trials_withheld: z.enum(FREE_TRIALS_WITHHELD_REASONS).nullable().default(null),
});
export type User = z.infer<typeof UserSchema>;

export const ErrorResponseSchema = z.object({
  success: z.literal(false),
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  error: z.string(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

// ---------- POST /api/auth/anonymous ----------
export const AnonymousSignInRequestSchema = z.object({
  deviceId: DeviceIdSchema,
  deviceInfo: DeviceInfoSchema.optional().default({
    browser: 'Unknown',
    os: 'Unknown',
  }),
});
export type AnonymousSignInRequest = z.input<typeof AnonymousSignInRequestSchema>;

export const AuthResponseSchema = z.object({
  success: z.literal(true),
  user: UserSchema,
  isNew: z.boolean(),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

// ---------- GET /api/auth/user/:id ----------
export const UserResponseSchema = z.object({ success: z.literal(true), user: UserSchema });
export type UserResponse = z.infer<typeof UserResponseSchema>;

// ---------- POST /api/process-image (multipart) ----------
/** A place in the try-on line, as the server hands it out (random base64url). */
export const LineTicketSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

/** The non-file fields of the multipart form. */
export const TryOnFieldsSchema = z.object({
  /** One of the three clothing categories, or `accessories` on an engine that offers it. */
  category: z.enum(TRYON_CATEGORY_VALUES),
  userId: z.string().min(1).max(64),
  api: z.string().min(1).max(40).optional(),
  /** Optional: a client-made UUID to follow the try-on's stages (see progress.ts). */
  progressId: z.string().uuid().optional(),
  /**
   * Optional: the `ticket` of an earlier ENGINE_BUSY answer. Sent with the retry, it keeps the
   * shopper's place in line (first come, first served); an unknown or expired one joins at the end.
   */
  lineTicket: LineTicketSchema.optional(),
  /**
   * Optional, instead of the `userImage` file: one of the shopper's kept photos (photos.ts). Both
   * given: 400; another shopper's or an unknown id: 404.
   */
  personPhotoId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});
export type TryOnFields = z.infer<typeof TryOnFieldsSchema>;

export const TryOnResponseSchema = z.object({
  success: z.literal(true),
  imageUrl: z.string(),
  usedFreeTrial: z.boolean(),
  creditsRemaining: z.number().int().nonnegative(),
  tryonId: z.string().optional(),
  /** Try-ons this one used: 1, or 2 for a whole outfit (TRYONS_PER_OUTFIT). */
  tryOnsUsed: z.number().int().positive().optional(),
  /** Free trials among them (usedFreeTrial is true when this is above 0). */
  freeTrialsUsed: z.number().int().nonnegative().optional(),
  /**
   * A quick preview whose photos are kept for "Make it photo-real" (POST /api/tryons/{id}/rerun):
   * until when. Absent when they are not kept (a hosted result, or no hosted engine configured).
   */
  photosKeptUntil: z.string().optional(),
  /**
   * The engine that made the result: the one asked for, or the next one ENGINE_FALLBACK names
   * when it failed (the shopper is charged once either way).
   */
  engine: z.string().optional(),
});
export type TryOnResponse = z.infer<typeof TryOnResponseSchema>;

/**
 * ENGINE_BUSY refusal: HTTP 503 with a `Retry-After` header (seconds). Every engine slot is taken
 * and the shopper could not be kept waiting on the server (the line is full, or the longest wait
 * the server holds a request passed). The fields below are optional for older clients; a client
 * that waits `retryAfterSeconds` and posts again with `lineTicket` = `ticket` keeps its place.
 * Nothing was charged.
 */
export const EngineBusyResponseSchema = z.object({
  success: z.literal(false),
  code: z.literal('ENGINE_BUSY'),
  error: z.string(),
  /** The shopper's place in line: 1 is next. */
  place: z.number().int().positive().optional(),
  /** About how many seconds until this try-on starts, from now. */
  waitSeconds: z.number().int().nonnegative().optional(),
  /** The same number as the Retry-After header: when to post again. */
  retryAfterSeconds: z.number().int().positive().optional(),
  /** Keeps the place in line when sent back as the form field `lineTicket`. */
  ticket: LineTicketSchema.optional(),
});
export type EngineBusyResponse = z.infer<typeof EngineBusyResponseSchema>;

/**
 * TOO_MANY_REQUESTS refusal of a try-on: HTTP 429 with a `Retry-After` header (seconds). The
 * shopper (or their address) already holds as many places in line as one may: it is a limit on
 * that client, not the engine being busy, and the page says so rather than waiting in line.
 * Nothing was charged.
 */
export const TooManyTryOnsResponseSchema = z.object({
  success: z.literal(false),
  code: z.literal('TOO_MANY_REQUESTS'),
  error: z.string(),
  /** The same number as the Retry-After header. */
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type TooManyTryOnsResponse = z.infer<typeof TooManyTryOnsResponseSchema>;

/** An engine the page can offer instead of the one that refused: its id (the form's `api`) and label. */
export const AlternativeEngineSchema = z.object({ id: z.string(), label: z.string() });
export type AlternativeEngine = z.infer<typeof AlternativeEngineSchema>;

/**
 * GARMENT_WORN refusal (HTTP 422): the built-in engine cannot use a photo of the garment being
 * worn. When a hosted engine that dresses from such photos is enabled and up, `alternativeEngine`
 * names it, and the page offers "Try with <label>": the same photos and category again on it (a
 * new try-on, charged as one). Nothing was charged for the refused one.
 */
export const GarmentWornResponseSchema = z.object({
  success: z.literal(false),
  code: z.literal('GARMENT_WORN'),
  error: z.string(),
  alternativeEngine: AlternativeEngineSchema.optional(),
});
export type GarmentWornResponse = z.infer<typeof GarmentWornResponseSchema>;

// ---------- POST /api/tryon-line/leave ----------
/**
 * "Leave the line" while away (between an ENGINE_BUSY answer and the next post): the ticket gives
 * its place up at once, instead of keeping it until it expires. (A request the server holds is
 * given up by closing its connection.)
 */
export const LeaveLineRequestSchema = z.object({
  ticket: LineTicketSchema,
  /** The engine the try-on was for (its line); absent: the default engine. */
  api: z.string().min(1).max(40).optional(),
});
export type LeaveLineRequest = z.infer<typeof LeaveLineRequestSchema>;
export const LeaveLineResponseSchema = z.object({
  success: z.literal(true),
  /** False when there was no such place of the session user's to give up (gone, held, another's). */
  left: z.boolean(),
});
export type LeaveLineResponse = z.infer<typeof LeaveLineResponseSchema>;

/** NO_CREDITS refusal: HTTP 402 with the user. */
export const NoCreditsResponseSchema = z.object({
  success: z.literal(false),
  code: z.literal('NO_CREDITS'),
  error: z.string(),
  user: UserSchema,
});
export type NoCreditsResponse = z.infer<typeof NoCreditsResponseSchema>;

// ---------- GET /api/tryons ----------
/** Most results one page of My Gallery holds (and the default page size). */
export const GALLERY_PAGE_MAX = 100;
/** A page's cursor as the server hands it out: opaque base64url text. */
export const GalleryCursorSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);
export const TryOnListQuerySchema = z.object({
  /** The previous page's `nextCursor`: results older than that page's last one. */
  before: GalleryCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(GALLERY_PAGE_MAX).default(GALLERY_PAGE_MAX),
});
export type TryOnListQuery = z.input<typeof TryOnListQuerySchema>;
export const TryOnItemSchema = z.object({
  id: z.string(),
  imageUrl: z.string(),
  category: z.enum(TRYON_CATEGORY_VALUES),
  engine: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** True for the built-in engine's quick preview (shown with its label and explanation). */
  preview: z.boolean().optional(),
  /**
   * Until when this preview's photos are kept for "Make it photo-real" (POST /api/tryons/{id}/rerun);
   * null (or absent) when they are not kept or already gone.
   */
  photosKeptUntil: z.string().nullable().optional(),
  /**
   * A small picture of the garment photo the result was made from (GET /api/tryons/{id}/garment,
   * the owner's session only) while the preview's photos are kept; null (or absent) otherwise.
   */
  garmentUrl: z.string().nullable().optional(),
  /** The public link of a shared result; null when it is not shared. */
  shareUrl: z.string().nullable(),
  /** The shopper's report of this result and its state; null (or absent) when it has none. */
  report: TryOnReportStateSchema.nullable().optional(),
});
export type TryOnItem = z.infer<typeof TryOnItemSchema>;
export const TryOnListResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(TryOnItemSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: GalleryCursorSchema.nullable(),
});
export type TryOnListResponse = z.infer<typeof TryOnListResponseSchema>;

// ---------- POST /api/billing/demo/checkout ----------
export const DemoCheckoutRequestSchema = z.object({ planId: z.enum(PLAN_IDS) });
export type DemoCheckoutRequest = z.infer<typeof DemoCheckoutRequestSchema>;
export const DemoCheckoutResponseSchema = z.object({ success: z.literal(true), user: UserSchema });
export type DemoCheckoutResponse = z.infer<typeof DemoCheckoutResponseSchema>;

// ---------- GET /api/config ----------
export const PublicPlanSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  price: z.string(),
  priceValue: z.number(),
  currency: z.literal('USD'),
  credits: z.number(),
  period: z.enum(['week', 'month', 'year', 'one-time']),
  validityDays: z.number().nullable(),
  badge: z.string().nullable(),
  features: z.array(z.string()),
  popular: z.boolean(),
  paddlePriceId: z.string().nullable(),
});
export type PublicPlan = z.infer<typeof PublicPlanSchema>;

export const PublicConfigSchema = z.object({
  engines: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      /** 'local': the built-in quick preview; 'hosted': an AI provider. */
      kind: z.enum(['local', 'hosted']).optional(),
      estimateSeconds: z.object({ min: z.number(), max: z.number() }).optional(),
      /** The categories this engine offers, in the page's order (`accessories` only where it can). */
      categories: z.array(z.enum(TRYON_CATEGORY_VALUES)).optional(),
      /** The engine's state as `/api/health` reports it; the page never offers one that is `down`. */
      status: z.enum(['ok', 'degraded', 'down']).optional(),
    }),
  ),
  defaultEngine: z.string(),
  billing: z.object({
    provider: z.enum(['demo', 'paddle']),
    environment: z.enum(['sandbox', 'production']).nullable(),
    clientToken: z.string().nullable(),
  }),
  plans: z.array(PublicPlanSchema),
  freeTrialsLimit: z.number().int().nonnegative(),
  supportEmail: z.string(),
  maxUploadBytes: z.number().int().positive(),
  /** Days a kept person photo stays without use before it is deleted (KEPT_PHOTO_DAYS). */
  keptPhotoDays: z.number().int().positive().optional(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

// ---------- GET /api/health ----------
export const CheckSchema = z.object({ status: z.enum(['ok', 'down', 'degraded', 'disabled']) }).catchall(z.unknown());
export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  uptime: z.number(),
  checks: z.object({
    database: CheckSchema,
    storage: CheckSchema,
    engines: z.record(z.string(), CheckSchema),
    queue: CheckSchema,
  }),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
