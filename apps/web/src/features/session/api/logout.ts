import { LogoutResponseSchema, MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/logout: ends the session on the server and clears its cookie. */
export async function logout(): Promise<void> {
  await apiRequest('/api/auth/logout', LogoutResponseSchema, { method: 'POST', fallbackError: MESSAGES.internalError });
}
