import { AdminMerchantDetailResponseSchema, type AdminMerchantDetailResponse } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/merchants/:id: a merchant, its try-ons per day and its latest shopper sessions. */
export function getMerchant(id: string, signal?: AbortSignal): Promise<AdminMerchantDetailResponse> {
  return apiRequest(`/api/admin/merchants/${encodeURIComponent(id)}`, AdminMerchantDetailResponseSchema, {
    fallbackError: 'The merchant could not be loaded.',
    ...(signal ? { signal } : {}),
  });
}
