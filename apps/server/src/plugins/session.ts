/**
 * Sessions: an HttpOnly, signed cookie holding the user id, set at anonymous sign-in.
 * The signing secret is SESSION_SECRET, or one generated on first run and kept in
 * `$DATA_DIR/session-secret` (mode 600).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

export const SESSION_COOKIE = 'aidu_session';
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** SESSION_SECRET, or the secret kept in the data folder (created on first run). */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'session-secret');
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  return secret;
}

/** The user id of the request's valid session cookie, or null. */
export function sessionUserId(request: FastifyRequest): string | null {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** The session's user id; 401 UNAUTHORIZED without a valid session. */
export function requireSessionUserId(request: FastifyRequest): string {
  const id = sessionUserId(request);
  if (!id) throw new AppError('UNAUTHORIZED');
  return id;
}

export function setSessionCookie(reply: FastifyReply, config: Config, userId: string): void {
  const crossSite = config.corsOrigin !== undefined;
  reply.setCookie(SESSION_COOKIE, userId, {
    signed: true,
    httpOnly: true,
    sameSite: crossSite ? 'none' : 'lax',
    secure: crossSite || (config.publicUrl?.startsWith('https:') ?? false),
    path: '/',
    maxAge: ONE_YEAR_S,
  });
}

export default fp(
  async function sessionPlugin(app: FastifyInstance, opts: { secret: string }) {
    await app.register(cookie, { secret: opts.secret, hook: 'onRequest' });
  },
  { name: 'session' },
);
