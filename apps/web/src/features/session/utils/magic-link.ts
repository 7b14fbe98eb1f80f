import { EmailSchema } from '@aidressup/contract';

export interface MagicLink {
  email: string;
  token: string;
}

const TOKEN = /^[A-Za-z0-9_-]{32,64}$/;

/**
 * Reads `#email=<urlencoded>&token=<token>` (the fragment of the mailed magic link, which never
 * reaches the server's logs). Returns null when either part is missing or malformed.
 */
export function parseMagicLinkFragment(hash: string): MagicLink | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!raw) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return null;
  }
  const email = EmailSchema.safeParse(params.get('email') ?? '');
  const token = (params.get('token') ?? '').trim();
  if (!email.success || !TOKEN.test(token)) return null;
  return { email: email.data, token };
}

/** The email of a fragment even when its token is unusable (to offer a new code for it). */
export function emailFromFragment(hash: string): string | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  try {
    const email = EmailSchema.safeParse(new URLSearchParams(raw).get('email') ?? '');
    return email.success ? email.data : null;
  } catch {
    return null;
  }
}
