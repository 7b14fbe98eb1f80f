/** Reads a Server-Sent Events stream (the try-on progress) with fetch, for tests on a listening server. */
import { TryOnProgressEventSchema, type TryOnProgressEvent } from '@aidressup/contract';

export interface SseStream {
  status: number;
  headers: Headers;
  /** Events so far (data lines parsed). */
  events: TryOnProgressEvent[];
  comments: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens an SSE stream with fetch and collects its events until the server ends it. */
export async function openStream(url: string, cookie: string): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  const events: TryOnProgressEvent[] = [];
  const comments: string[] = [];
  let ended: Promise<void> = Promise.resolve();
  if (res.status === 200 && res.body) {
    ended = (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            for (const line of block.split('\n')) {
              if (line.startsWith('data: ')) events.push(TryOnProgressEventSchema.parse(JSON.parse(line.slice(6))));
              else if (line.startsWith(':')) comments.push(line.slice(1).trim());
            }
          }
        }
      } catch {
        // aborted by the test
      }
    })();
  } else {
    await res.text();
  }
  return { status: res.status, headers: res.headers, events, comments, ended, close: () => controller.abort() };
}
