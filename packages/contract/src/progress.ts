/**
 * Live progress of one try-on.
 *
 * The page makes a random `progressId` (a UUID), sends it as a text field of
 * POST /api/process-image, and listens on GET /api/tryon-progress/{progressId}
 * (Server-Sent Events, same session). It may start listening before the post arrives.
 * Each event's data is a TryOnProgressEvent as JSON; the stream ends after `done` or `failed`.
 */
import { z } from 'zod';

/**
 * In order. `queued`: waiting for a free engine slot or worker. While the shopper waits in line
 * (nothing charged yet) `queued` events repeat with `place` and `waitSeconds` as the line moves.
 */
export const TRYON_STAGES = ['queued', 'reading', 'fitting', 'finishing', 'done', 'failed'] as const;
export type TryOnStage = (typeof TRYON_STAGES)[number];

export const ProgressIdSchema = z.string().uuid();

export const TryOnProgressEventSchema = z.object({
  stage: z.enum(TRYON_STAGES),
  /** The engine's own estimate of the whole try-on, in seconds, from its start. */
  estimateSeconds: z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() }),
  /** Milliseconds since the server accepted the try-on. */
  elapsedMs: z.number().int().nonnegative(),
  /** While waiting in line (stage `queued`, nothing charged yet): the place, 1 is next. */
  place: z.number().int().positive().optional(),
  /** While waiting in line: about how many seconds until the try-on starts. */
  waitSeconds: z.number().int().nonnegative().optional(),
});
export type TryOnProgressEvent = z.infer<typeof TryOnProgressEventSchema>;

/** What each kind of engine takes, end to end, as the page tells the shopper. */
export const ENGINE_ESTIMATE_SECONDS = {
  /** The built-in engine: about a second on the reference machine; a few under load. */
  local: { min: 1, max: 5 },
  /** Hosted AI engines: the spec's "30–60 seconds". */
  hosted: { min: 30, max: 60 },
} as const;
