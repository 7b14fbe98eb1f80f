/**
 * The frame's two calls (docs/embed.md). No cookies: the embed session's token goes in
 * `Authorization: Bearer`, so the frame works where a browser blocks third-party cookies.
 */
import {
  EmbedSessionResponseSchema,
  EmbedTryOnResponseSchema,
  type EmbedSessionResponse,
  type EmbedTryOnResponse,
} from '@aidressup/contract';
import type { z } from 'zod';
import { ApiError, apiUrl } from '../../../lib/api-client';

async function call<S extends z.ZodType>(path: string, schema: S, init: RequestInit): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path), { ...init, credentials: 'omit' });
  } catch {
    throw new ApiError('', 0, 'NETWORK', undefined);
  }
  const data: unknown = await res.json().catch(() => undefined);
  const body = (data ?? {}) as { success?: unknown; error?: unknown; code?: unknown };
  if (!res.ok || body.success === false) {
    throw new ApiError(
      typeof body.error === 'string' ? body.error : '',
      res.status,
      typeof body.code === 'string' ? body.code : undefined,
      data,
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError('', res.status, 'INVALID_RESPONSE', data);
  return parsed.data;
}

/** POST /api/embed/session: a short-lived token for the shop page at `origin`. */
export function openEmbedSession(key: string, origin: string): Promise<EmbedSessionResponse> {
  return call('/api/embed/session', EmbedSessionResponseSchema, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ key, origin }),
  });
}

/**
 * POST /api/embed/tryon: the shopper's photo and the garment, paid by the shop; with the garment
 * image's address in the shop's page, which the server records only if it refuses that image.
 */
export function embedTryOn(
  token: string,
  input: { person: Blob; garment: Blob; category: string; garmentUrl?: string | null },
  signal: AbortSignal,
): Promise<EmbedTryOnResponse> {
  const form = new FormData();
  form.append('category', input.category);
  if (input.garmentUrl) form.append('garmentUrl', input.garmentUrl);
  form.append('userImage', input.person, 'photo');
  form.append('clothingImage', input.garment, 'garment');
  return call('/api/embed/tryon', EmbedTryOnResponseSchema, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    body: form,
    signal,
  });
}
