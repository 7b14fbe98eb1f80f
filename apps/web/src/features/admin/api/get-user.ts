import { AdminUserDetailResponseSchema, type AdminUserDetail } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/users/:id: an account's page (balance, ledger, try-ons, payments, sessions). */
export async function getUser(id: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  const res = await apiRequest(`/api/admin/users/${encodeURIComponent(id)}`, AdminUserDetailResponseSchema, {
    fallbackError: 'The account could not be loaded.',
    ...(signal ? { signal } : {}),
  });
  return res.user;
}
