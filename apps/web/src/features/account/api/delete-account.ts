import { DeleteAccountResponseSchema, MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/account: deletes the person's photos, results and personal data and ends the session. */
export async function deleteAccount(): Promise<void> {
  await apiRequest('/api/account', DeleteAccountResponseSchema, {
    method: 'DELETE',
    fallbackError: MESSAGES.internalError,
  });
}
