import {
  EmailVerifyResponseSchema,
  MESSAGES,
  type EmailVerifyRequest,
  type EmailVerifyResponse,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/auth/email/verify with the mailed code or the magic link's token. The answer sets the
 * session cookie of the account; `merged` says this device's results and credits joined it.
 */
export function verifyEmailSignIn(request: EmailVerifyRequest): Promise<EmailVerifyResponse> {
  return apiRequest('/api/auth/email/verify', EmailVerifyResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: MESSAGES.authFailed,
  });
}
