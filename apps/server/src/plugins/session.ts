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
import { findSession, renewSession } from '../repositories/sessions.js';
import { findUserById } from '../repositories/users.js';
import {
  RENEW_AFTER_MS,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  TOKEN_PREFIX,
  loadSessionUser,
  setSessionCookie,
  startSession,
} from '../http/session.js';

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
