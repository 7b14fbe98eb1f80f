import { ShareTryOnResponseSchema, WEB_MESSAGES } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/tryons/:id/share: the result's public link (the same one until sharing stops). */
export async function shareTryOn(id: string): Promise<string> {
  const res = await apiRequest(`/api/tryons/${encodeURIComponent(id)}/share`, ShareTryOnResponseSchema, {
    method: 'POST',
    fallbackError: WEB_MESSAGES.galleryShareFailed,
  });
  return res.url;
}
