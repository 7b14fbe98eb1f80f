import {
  EmailVerifyResponseSchema,
  MESSAGES,
  type EmailVerifyRequest,
  type EmailVerifyResponse,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/auth/email/verify with the mailed code or the magic link's token. The answer sets the
 * session cookie of the account; `merged` says this device's user joined an existing account, and
 * `moved` what came with it.
 */
export function verifyEmailSignIn(request: EmailVerifyRequest): Promise<EmailVerifyResponse> {
  return apiRequest('/api/auth/email/verify', EmailVerifyResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: MESSAGES.authFailed,
  });
}

/** Whether this device's credits or results really joined the account (only then does the page say so). */
export function somethingMerged(res: Pick<EmailVerifyResponse, 'merged' | 'moved'>): boolean {
  return res.merged && res.moved.credits + res.moved.results > 0;
}
