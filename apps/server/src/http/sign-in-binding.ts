/**
 * Email sign-in is bound to the browser that asked for it. `POST /api/auth/email/start` gives the
 * browser a random nonce in an HttpOnly cookie (`aidu_signin`, `__Host-aidu_signin` over https,
 * with the session cookie's other attributes) and the code's row keeps the nonce's SHA-256. A code
 * or link used from a browser without that nonce asks for a confirmation first and never merges
 * what that browser made into the account (`services/accounts.ts`): a link someone sends cannot
 * move a stranger's photos, results or credits into the sender's account.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGN_IN_CODE_TTL_MINUTES } from '@aidressup/contract';
import type { Config } from '../config.js';
import { cookieOptions, servedOverHttps } from './session.js';

const COOKIE = 'aidu_signin';
const NONCE = /^[A-Za-z0-9_-]{43}$/;

function cookieName(request: FastifyRequest, config: Config): string {
  return servedOverHttps(request, config) ? `__Host-${COOKIE}` : COOKIE;
}

function hashOf(nonce: string): string {
  return createHash('sha256').update(`sign-in-binding:${nonce}`).digest('base64url');
}

/** The hash of this browser's sign-in nonce, or null when it holds none (or a malformed one). */
export function signInBinding(request: FastifyRequest, config: Config): string | null {
  const nonce = request.cookies[cookieName(request, config)];
  return nonce && NONCE.test(nonce) ? hashOf(nonce) : null;
}

/**
 * Binds a sign-in to this browser: its nonce (the one it holds, so that two codes asked for from
 * one browser both stay bound to it, else a new one) is set again for the code's lifetime.
 * Returns the nonce's hash, which the code's row keeps.
 */
export function bindSignIn(request: FastifyRequest, reply: FastifyReply, config: Config): string {
  const held = request.cookies[cookieName(request, config)];
  const nonce = held && NONCE.test(held) ? held : randomBytes(32).toString('base64url');
  reply.setCookie(cookieName(request, config), nonce, {
    ...cookieOptions(request, config),
    maxAge: SIGN_IN_CODE_TTL_MINUTES * 60,
  });
  return hashOf(nonce);
}
