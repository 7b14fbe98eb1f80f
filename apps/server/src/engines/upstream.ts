/**
 * The one reader of what upstreams send: every hosted engine's answers and result files, the
 * model lists and the token endpoint's answers. Two rules hold for all of them:
 *
 * - **Capped while it streams.** A body is read chunk by chunk and the request is aborted (the
 *   socket closed, nothing more buffered) as soon as it passes the limit, whatever
 *   `Content-Length` says or omits. The limit is one figure from configuration
 *   (UPSTREAM_MAX_BYTES, the upload limit by default) for an image; an answer that carries an
 *   image inline as base64 may be a third larger (`answerLimit`).
 * - **Result URLs are followed only where they belong** (`fetchOutput`): a `data:` URI is no
 *   request at all; the engine's own configured origin is trusted (a Cog server on a private
 *   address); anything else must be `https` to a public address, checked after the name is
 *   resolved, on the very connection that is made (the lookup refuses private answers, so a name
 *   that resolves to a public address once and a private one the next time cannot slip through).
 *   Redirects are followed by hand, at most three, each hop under the same rules.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { MAX_UPLOAD_BYTES } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { isLocalName, isPublicAddress } from './public-address.js';

/** The image limit when configuration names none: an upload's (10 MB). */
export const DEFAULT_UPSTREAM_MAX_BYTES = MAX_UPLOAD_BYTES;
/** Redirects followed for a result URL. */
export const MAX_OUTPUT_REDIRECTS = 3;

/** The largest answer that may carry an image of `imageBytes` inline (base64, with JSON around it). */
export function answerLimit(imageBytes: number): number {
  return Math.ceil((imageBytes * 4) / 3) + 1024 * 1024;
}

/** The error of a body past its limit (`detail` names it; the shopper sees the usual failure). */
export class BodyTooLarge extends EngineError {
  constructor(provider: string, limit: number, seen: number) {
    super('ENGINE_FAILED', undefined, `${provider}: answer too large (over ${limit} bytes; ${seen} read)`);
  }
}

/**
 * Reads a response's body, at most `maxBytes`. Past the limit (declared or read) it cancels the
 * body, calls `abort` (which must close the connection: the request's abort signal) and throws
 * BodyTooLarge. Nothing beyond the limit is kept.
 */
export async function readCapped(
  res: Response,
  maxBytes: number,
  abort: () => void,
  provider: string,
): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    abort();
    throw new BodyTooLarge(provider, maxBytes, declared);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      abort();
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(provider, maxBytes, total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Why a URL may not be fetched, or undefined when it may (before any connection). */
export function outputUrlRefusal(url: URL, ownOrigins: readonly string[]): string | undefined {
  if (ownOrigins.includes(url.origin)) return undefined;
  if (url.protocol !== 'https:') return `${url.protocol.replace(':', '')} is allowed only to the engine's own origin`;
  if (url.username || url.password) return 'credentials in the URL';
  const host = url.hostname;
  const literal = host.startsWith('[') || /^[\d.]+$/.test(host);
  if (literal) return isPublicAddress(host) ? undefined : `${host} is not a public address`;
  if (isLocalName(host)) return `${host} names a local host`;
  return undefined;
}

/**
 * A DNS lookup that answers only public addresses: a name resolving to any private, loopback or
 * link-local address fails (ENOTPUBLIC) before anything connects.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list: LookupAddress[] = addresses;
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (list.length === 0 || refused) {
      const e = Object.assign(
        new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
        {
          code: 'ENOTPUBLIC',
        },
      );
      return callback(e, '', 0);
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;
let publicFetch: Promise<FetchLike> | undefined;

/**
 * fetch for URLs outside the engine's own origin: its connections resolve names through
 * `publicOnlyLookup` (undici's Agent, loaded on first use), redirects are not followed by it.
 */
export function publicOnlyFetch(): Promise<FetchLike> {
  publicFetch ??= import('undici').then(({ Agent, fetch }) => {
    const dispatcher = new Agent({ connect: { lookup: publicOnlyLookup } });
    const guarded: FetchLike = (input, init) =>
      fetch(input, { ...init, dispatcher } as Parameters<typeof fetch>[1]) as unknown as Promise<Response>;
    return guarded;
  });
  return publicFetch;
}
