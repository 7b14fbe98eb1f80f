import { AdminMerchantResponseSchema, type AdminCreditsRequest, type Merchant } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/merchants/:id/credits: adds credits, or (negative) takes them back, never below zero. */
export async function adjustMerchantCredits(id: string, request: AdminCreditsRequest): Promise<Merchant> {
  const res = await apiRequest(`/api/admin/merchants/${encodeURIComponent(id)}/credits`, AdminMerchantResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The credits could not be changed.',
  });
  return res.merchant;
}
