import { TryOnListResponseSchema, WEB_MESSAGES, type TryOnItem } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/tryons: the session user's results, newest first. */
export async function getTryOns(signal?: AbortSignal): Promise<TryOnItem[]> {
  const res = await apiRequest('/api/tryons', TryOnListResponseSchema, {
    fallbackError: WEB_MESSAGES.galleryFailed,
    ...(signal ? { signal } : {}),
  });
  return [...res.items].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
