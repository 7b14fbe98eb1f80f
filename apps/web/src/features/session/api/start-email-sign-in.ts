import { MESSAGES, SuccessResponseSchema } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/email/start: mails a 6-digit sign-in code and a magic link to `email`. */
export async function startEmailSignIn(email: string): Promise<void> {
  await apiRequest('/api/auth/email/start', SuccessResponseSchema, {
    method: 'POST',
    json: { email },
    fallbackError: MESSAGES.mailNotSent,
  });
}
