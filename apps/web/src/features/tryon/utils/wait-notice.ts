import { WEB_MESSAGES } from '@aidressup/contract';

/**
 * Refusals that are no failure of the shopper's photos, each with its title (nothing was charged):
 * the engine full for a moment (the line), the shopper's several try-ons under way already
 * (429 TOO_MANY_REQUESTS), a part of the service away for a moment (503 SERVICE_UNAVAILABLE).
 * Null for any other code.
 */
export function waitNoticeTitle(code: string | null | undefined): string | null {
  if (code === 'ENGINE_BUSY') return WEB_MESSAGES.busyTitle;
  if (code === 'TOO_MANY_REQUESTS') return WEB_MESSAGES.tooManyTitle;
  if (code === 'SERVICE_UNAVAILABLE') return WEB_MESSAGES.outageTitle;
  return null;
}
