/**
 * Reading a provider's result image from the URL its answer names (Replicate's output files, a
 * Cog server's data URI), with the limits an upload has: at most MAX_UPLOAD_BYTES, and a JPEG,
 * PNG or WEBP by its first bytes. Photos going out as data URIs are kept under a size.
 */
import { MAX_UPLOAD_BYTES, MESSAGES, type HostedInputSpec } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { safeUrl, type HostedCall } from './hosted-call.js';
import { isTransientStatus } from './hosted-http.js';
import { decodeDataUrl, reduceImage, sniffImageType, toDataUrl, type ReducedImage } from './hosted-image.js';

/**
 * Downloads (or decodes) a result image. `auth` goes only to a URL on `authOrigin` (the API's own
 * file links); CDN links get no credentials. Fails with ENGINE_FAILED when the answer is not an
 * image, larger than an upload may be, or not reachable.
 */
export async function readOutputImage(
  call: HostedCall,
  url: string,
  provider: string,
  opts: { authOrigin?: string; auth?: Record<string, string>; maxBytes?: number } = {},
): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const failed = (why: string) =>
    new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, `${provider}: output ${safeUrl(url)} ${why}`);
  let bytes: Buffer;
  const inline = decodeDataUrl(url);
  if (inline) {
    bytes = inline;
  } else {
    let origin: string;
    try {
      const u = new URL(url);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
      origin = u.origin;
    } catch {
      throw failed('is neither an http(s) URL nor a data URI');
    }
    const headers = opts.auth && opts.authOrigin === origin ? opts.auth : {};
    let res;
    try {
      res = await call.fetch(
        url,
        { method: 'GET', headers },
        { maxBytes, shouldRetry: (r) => isTransientStatus(r.status) },
      );
    } catch (err) {
      if (err instanceof EngineError && /answer too large/.test(err.detail ?? ''))
        throw failed(`is larger than an upload may be (${maxBytes} bytes)`);
      throw err;
    }
    if (res.status !== 200) throw failed(`answered HTTP ${res.status}`);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type && !type.startsWith('image/') && type !== 'application/octet-stream')
      throw failed(`is not an image (content-type ${type})`);
    bytes = res.body;
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
