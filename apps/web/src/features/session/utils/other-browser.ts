import { ConfirmOtherBrowserResponseSchema } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';

/**
 * The account's masked address when a sign-in was refused because another browser asked for it
 * (409 CONFIRM_OTHER_BROWSER); null for any other outcome.
 */
export function otherBrowserEmail(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.code !== 'CONFIRM_OTHER_BROWSER') return null;
  const parsed = ConfirmOtherBrowserResponseSchema.safeParse(e.body);
  return parsed.success ? parsed.data.email : null;
}
