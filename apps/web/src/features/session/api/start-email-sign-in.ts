import { MESSAGES, SuccessResponseSchema } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';
import { currentLocale } from '../../../i18n/i18n';

/**
 * POST /api/auth/email/start: mails a 6-digit sign-in code and a magic link to `email`, written
 * in the page's language.
 */
export async function startEmailSignIn(email: string): Promise<void> {
  await apiRequest('/api/auth/email/start', SuccessResponseSchema, {
    method: 'POST',
    json: { email, locale: currentLocale() },
    fallbackError: MESSAGES.mailNotSent,
  });
}
