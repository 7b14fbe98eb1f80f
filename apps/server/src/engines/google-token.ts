/**
 * Access tokens for a Google service account (the `vertex-tryon` engine), by the OAuth 2.0 JWT
 * bearer flow Google documents for server-to-server applications (RFC 7523): a JWT signed with the
 * key's RS256 private key (`iss` the account's email, `scope` cloud-platform, `aud` the key's
 * `token_uri`, one hour) is posted to that `token_uri` as
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<jwt>`, and the answer's
 * `access_token` is cached until five minutes before its `expires_in`. The request goes through
 * the engine's own capped reader (`upstream.ts`); concurrent callers share one request.
 *
 * Where the assertion may go is checked at start (`config/hosted-engines.ts`): `https` on a Google
 * host, or the origin VERTEX_BASE_URL names (a stand-in).
 */
import { createSign } from 'node:crypto';
import type { ServiceAccountKey } from '../config/hosted-engines.js';
import type { HttpResult } from './hosted-http.js';
import { snippet } from './hosted-http.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google's token endpoint, where a key without a `token_uri` sends its assertion. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_SECONDS = 3600;
const EARLY_REFRESH_MS = 5 * 60_000;

export interface AccessTokens {
  /** A valid bearer token (cached, refreshed before it expires); rejects when none can be had. */
  get(signal?: AbortSignal): Promise<string>;
}

/** One POST of a form, read through the engine's capped reader (its own short deadline). */
export type TokenPost = (url: string, init: RequestInit) => Promise<HttpResult>;

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The signed assertion for `key` at `nowSeconds`. */
export function signedAssertion(key: ServiceAccountKey, nowSeconds: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = {
    iss: key.client_email,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: key.token_uri ?? GOOGLE_TOKEN_URL,
    iat: nowSeconds,
    exp: nowSeconds + ASSERTION_SECONDS,
  };
  const body = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(body).sign(key.private_key);
  return `${body}.${b64url(signature)}`;
}

function refusal(res: HttpResult): Error {
  let why = snippet(res.body, 200);
  try {
    const e = JSON.parse(res.body.toString('utf8')) as { error?: string; error_description?: string };
    if (e.error) why = `${e.error}${e.error_description ? `: ${e.error_description}` : ''}`;
  } catch {
    // not JSON: the snippet says it
  }
  return new Error(`the token endpoint answered HTTP ${res.status}: ${why}`);
}

export function createServiceAccountTokens(
  key: ServiceAccountKey,
  post: TokenPost,
  now: () => number = Date.now,
): AccessTokens {
  const tokenUrl = key.token_uri ?? GOOGLE_TOKEN_URL;
  let cached: { token: string; until: number } | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: JWT_BEARER,
      assertion: signedAssertion(key, Math.floor(now() / 1000)),
    });
    const res = await post(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    if (res.status !== 200) throw refusal(res);
    let answer: { access_token?: unknown; expires_in?: unknown };
    try {
      answer = JSON.parse(res.body.toString('utf8')) as typeof answer;
    } catch {
      throw new Error(`the token endpoint answered with a body that is not JSON: ${snippet(res.body, 200)}`);
    }
    if (typeof answer.access_token !== 'string' || answer.access_token === '')
      throw new Error('the token endpoint answered without an access token');
    const seconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600;
    cached = { token: answer.access_token, until: now() + seconds * 1000 - EARLY_REFRESH_MS };
    return answer.access_token;
  }

  return {
    async get(signal) {
      if (cached && now() < cached.until) return cached.token;
      pending ??= fetchToken().finally(() => {
        pending = undefined;
      });
      const mine = pending;
      mine.catch(() => undefined);
      if (!signal) return mine;
      return Promise.race([
        mine,
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
      ]);
    },
  };
}
