import { WEB_MESSAGES, type KeptPhoto } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** GET /api/photos: the session user's kept person photos, most recently used first. */
export async function listPhotos(signal?: AbortSignal): Promise<KeptPhoto[]> {
  const res = await apiRequest(
    '/api/photos',
    loadResponseSchemas().then((s) => s.ListPhotosResponseSchema),
    {
      ...(signal ? { signal } : {}),
      fallbackError: WEB_MESSAGES.photosFailed,
    },
  );
  return res.photos;
}
