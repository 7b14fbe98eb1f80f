import { DeleteTryOnResponseSchema, WEB_MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/tryons/:id: deletes one of the user's results (the image goes too). */
export async function deleteTryOn(id: string): Promise<void> {
  await apiRequest(`/api/tryons/${encodeURIComponent(id)}`, DeleteTryOnResponseSchema, {
    method: 'DELETE',
    fallbackError: WEB_MESSAGES.galleryDeleteFailed,
  });
}
