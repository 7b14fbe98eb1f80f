import { z } from 'zod';
import { MerchantSchema, type AdminMerchantRotateRequest, type Merchant } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

const RotatedSchema = z.object({
  success: z.literal(true),
  merchant: MerchantSchema,
  secretKey: z.string().nullable(),
});

/** POST /api/admin/merchants/:id/keys: new keys; the new secret key is in the answer this once. */
export function rotateMerchantKeys(
  id: string,
  request: AdminMerchantRotateRequest,
): Promise<{ merchant: Merchant; secretKey: string | null }> {
  return apiRequest(`/api/admin/merchants/${encodeURIComponent(id)}/keys`, RotatedSchema, {
    method: 'POST',
    json: request,
    fallbackError: 'The keys could not be rotated.',
  });
}
