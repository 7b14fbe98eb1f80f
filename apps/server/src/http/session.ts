/**
 * The session as routes and plugins see it: the cookie (its name, lifetime and attributes), the
 * request's session user, and starting and ending a session. The session plugin
 * (`plugins/session.ts`) resolves the cookie on every API request; routes call these helpers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createSession, deleteSession } from '../repositories/sessions.js';
import { findUserById } from '../repositories/users.js';
import type { UserRow } from '../db/schema.js';

/** The session cookie's name over plain http (local use, the end-to-end tests). */
export const SESSION_COOKIE = 'aidu_session';
/**
 * Its name over https. Browsers accept a `__Host-` cookie only when it is Secure, has Path=/ and
 * no Domain, and was set by a secure page: neither a page on plain http nor a sibling subdomain
 * can plant or overwrite it.
 */
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Sessions last a year and are renewed on use (at most once a day, to spare the database). */
export const SESSION_TTL_MS = ONE_YEAR_S * 1000;
export const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;
/** Cookie values of database sessions start with this. */
export const TOKEN_PREFIX = 's1.';

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
 * True when the product is served over https: an https PUBLIC_URL (whatever the hop in front of
 * the server says), a request that came over https (directly, or through a proxy TRUST_PROXY
 * trusts), or a web app hosted elsewhere (its cross-site cookie must be Secure).
 */
export function servedOverHttps(request: FastifyRequest, config: Config): boolean {
  return (
    config.corsOrigin !== undefined || config.publicUrl?.startsWith('https:') === true || request.protocol === 'https'
  );
}

/** The session cookie's name for this request: `__Host-aidu_session` over https, else `aidu_session`. */
export function sessionCookieName(request: FastifyRequest, config: Config): string {
  return servedOverHttps(request, config) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * The cookie's attributes: HttpOnly, Path=/, no Domain; Secure over https (with the `__Host-`
 * name); SameSite=Lax, or None when a web app hosted elsewhere (CORS_ORIGIN) must send it.
 */
export function cookieOptions(request: FastifyRequest, config: Config) {
  return {
    httpOnly: true,
    sameSite: config.corsOrigin !== undefined ? ('none' as const) : ('lax' as const),
    secure: servedOverHttps(request, config),
    path: '/',
  };
}

/** Sets the session cookie (signed, one year; see `cookieOptions`). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(sessionCookieName(request, config), `${TOKEN_PREFIX}${token}`, {
    ...cookieOptions(request, config),
    signed: true,
    maxAge: ONE_YEAR_S,
  });
}

/** Clears the session cookie, and over https also one of the plain-http name the browser may still hold. */
function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config): void {
  const name = sessionCookieName(request, config);
  reply.clearCookie(name, cookieOptions(request, config));
  if (name !== SESSION_COOKIE && request.cookies[SESSION_COOKIE] !== undefined)
    reply.clearCookie(SESSION_COOKIE, { httpOnly: true, path: '/' });
}

/** Starts a new session for the user, sets its cookie, and makes it this request's session. */
export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const token = await createSession(app.db, {
    userId,
    now: app.clock(),
    ttlMs: SESSION_TTL_MS,
    cookieName: sessionCookieName(request, app.config),
  });
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
