import { AdminMerchantResponseSchema, type AdminMerchantUpdateRequest, type Merchant } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** PATCH /api/admin/merchants/:id: a merchant's name, allowed origins or daily caps, with a reason. */
export async function updateMerchant(id: string, request: AdminMerchantUpdateRequest): Promise<Merchant> {
  const res = await apiRequest(`/api/admin/merchants/${encodeURIComponent(id)}`, AdminMerchantResponseSchema, {
    method: 'PATCH',
    json: request,
    fallbackError: 'The merchant could not be changed.',
  });
  return res.merchant;
}
