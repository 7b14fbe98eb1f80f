import { AdminUserResponseSchema, type AdminBlockRequest, type AdminUser } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/users/:id/unblock: lifts a block. */
export async function unblockUser(id: string, request: AdminBlockRequest): Promise<AdminUser> {
  const res = await apiRequest(`/api/admin/users/${encodeURIComponent(id)}/unblock`, AdminUserResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The block could not be lifted.',
  });
  return res.user;
}
