/**
 * The operator console's API (`/api/admin/*`, docs/operations.md) and the shoppers' report of a bad
 * result (`POST /api/tryons/:id/report`). Operators are accounts signed in by email whose address
 * is in ADMIN_EMAILS, with an email sign-in less than `OPERATOR_SIGN_IN_MAX_AGE_HOURS` old.
 */
import { z } from 'zod';
import { HealthResponseSchema, SEGMENTS } from './api.js';
import { TRYON_CATEGORY_VALUES } from './categories.js';
import { REPORT_REASONS, REPORT_STATUSES } from './report.js';

/** An operator's email sign-in is good for this long; then 401 REAUTH_REQUIRED. */
export const OPERATOR_SIGN_IN_MAX_AGE_HOURS = 12;
/** The window in which a shopper's first reports are refunded at once (AUTO_REFUND_REPORTS of them). */
export const REPORT_WINDOW_DAYS = 30;
/** The longest statistics series, in days. */
export const ADMIN_STATS_MAX_DAYS = 90;

/** Engine codes that mean the engine refused the photos (counted as "refused", not "failed"). */
export const ENGINE_REFUSAL_CODES = [
  'PERSON_NOT_FOUND',
  'MULTIPLE_PEOPLE',
  'PERSON_TOO_SMALL',
  'GARMENT_NOT_SEPARABLE',
  'GARMENT_NOT_PLACED',
  'CONTENT_BLOCKED',
] as const;

const Reason = z.string().trim().min(1).max(500);
const IdParam = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

// ---------- POST /api/tryons/:id/report (shoppers) ----------
export const ReportTryOnRequestSchema = z.object({
  reason: z.enum(REPORT_REASONS),
  note: z.string().trim().max(1000).optional(),
});
export type ReportTryOnRequest = z.infer<typeof ReportTryOnRequestSchema>;
export const ReportTryOnResponseSchema = z.object({
  success: z.literal(true),
  /** refunded: given back at once; pending: an operator will decide. */
  status: z.enum(['refunded', 'pending']),
  creditsRemaining: z.number().int(),
});
export type ReportTryOnResponse = z.infer<typeof ReportTryOnResponseSchema>;

// ---------- shared pieces ----------
export const AdminUserIdParamsSchema = z.object({ id: IdParam });
export const AdminReportIdParamsSchema = z.object({ id: IdParam });
export const AdminTryOnIdParamsSchema = z.object({ id: IdParam });

export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  credits: z.number().int(),
  free_trials_used: z.number().int(),
  free_trials_limit: z.number().int(),
  segment: z.enum(SEGMENTS),
  created_at: z.string(),
  blocked: z.boolean(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

const Actor = z.object({ id: z.string().nullable(), email: z.string().nullable() });

// ---------- GET /api/admin/users?query= ----------
export const AdminUserSearchQuerySchema = z.object({ query: z.string().trim().min(1).max(200) });
export type AdminUserSearchQuery = z.infer<typeof AdminUserSearchQuerySchema>;
export const AdminUserSearchResponseSchema = z.object({ success: z.literal(true), items: z.array(AdminUserSchema) });
export type AdminUserSearchResponse = z.infer<typeof AdminUserSearchResponseSchema>;

// ---------- GET /api/admin/users/:id ----------
export const AdminLedgerEntrySchema = z.object({
  id: z.string(),
  /** The credit event's type: grant, spend, refund, expire, clawback, trial_spend, admin_remove, … */
  kind: z.string(),
  /** What the amount counts: credits, or free trials (trial_spend, trial_refund). */
  unit: z.enum(['credit', 'free_trial']),
  amount: z.number().int(),
  /** The credit balance after this movement (the sum of every credit movement up to it). */
  balance_after: z.number().int(),
  reason: z.string().nullable(),
  created_at: z.string(),
  tryon_id: z.string().nullable(),
  grant_id: z.string().nullable(),
  /** The operator, for manual movements; null otherwise. */
  actor: Actor.nullable(),
});
export type AdminLedgerEntry = z.infer<typeof AdminLedgerEntrySchema>;

export const AdminReportSummarySchema = z.object({
  id: z.string(),
  status: z.enum(REPORT_STATUSES),
  reason: z.enum(REPORT_REASONS),
  note: z.string().nullable(),
  created_at: z.string(),
});

export const AdminTryOnSchema = z.object({
  id: z.string(),
  engine: z.string(),
  category: z.enum(TRYON_CATEGORY_VALUES),
  status: z.enum(['processing', 'succeeded', 'failed']),
  /** 1, or 2 for a whole outfit. */
  units: z.number().int(),
  charge: z.enum(['trial', 'credit']),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  error_code: z.string().nullable(),
  /** The result image for an operator (each view is audited); null when there is none. */
  result_url: z.string().nullable(),
  report: AdminReportSummarySchema.nullable(),
});
export type AdminTryOn = z.infer<typeof AdminTryOnSchema>;

export const AdminGrantSchema = z.object({
  id: z.string(),
  source: z.string(),
  plan_id: z.string().nullable(),
  amount: z.number().int(),
  remaining: z.number().int(),
  amount_paid: z.string().nullable(),
  currency: z.string().nullable(),
  external_ref: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export const AdminBillingEventSchema = z.object({
  id: z.string(),
  provider: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  occurred_at: z.string().nullable(),
  processed_at: z.string().nullable(),
  created_at: z.string(),
});

export const AdminUserDetailSchema = AdminUserSchema.extend({
  blocked_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  merged_into: z.string().nullable(),
  device_id: z.string().nullable(),
  subscription: z
    .object({
      plan_id: z.string().nullable(),
      status: z.string().nullable(),
      period_end: z.string().nullable(),
    })
    .nullable(),
  ledger: z.array(AdminLedgerEntrySchema),
  tryons: z.array(AdminTryOnSchema),
  payments: z.object({ grants: z.array(AdminGrantSchema), billing_events: z.array(AdminBillingEventSchema) }),
  sessions: z.object({ count: z.number().int(), last_seen_at: z.string().nullable() }),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;
export const AdminUserDetailResponseSchema = z.object({ success: z.literal(true), user: AdminUserDetailSchema });
export type AdminUserDetailResponse = z.infer<typeof AdminUserDetailResponseSchema>;

// ---------- POST /api/admin/users/:id/credits ----------
export const AdminCreditsRequestSchema = z.object({
  /** Credits to add, or (negative) to remove; removal stops at zero. */
  amount: z
    .number()
    .int()
    .min(-100_000)
    .max(100_000)
    .refine((n) => n !== 0, { message: 'amount must not be zero' }),
  reason: Reason,
});
export type AdminCreditsRequest = z.infer<typeof AdminCreditsRequestSchema>;
export const AdminUserResponseSchema = z.object({ success: z.literal(true), user: AdminUserSchema });
export type AdminUserResponse = z.infer<typeof AdminUserResponseSchema>;

// ---------- POST /api/admin/users/:id/block and /unblock ----------
export const AdminBlockRequestSchema = z.object({ reason: Reason });
export type AdminBlockRequest = z.infer<typeof AdminBlockRequestSchema>;

// ---------- GET /api/admin/reports?status= ----------
export const AdminReportListQuerySchema = z.object({
  status: z.enum(REPORT_STATUSES).default('pending'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export type AdminReportListQuery = z.input<typeof AdminReportListQuerySchema>;
export const AdminReportSchema = z.object({
  id: z.string(),
  tryon_id: z.string(),
  user: z.object({ id: z.string(), email: z.string().nullable() }),
  reason: z.enum(REPORT_REASONS),
  note: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  /** Units the try-on cost: 1, or 2 for a whole outfit. */
  units: z.number().int(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: Actor.nullable(),
  decision_note: z.string().nullable(),
  engine: z.string().nullable(),
  category: z.string().nullable(),
  /** The result image for an operator (each view is audited); null once the try-on is gone. */
  result_url: z.string().nullable(),
});
export type AdminReport = z.infer<typeof AdminReportSchema>;
export const AdminReportListResponseSchema = z.object({ success: z.literal(true), items: z.array(AdminReportSchema) });
export type AdminReportListResponse = z.infer<typeof AdminReportListResponseSchema>;

// ---------- POST /api/admin/reports/:id ----------
export const AdminReportDecisionRequestSchema = z.object({ decision: z.enum(['refund', 'reject']), note: Reason });
export type AdminReportDecisionRequest = z.infer<typeof AdminReportDecisionRequestSchema>;
export const AdminReportDecisionResponseSchema = z.object({ success: z.literal(true), report: AdminReportSchema });
export type AdminReportDecisionResponse = z.infer<typeof AdminReportDecisionResponseSchema>;

// ---------- GET /api/admin/stats?days= ----------
export const AdminStatsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(ADMIN_STATS_MAX_DAYS).default(30),
});
export type AdminStatsQuery = z.input<typeof AdminStatsQuerySchema>;
export const AdminEngineDaySchema = z.object({
  engine: z.string(),
  succeeded: z.number().int(),
  /** The engine refused the photos (ENGINE_REFUSAL_CODES). */
  refused: z.number().int(),
  /** ENGINE_FAILED, ENGINE_TIMEOUT and any other failure. */
  failed: z.number().int(),
  /** Engine time (start to result) of the day's succeeded try-ons, in milliseconds; null without any. */
  p50_ms: z.number().int().nullable(),
  p95_ms: z.number().int().nullable(),
  /**
   * Try-ons asked of this engine that it failed for a reason not the photos' (5xx, timeout,
   * quota) and that another engine then made (ENGINE_FALLBACK): counted there as succeeded.
   */
  failovers: z.number().int(),
});
export const AdminPurchasesSchema = z.object({
  plan_id: z.string().nullable(),
  currency: z.string().nullable(),
  count: z.number().int(),
  /** The sum paid, as a decimal string in `currency` (null when no amount was recorded). */
  revenue: z.string().nullable(),
});
/**
 * One engine's try-ons of a day in money, as decimal strings with four places: `revenue` is what
 * the credits they used were bought for (a plan's price over its credits; free trials and credits
 * an operator gave earn nothing), `cost` what the engine charges for the images made (its price
 * per image and per extra garment at the time), `margin` the difference.
 */
export const AdminEngineEconomicsSchema = z.object({
  engine: z.string(),
  /** Succeeded try-ons (units: a whole outfit is two). */
  tryons: z.number().int(),
  revenue: z.string(),
  cost: z.string(),
  margin: z.string(),
});
export type AdminEngineEconomics = z.infer<typeof AdminEngineEconomicsSchema>;
/** An engine's price, from configuration or the provider's public price list, with the date it was read. */
export const AdminEnginePriceSchema = z.object({
  engine: z.string(),
  /** Per image made, in the plans' currency (decimal string). */
  per_image: z.string(),
  /** Per garment beyond the first in one call (a whole outfit in one image). */
  per_extra_garment: z.string(),
  /**
   * `price-list`: the built-in default from the provider's public prices; `configured`: ENGINE_COSTS;
   * `own-hardware`: the operator's own machines (0 here); `unknown`: no published price could be read.
   */
  source: z.enum(['price-list', 'configured', 'own-hardware', 'unknown']),
  /** When the price was read (YYYY-MM-DD); null when configuration gave no date. */
  read_on: z.string().nullable(),
});
export type AdminEnginePrice = z.infer<typeof AdminEnginePriceSchema>;
export const AdminStatsDaySchema = z.object({
  /** The UTC day, YYYY-MM-DD. */
  date: z.string(),
  tryons: z.array(AdminEngineDaySchema),
  new_users: z.number().int(),
  purchases: z.array(AdminPurchasesSchema),
  reports: z.object({ created: z.number().int(), refunded: z.number().int(), rejected: z.number().int() }),
  /** What each engine's try-ons of the day earned and cost, in the plans' currency (`currency` of the answer). */
  economics: z.array(AdminEngineEconomicsSchema),
});
export type AdminStatsDay = z.infer<typeof AdminStatsDaySchema>;
/** One engine's try-ons over a recent window (the last hour, the last day): its health as shoppers saw it. */
export const AdminEngineWindowSchema = AdminEngineDaySchema.extend({
  window: z.enum(['hour', 'day']),
  /** The latest failure (not a refusal of the photos) in the window: its code and when the try-on started. */
  last_error: z.object({ code: z.string(), at: z.string() }).nullable(),
});
export type AdminEngineWindow = z.infer<typeof AdminEngineWindowSchema>;
export const AdminStatsResponseSchema = z.object({
  success: z.literal(true),
  days: z.array(AdminStatsDaySchema),
  /** Each engine over the last hour and the last day (engines without try-ons there are left out). */
  engines: z.array(AdminEngineWindowSchema),
  /** The plans' currency: revenue, cost and prices are in it. */
  currency: z.string(),
  /** Each enabled engine's price now, with the date it was read. */
  prices: z.array(AdminEnginePriceSchema),
  totals: z.object({
    /** Unspent, unexpired credits held by all users, merchants included. */
    credits_outstanding: z.number().int(),
    /** Subscriptions active now. */
    active_plans: z.number().int(),
  }),
});
export type AdminStatsResponse = z.infer<typeof AdminStatsResponseSchema>;

// ---------- GET /api/admin/audit?limit=&before= ----------
export const AdminAuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** The previous page's `nextCursor`. */
  before: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/)
    .optional(),
});
export type AdminAuditQuery = z.input<typeof AdminAuditQuerySchema>;
export const AdminAuditEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  actor: Actor,
  /** credits.add, credits.remove, user.block, user.unblock, report.refund, report.reject, result.view */
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  target_user_id: z.string().nullable(),
  reason: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntrySchema>;
export const AdminAuditResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(AdminAuditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AdminAuditResponse = z.infer<typeof AdminAuditResponseSchema>;

// ---------- GET /api/admin/health ----------
/**
 * The health report with what the public one leaves out: each engine's details and reasons (a
 * server not ready, no access token, a retired model), and how kept photos are sealed.
 */
export const AdminHealthResponseSchema = HealthResponseSchema.extend({
  photos: z.object({
    /** Where the sealing key comes from: PHOTO_KEY, SESSION_SECRET, or the secret kept in the data folder. */
    sealedWith: z.enum(['PHOTO_KEY', 'SESSION_SECRET', 'data folder']),
    /** The risk of that, in a line; null with PHOTO_KEY. */
    warning: z.string().nullable(),
  }),
});
export type AdminHealthResponse = z.infer<typeof AdminHealthResponseSchema>;
