import { AdminMerchantListResponseSchema, type Merchant } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/merchants: every merchant of the shop widget. */
export async function getMerchants(signal?: AbortSignal): Promise<Merchant[]> {
  const res = await apiRequest('/api/admin/merchants', AdminMerchantListResponseSchema, {
    fallbackError: 'The merchants could not be loaded.',
    ...(signal ? { signal } : {}),
  });
  return res.items;
}
