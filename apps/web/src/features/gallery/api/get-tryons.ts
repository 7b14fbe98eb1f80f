import { TryOnListResponseSchema, WEB_MESSAGES, type TryOnListResponse } from '@aidressup/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/tryons: a page of the session user's results, newest first; `before` is the previous page's `nextCursor`. */
export async function getTryOns(before: string | null, signal?: AbortSignal): Promise<TryOnListResponse> {
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  return apiRequest(`/api/tryons${query}`, TryOnListResponseSchema, {
    fallbackError: WEB_MESSAGES.galleryFailed,
    ...(signal ? { signal } : {}),
  });
}
