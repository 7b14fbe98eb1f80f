import { UnshareTryOnResponseSchema, WEB_MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/tryons/:id/share: the public link stops working. */
export async function unshareTryOn(id: string): Promise<void> {
  await apiRequest(`/api/tryons/${encodeURIComponent(id)}/share`, UnshareTryOnResponseSchema, {
    method: 'DELETE',
    fallbackError: WEB_MESSAGES.galleryShareFailed,
  });
}
