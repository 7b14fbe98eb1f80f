/**
 * Accounts: email sign-in (one-time code or magic link), sign-out, deleting one's data, and the
 * plan's management (customer portal, purchase history). The session cookie is the only key to
 * an account; a device id only limits free trials.
 */
import { z } from 'zod';
import { UserSchema } from './api.js';
import { LOCALES } from './locales.js';
import { PLAN_IDS } from './plans.js';

/** Longest email address accepted (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Digits of the one-time sign-in code. */
export const SIGN_IN_CODE_LENGTH = 6;
/** How long a sign-in code and its link are valid. */
export const SIGN_IN_CODE_TTL_MINUTES = 10;
/** Wrong tries after which a code is dead. */
export const SIGN_IN_CODE_MAX_ATTEMPTS = 5;

/** An email address, trimmed and compared case-insensitively (stored in lower case). */
export const EmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .email()
  .transform((v) => v.toLowerCase());

// ---------- POST /api/auth/email/start ----------
export const EmailStartRequestSchema = z.object({
  email: EmailSchema,
  /** The page's language: the mail is written in it (English when absent). */
  locale: z.enum(LOCALES).optional(),
});
export type EmailStartRequest = z.input<typeof EmailStartRequestSchema>;
export const SuccessResponseSchema = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof SuccessResponseSchema>;

// ---------- POST /api/auth/email/verify ----------
/**
 * `confirm: true` signs in a browser other than the one that asked for the code: without it that
 * browser gets 409 CONFIRM_OTHER_BROWSER with the account's address masked. A confirmed sign-in
 * never moves what the browser made before (its photos, results and credits) into the account.
 */
const ConfirmField = { confirm: z.literal(true).optional() };
/** Either the 6-digit code from the mail, or the token of its magic link. */
export const EmailVerifyRequestSchema = z.union([
  z.object({
    email: EmailSchema,
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/),
    ...ConfirmField,
  }),
  z.object({ email: EmailSchema, token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/), ...ConfirmField }),
]);
export type EmailVerifyRequest = z.input<typeof EmailVerifyRequestSchema>;
export const EmailVerifyResponseSchema = z.object({
  success: z.literal(true),
  user: UserSchema,
  /** True when the session moved to an existing account and this device's user joined it. */
  merged: z.boolean(),
  /** What joined the account: this device's unspent credits and results (zeros when nothing did). */
  moved: z.object({ credits: z.number().int().nonnegative(), results: z.number().int().nonnegative() }),
});
export type EmailVerifyResponse = z.infer<typeof EmailVerifyResponseSchema>;

/** HTTP 409 CONFIRM_OTHER_BROWSER: the code or link was asked for in another browser. */
export const ConfirmOtherBrowserResponseSchema = z.object({
  success: z.literal(false),
  code: z.literal('CONFIRM_OTHER_BROWSER'),
  error: z.string(),
  /** The account's address, masked (`a•••@example.com`). */
  email: z.string(),
});
export type ConfirmOtherBrowserResponse = z.infer<typeof ConfirmOtherBrowserResponseSchema>;

/**
 * An address as the sign-in pages name it to someone who may not own it: the first character of
 * the local part, then `•••`, then the domain (`a•••@example.com`).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${[...email.slice(0, at)][0]}•••${email.slice(at)}`;
}

// ---------- POST /api/auth/logout, DELETE /api/account ----------
export const LogoutResponseSchema = SuccessResponseSchema;
export const DeleteAccountResponseSchema = SuccessResponseSchema;

// ---------- GET /api/billing/portal ----------
export const BillingPortalResponseSchema = z.object({ success: z.literal(true), url: z.string() });
export type BillingPortalResponse = z.infer<typeof BillingPortalResponseSchema>;

// ---------- GET /api/billing/history ----------
export const PurchaseSchema = z.object({
  id: z.string(),
  planId: z.enum(PLAN_IDS).nullable(),
  credits: z.number().int(),
  /** Amount paid, as a decimal string in `currency` (e.g. "9.99"); null when unknown. */
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  createdAt: z.string(),
  /** When these credits expire; null: never. */
  expiresAt: z.string().nullable(),
  /** Refunded or charged back: the unspent credits were taken back. */
  refunded: z.boolean(),
  source: z.enum(['demo', 'paddle', 'admin']),
});
export type Purchase = z.infer<typeof PurchaseSchema>;
export const BillingHistoryResponseSchema = z.object({ success: z.literal(true), items: z.array(PurchaseSchema) });
export type BillingHistoryResponse = z.infer<typeof BillingHistoryResponseSchema>;

// ---------- POST /api/billing/demo/cancel ----------
export const DemoCancelResponseSchema = z.object({ success: z.literal(true), user: UserSchema });
export type DemoCancelResponse = z.infer<typeof DemoCancelResponseSchema>;
