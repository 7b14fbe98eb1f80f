import {
  AdminMerchantCreatedResponseSchema,
  type AdminMerchantCreateRequest,
  type AdminMerchantCreatedResponse,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/merchants: a new merchant; the answer holds its secret key, shown this once. */
export function createMerchant(request: AdminMerchantCreateRequest): Promise<AdminMerchantCreatedResponse> {
  return apiRequest('/api/admin/merchants', AdminMerchantCreatedResponseSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The merchant could not be created.',
  });
}
