import { TryOnProgressEventSchema, type TryOnProgressEvent } from '@aidressup/contract';
import { apiUrl } from '../../../lib/api-client';

/** Gives up after this many connection errors in a row (the stream is optional). */
const MAX_ERRORS = 3;

/**
 * Listens to GET /api/tryon-progress/{progressId} (Server-Sent Events, same origin, cookies).
 * Optional: when the stream errors or never delivers, nothing happens and the try-on's own answer
 * decides. Closes itself after `done` or `failed`; the returned function closes it.
 */
export function openProgressStream(progressId: string, onEvent: (event: TryOnProgressEvent) => void): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource;
  try {
    source = new EventSource(apiUrl(`/api/tryon-progress/${encodeURIComponent(progressId)}`), {
      withCredentials: true,
    });
  } catch {
    return () => undefined;
  }
  let errors = 0;
  source.onmessage = (e: MessageEvent<string>) => {
    errors = 0;
    let data: unknown;
    try {
      data = JSON.parse(e.data);
    } catch {
      return;
    }
    const parsed = TryOnProgressEventSchema.safeParse(data);
    if (!parsed.success) return;
    onEvent(parsed.data);
    if (parsed.data.stage === 'done' || parsed.data.stage === 'failed') source.close();
  };
  source.onerror = () => {
    errors += 1;
    if (source.readyState === EventSource.CLOSED || errors >= MAX_ERRORS) source.close();
  };
  return () => source.close();
}

/** A random UUID v4 for the try-on's progress (crypto.randomUUID needs a secure context). */
export function makeProgressId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
