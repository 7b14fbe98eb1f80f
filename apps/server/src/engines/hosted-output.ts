/**
 * Reading a provider's result image from the URL its answer names (every hosted engine's output
 * files, a Cog server's data URI), with the limits an upload has: at most the configured image
 * limit (capped while it streams), a JPEG, PNG or WEBP by its first bytes, and only from where it
 * belongs (`upstream.ts`). Photos going out as data URIs are kept under a size.
 */
import { MESSAGES, type HostedInputSpec } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { safeUrl, type HostedCall } from './hosted-call.js';
import { isTransientStatus } from './hosted-http.js';
import { decodeDataUrl, reduceImage, sniffImageType, toDataUrl, type ReducedImage } from './hosted-image.js';
import { BodyTooLarge, MAX_OUTPUT_REDIRECTS, outputUrlRefusal, publicOnlyFetch } from './upstream.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface OutputSource {
  /** The engine's own configured origin(s): trusted whatever the address (a Cog server on a private one). */
  ownOrigins: readonly string[];
  /** Sent only to a URL on `authOrigin` (the API's own file links); CDN links get no credentials. */
  authOrigin?: string;
  auth?: Record<string, string>;
}

/**
 * Downloads (or decodes) a result image. Fails with ENGINE_FAILED (the try-on is refunded, the
 * detail logged with the engine) when the URL is not one it may follow (`outputUrlRefusal`,
 * re-checked at every redirect, at most MAX_OUTPUT_REDIRECTS), when the answer is not an image,
 * larger than the limit, or not reachable.
 */
export async function readOutputImage(
  call: HostedCall,
  url: string,
  provider: string,
  source: OutputSource,
): Promise<Buffer> {
  const maxBytes = call.maxBytes;
  const trusted = [...source.ownOrigins, ...call.outputOrigins];
  const failed = (why: string, at = url) =>
    new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, `${provider}: output ${safeUrl(at)} ${why}`);
  const inline = decodeDataUrl(url);
  let bytes: Buffer;
  if (inline) {
    bytes = inline;
  } else {
    let current: URL;
    try {
      current = new URL(url);
      if (current.protocol !== 'https:' && current.protocol !== 'http:') throw new Error('scheme');
    } catch {
      throw failed('is neither an http(s) URL nor a data URI');
    }
    for (let hop = 0; ; hop++) {
      const refusal = outputUrlRefusal(current, trusted);
      if (refusal) throw failed(`refused before connecting: ${refusal}`, current.href);
      const own = trusted.includes(current.origin);
      const headers = source.auth && source.authOrigin === current.origin ? source.auth : {};
      let res;
      try {
        res = await call.fetch(
          current.href,
          { method: 'GET', headers, redirect: 'manual' },
          {
            maxBytes,
            shouldRetry: (r) => isTransientStatus(r.status),
            ...(own ? {} : { fetch: await publicOnlyFetch() }),
          },
        );
      } catch (err) {
        if (err instanceof BodyTooLarge)
          throw failed(`is larger than an upload may be (${maxBytes} bytes)`, current.href);
        throw err;
      }
      if (REDIRECTS.has(res.status)) {
        const location = res.headers.get('location');
        if (!location) throw failed(`answered HTTP ${res.status} without a Location`, current.href);
        if (hop >= MAX_OUTPUT_REDIRECTS)
          throw failed(`redirected more than ${MAX_OUTPUT_REDIRECTS} times`, current.href);
        try {
          current = new URL(location, current);
        } catch {
          throw failed('redirected to an address that is not a URL', current.href);
        }
        continue;
      }
      if (res.status !== 200) throw failed(`answered HTTP ${res.status}`, current.href);
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type && !type.startsWith('image/') && type !== 'application/octet-stream')
        throw failed(`is not an image (content-type ${type})`, current.href);
      bytes = res.body;
      break;
    }
  }
  if (bytes.length > maxBytes) throw failed(`is larger than an upload may be (${bytes.length} bytes)`);
  if (!sniffImageType(bytes)) throw failed('is not a JPEG, PNG or WEBP image');
  return bytes;
}

/**
 * A photo as a data URI no longer than `maxChars`: reduced to `spec`, and when that is still too
 * long, again at three quarters of the size and lower quality.
 */
export async function photoDataUrl(
  photo: Uint8Array,
  spec: HostedInputSpec,
  maxChars: number,
): Promise<{ url: string; image: ReducedImage }> {
  let image = await reduceImage(photo, spec);
  let url = toDataUrl(image);
  let side = spec.maxSide;
  let quality = spec.jpegQuality;
  while (url.length > maxChars && side > 512) {
    side = Math.max(512, Math.round(side * 0.75));
    quality = Math.max(70, quality - 8);
    image = await reduceImage(image.data, {
      minSide: Math.min(spec.minSide, side),
      maxSide: side,
      jpegQuality: quality,
    });
    url = toDataUrl(image);
  }
  return { url, image };
}
