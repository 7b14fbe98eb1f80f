/**
 * Paths that more than a route needs to know (the metrics plugin labels them), and the one place
 * that decides which path a request is for (docs/architecture.md, "15. Abuse limits and security
 * headers"). The router decodes a path before it matches, so `/%61pi/auth/logout` is
 * `/api/auth/logout` to it; the cross-site check, the session and the rate limit therefore ask
 * `isApiRequest` (the route that matched, or the decoded, normalised path), never the raw URL, and
 * an API path not written in its one canonical spelling is refused before any of them
 * (`plugins/canonical-paths.ts`).
 */
import type { FastifyRequest } from 'fastify';

/** Where Paddle sends its notifications (set in Paddle's dashboard; docs/paddle.md). */
export const PADDLE_WEBHOOK_PATH = '/api/webhooks/paddle';

/** Percent-decodes until nothing changes (double encoding included); a broken escape is left as it is. */
function decodeFully(text: string): string {
  let current = text;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * A request target's path as every parser would agree on it: without the scheme and host of an
 * absolute-form target, the query and fragment; percent-decoded (repeatedly); backslashes as
 * slashes; empty, `.` and `..` segments resolved; `;` parameters dropped; lower case; no trailing
 * slash. `/%61pi//auth/./Logout;x/` → `/api/auth/logout`.
 */
export function normalisedPath(target: string): string {
  let path = target;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length);
  path = path.split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const raw of decodeFully(path).replace(/\\/g, '/').split('/')) {
    const segment = raw.split(';', 1)[0]!.trim().toLowerCase();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Whether a request is for the API: the route that matched is an /api/ route, or, matched or not,
 * its normalised path is under /api. Either suffices, so no spelling of an API path escapes the
 * checks that depend on it.
 */
export function isApiRequest(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): boolean {
  const route = request.routeOptions.url;
  return (route !== undefined && isApiPath(route)) || isApiPath(normalisedPath(request.url));
}

/**
 * The one spelling of an API path: `/api` then non-empty segments of letters, digits and `-._~`
 * (every route's words, ids, tokens and file names), none `.` or `..`, no trailing slash, and a
 * query at most. No percent escapes, no `;`, no backslash, no absolute form.
 */
const CANONICAL_API_TARGET = /^\/api(?:\/(?!\.{1,2}(?:[/?]|$))[A-Za-z0-9._~-]+)+(?:\?.*)?$/;

/** Whether an API request's target (`request.url`) is written in its canonical spelling. */
export function isCanonicalApiTarget(target: string): boolean {
  return CANONICAL_API_TARGET.test(target);
}
