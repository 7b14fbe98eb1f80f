import { MESSAGES, type User } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** GET /api/auth/user/:id: refreshes the cached user. */
export async function getUser(id: string): Promise<User> {
  const res = await apiRequest(
    `/api/auth/user/${encodeURIComponent(id)}`,
    loadResponseSchemas().then((s) => s.UserResponseSchema),
    {
      fallbackError: MESSAGES.notSignedIn,
    },
  );
  return res.user;
}
