import { AdminUserSearchResponseSchema, type AdminUser } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/users?query=: accounts by part of their email, their id or a device id (newest first). */
export async function searchUsers(query: string, signal?: AbortSignal): Promise<AdminUser[]> {
  const res = await apiRequest(`/api/admin/users?query=${encodeURIComponent(query)}`, AdminUserSearchResponseSchema, {
    fallbackError: 'The search failed.',
    ...(signal ? { signal } : {}),
  });
  return res.items;
}
