import { MESSAGES } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** POST /api/auth/logout: ends the session on the server and clears its cookie. */
export async function logout(): Promise<void> {
  await apiRequest(
    '/api/auth/logout',
    loadResponseSchemas().then((s) => s.LogoutResponseSchema),
    { method: 'POST', fallbackError: MESSAGES.internalError },
  );
}
