/**
 * Managing My Gallery: deleting a result, and sharing it by a public link (`/s/<token>`, a page
 * the server renders) until the owner stops sharing or the result expires.
 * The list itself (`GET /api/tryons`, pages by cursor) is in api.ts.
 */
import { z } from 'zod';
import { LineTicketSchema } from './api.js';

/** A try-on's id in a path (ids are short base64url text). */
export const TryOnIdParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export type TryOnIdParams = z.infer<typeof TryOnIdParamsSchema>;

/** A share link's token: 32 random bytes, base64url. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Where a shared result's public page lives: `/s/<token>` (its image at `/s/<token>/image`). */
export const SHARE_PATH_PREFIX = '/s/';

// ---------- DELETE /api/tryons/:id ----------
export const DeleteTryOnResponseSchema = z.object({ success: z.literal(true) });
export type DeleteTryOnResponse = z.infer<typeof DeleteTryOnResponseSchema>;

// ---------- POST /api/tryons/:id/share ----------
export const ShareTryOnResponseSchema = z.object({
  success: z.literal(true),
  /** The public page's absolute URL; the same each time until sharing stops. */
  url: z.string(),
});
export type ShareTryOnResponse = z.infer<typeof ShareTryOnResponseSchema>;

// ---------- DELETE /api/tryons/:id/share ----------
export const UnshareTryOnResponseSchema = z.object({ success: z.literal(true) });
export type UnshareTryOnResponse = z.infer<typeof UnshareTryOnResponseSchema>;

// ---------- POST /api/tryons/:id/rerun ("Make it photo-real") ----------
/**
 * Re-runs a quick preview (the built-in engine's result) on a hosted engine from the photos kept
 * for it (PREVIEW_PHOTOS_KEPT_MINUTES); the answer is POST /api/process-image's, charged as a
 * new try-on. PHOTOS_GONE once the photos are deleted; NOT_RERUNNABLE for any other result.
 */
export const RerunTryOnRequestSchema = z.object({
  /** A hosted engine that is enabled (not `local`). */
  api: z.string().min(1).max(40),
  /** Optional: a client-made UUID to follow the new try-on's stages (see progress.ts). */
  progressId: z.string().uuid().optional(),
  /**
   * Optional: the `ticket` of an earlier ENGINE_BUSY answer. Sent with the retry, it keeps the
   * shopper's place in line (first come, first served); an unknown or expired one joins at the end.
   */
  lineTicket: LineTicketSchema.optional(),
});
export type RerunTryOnRequest = z.infer<typeof RerunTryOnRequestSchema>;
