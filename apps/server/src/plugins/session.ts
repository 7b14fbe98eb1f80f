/**
 * Sessions: an HttpOnly, signed cookie holding a random session token; the `sessions` table
 * holds its hash and the user. The session is the only key to an account: sign-out and account
 * deletion end it on the server. The cookie's name and attributes are in `http/session.ts`.
 * The signing secret is SESSION_SECRET, or one generated on first run and kept in
 * `$DATA_DIR/session-secret` (mode 600).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import { expireSessionBy, findSession, renewSession } from '../repositories/sessions.js';
import {
  RENEW_AFTER_MS,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  TOKEN_PREFIX,
  loadSessionUser,
  sessionCookieName,
  setSessionCookie,
  startSession,
} from '../http/session.js';
import { isApiRequest } from '../http/paths.js';

/** How long a session replaced by its `__Host-` successor keeps working, for requests already in flight. */
const RENAMED_SESSION_GRACE_MS = 60_000;

/**
 * Resolves the cookie to a database session. Over https the session is in `__Host-aidu_session`;
 * a plain `aidu_session` cookie is honoured there only for a session issued before cookie names
 * were recorded (an upgrade from plain names), and only once: it is replaced by a new session
 * under the `__Host-` name, and the old one ends a minute later. A session issued under the plain
 * name since (say, planted by a page on plain http or a sibling domain) is no session over https.
 * Nothing else opens an account: cookies of the format before database sessions (a signed user
 * id) are refused.
 */
async function resolveSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const name = sessionCookieName(request, app.config);
  let raw = request.cookies[name];
  const renaming = raw === undefined && name !== SESSION_COOKIE && request.cookies[SESSION_COOKIE] !== undefined;
  if (renaming) raw = request.cookies[SESSION_COOKIE];
  if (!raw) return;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value?.startsWith(TOKEN_PREFIX)) return;
  const now = app.clock();
  const token = unsigned.value.slice(TOKEN_PREFIX.length);
  const session = await findSession(app.db, token, now);
  if (!session) return;
  if (renaming) {
    if (session.cookie_name !== null) return;
    await expireSessionBy(app.db, token, new Date(now.getTime() + RENAMED_SESSION_GRACE_MS));
    await startSession(app, request, reply, session.user_id);
    reply.clearCookie(SESSION_COOKIE, { httpOnly: true, path: '/' });
    return;
  }
  request.sessionUserId = session.user_id;
  request.sessionToken = token;
  if (now.getTime() - Date.parse(session.last_seen_at) > RENEW_AFTER_MS) {
    await renewSession(app.db, token, now, SESSION_TTL_MS);
    setSessionCookie(request, reply, app.config, token);
  }
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
      // Only the API needs to know who is asking; static files do not. Asked of the route that
      // matched or the normalised path, never the raw URL (`/%61pi/…` is an API request too).
      if (!isApiRequest(request)) return;
      await resolveSession(app, request, reply);
    });
  },
  { name: 'session', dependencies: ['db'] },
);
