/** The widget's try-on call: the form it posts, and a busy answer's ticket sent back with the next one. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { embedTryOn } from './embed-api';

const TICKET = 'abcdefghijklmnop_TICKET';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('embedTryOn', () => {
  it('posts the photos, the category and, when given, the line ticket with the bearer token; a busy answer is an ApiError with its ticket', async () => {
    const forms: FormData[] = [];
    const answers = [
      new Response(
        JSON.stringify({
          success: false,
          code: 'ENGINE_BUSY',
          error: MESSAGES.engineBusy,
          place: 2,
          retryAfterSeconds: 3,
          ticket: TICKET,
        }),
        { status: 503, headers: { 'content-type': 'application/json' } },
      ),
      new Response(JSON.stringify({ success: true, imageUrl: '/api/results/r.png', tryonId: 't1', expiresAt: 'x' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    ];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      forms.push(init.body as FormData);
      expect(new Headers(init.headers).get('authorization')).toBe('Bearer es_token');
      expect(init.credentials).toBe('omit');
      return answers.shift()!;
    });
    vi.stubGlobal('fetch', fetchMock);
    const input = { person: new Blob(['p']), garment: new Blob(['g']), category: 'dresses' };

    const busy = await embedTryOn('es_token', input, new AbortController().signal).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiError);
    expect((busy as ApiError).code).toBe('ENGINE_BUSY');
    expect((busy as ApiError).body).toMatchObject({ ticket: TICKET, place: 2 });
    expect(forms[0]!.get('lineTicket')).toBeNull();
    expect(forms[0]!.get('category')).toBe('dresses');

    const done = await embedTryOn('es_token', { ...input, lineTicket: TICKET }, new AbortController().signal);
    expect(done.imageUrl).toBe('/api/results/r.png');
    expect(forms[1]!.get('lineTicket')).toBe(TICKET);
    expect(forms[1]!.get('userImage')).toBeInstanceOf(Blob);
    expect(forms[1]!.get('clothingImage')).toBeInstanceOf(Blob);
  });
});
