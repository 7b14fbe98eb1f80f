/**
 * Access tokens for a Google service account (the `vertex-tryon` engine), through
 * google-auth-library's JWT client: a signed assertion exchanged at the key's `token_uri` for a
 * bearer token with the cloud-platform scope, cached until shortly before it expires.
 *
 * The library always posts the assertion to Google's own token URL; a key whose `token_uri` names
 * another endpoint (a private Google Cloud universe, the tests' stand-in) has that request sent
 * there instead, through a request interceptor on the client's transport.
 */
import { JWT } from 'google-auth-library';
import type { ServiceAccountKey } from '../config/hosted-engines.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Where google-auth-library sends every service-account assertion. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export interface AccessTokens {
  /** A valid bearer token (cached, refreshed before it expires); rejects when none can be had. */
  get(signal?: AbortSignal): Promise<string>;
}

export function createServiceAccountTokens(key: ServiceAccountKey, timeoutMs = 15_000): AccessTokens {
  const client = new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: key.private_key_id,
    scopes: [CLOUD_PLATFORM_SCOPE],
    transporterOptions: { timeout: timeoutMs },
  });
  const tokenUri = key.token_uri;
  if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL) {
    client.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUri);
        return options;
      },
    });
  }
  return {
    async get(signal) {
      const pending = client.getAccessToken();
      pending.catch(() => undefined);
      const answer = signal
        ? await Promise.race([
            pending,
            new Promise<never>((_, reject) => {
              if (signal.aborted) reject(signal.reason as Error);
              signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
            }),
          ])
        : await pending;
      if (!answer.token) throw new Error('the token endpoint answered without an access token');
      return answer.token;
    },
  };
}
