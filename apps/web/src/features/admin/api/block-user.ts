import { AdminUserResponseSchema, type AdminBlockRequest, type AdminUser } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/users/:id/block: the account's sessions and sign-ins are refused from now on. */
export async function blockUser(id: string, request: AdminBlockRequest): Promise<AdminUser> {
  const res = await apiRequest(`/api/admin/users/${encodeURIComponent(id)}/block`, AdminUserResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The account could not be blocked.',
  });
  return res.user;
}
