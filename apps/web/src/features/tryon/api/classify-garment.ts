import {
  GARMENT_CLASSIFY_FILE_FIELD,
  GarmentClassifyResponseSchema,
  MESSAGES,
  type GarmentClassifyResponse,
} from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/garments/classify: the suggested category of a garment photo (free). */
export function classifyGarment(photo: File, signal: AbortSignal): Promise<GarmentClassifyResponse> {
  const form = new FormData();
  form.append(GARMENT_CLASSIFY_FILE_FIELD, photo);
  return apiRequest('/api/garments/classify', GarmentClassifyResponseSchema, {
    method: 'POST',
    body: form,
    signal,
    fallbackError: MESSAGES.unknownError,
  });
}
