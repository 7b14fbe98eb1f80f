/**
 * Sessions: an HttpOnly, signed cookie holding a random session token; the `sessions` table
 * holds its hash and the user. The session is the only key to an account: sign-out and account
 * deletion end it on the server.
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
import { createSession, deleteSession, findSession, renewSession } from '../repositories/sessions.js';
import { findUserById } from '../repositories/users.js';
import type { UserRow } from '../db/schema.js';

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
  if (secret.length < 32)
    throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  return secret;
}

/** Sessions last a year and are renewed on use (at most once a day, to spare the database). */
export const SESSION_TTL_MS = ONE_YEAR_S * 1000;
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;
/** Cookie values of database sessions start with this; older cookies held a signed user id. */
const TOKEN_PREFIX = 's1.';

declare module 'fastify' {
  interface FastifyInstance {
    /** Route hook (preHandler): loads the session's user into `request.user`, or 401 UNAUTHORIZED. */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** The user of the request's valid session, resolved once per request (null: none). */
    sessionUserId: string | null;
    /** The session token from the cookie, when the session is valid. */
    sessionToken: string | null;
    /** The session's user, loaded by the `requireUser` pre-handler (null on routes without it). */
    user: UserRow | null;
  }
}

/** The user id of the request's valid session, or null. */
export function sessionUserId(request: FastifyRequest): string | null {
  return request.sessionUserId;
}

/** The session's user id; 401 UNAUTHORIZED without a valid session. */
export function requireSessionUserId(request: FastifyRequest): string {
  const id = request.sessionUserId;
  if (!id) throw new AppError('UNAUTHORIZED');
  return id;
}

/**
 * Route hook (preValidation): 401 UNAUTHORIZED without a valid session. As a preValidation hook it
 * refuses an anonymous request before the route's schema looks at its body or parameters.
 */
export async function requireSession(request: FastifyRequest): Promise<void> {
  requireSessionUserId(request);
}

/**
 * Loads the session's user into `request.user`: 401 UNAUTHORIZED without a valid session, or when
 * the session's user no longer exists.
 */
export async function loadSessionUser(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const user = await findUserById(app.db, requireSessionUserId(request));
  if (!user) throw new AppError('UNAUTHORIZED');
  request.user = user;
  return user;
}

/** The user loaded by `requireUser` (401 UNAUTHORIZED if the route has not loaded one). */
export function userOf(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}

/**
 * Sets the session cookie: HttpOnly, signed, SameSite=Lax (None with a separately hosted web
 * app), and Secure whenever the request came over HTTPS, directly or through a trusted proxy.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string): void {
  const crossSite = config.corsOrigin !== undefined;
  reply.setCookie(SESSION_COOKIE, `${TOKEN_PREFIX}${token}`, {
    signed: true,
    httpOnly: true,
    sameSite: crossSite ? 'none' : 'lax',
    secure: crossSite || request.protocol === 'https',
    path: '/',
    maxAge: ONE_YEAR_S,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config): void {
  const crossSite = config.corsOrigin !== undefined;
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: crossSite ? 'none' : 'lax',
    secure: crossSite || request.protocol === 'https',
    path: '/',
  });
}

/** Starts a new session for the user, sets its cookie, and makes it this request's session. */
export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const token = await createSession(app.db, { userId, now: app.clock(), ttlMs: SESSION_TTL_MS });
  setSessionCookie(request, reply, app.config, token);
  request.sessionUserId = userId;
  request.sessionToken = token;
}

/** Ends the request's session in the database and in the browser. */
export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.sessionToken) await deleteSession(app.db, request.sessionToken);
  clearSessionCookie(request, reply, app.config);
  request.sessionUserId = null;
  request.sessionToken = null;
}

/** Resolves the cookie to a session: a database session, or a cookie of the older kind upgraded to one. */
async function resolveSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.cookies[SESSION_COOKIE];
  if (!raw) return;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return;
  const now = app.clock();
  if (unsigned.value.startsWith(TOKEN_PREFIX)) {
    const token = unsigned.value.slice(TOKEN_PREFIX.length);
    const session = await findSession(app.db, token, now);
    if (!session) return;
    request.sessionUserId = session.user_id;
    request.sessionToken = token;
    if (now.getTime() - Date.parse(session.last_seen_at) > RENEW_AFTER_MS) {
      await renewSession(app.db, token, now, SESSION_TTL_MS);
      setSessionCookie(request, reply, app.config, token);
    }
    return;
  }
  // A cookie from before database sessions: a signed user id. It keeps working once, by
  // becoming a database session for a user that still exists.
  const user = await findUserById(app.db, unsigned.value);
  if (!user || user.deleted_at !== null || user.merged_into !== null) return;
  await startSession(app, request, reply, user.id);
}

export default fp(
  async function sessionPlugin(app: FastifyInstance, opts: { secret: string }) {
    await app.register(cookie, { secret: opts.secret, hook: 'onRequest' });
    app.decorateRequest('sessionUserId', null);
    app.decorateRequest('sessionToken', null);
    app.decorateRequest('user', null);
    /** Route hook (preHandler): the session's user must still exist; it is then `request.user`. */
    app.decorate('requireUser', async function requireUser(request: FastifyRequest) {
      await loadSessionUser(app, request);
    });
    app.addHook('onRequest', async (request, reply) => {
      // Only the API and the share pages need to know who is asking; static files do not.
      if (!request.url.startsWith('/api/')) return;
      await resolveSession(app, request, reply);
    });
  },
  { name: 'session', dependencies: ['db'] },
);
