import { AdminUserResponseSchema, type AdminCreditsRequest, type AdminUser } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/users/:id/credits: adds credits, or (negative) takes them back, never below zero. */
export async function adjustCredits(id: string, request: AdminCreditsRequest): Promise<AdminUser> {
  const res = await apiRequest(`/api/admin/users/${encodeURIComponent(id)}/credits`, AdminUserResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The credits could not be changed.',
  });
  return res.user;
}
