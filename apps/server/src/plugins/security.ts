/**
 * Abuse and safety (docs/architecture.md, "15. Abuse limits and security headers"): Helmet headers with a CSP that admits Paddle, a global rate
 * limit per IP, per-route limits per IP and per user, CORS for CORS_ORIGIN only, and no
 * state-changing API request from another site (`refuseCrossSite`). HSTS only over https.
 * With REDIS_URL the limits' counters live in Redis, so API instances share one limit; a limit
 * that cannot be checked while Redis is away lets the request through (and logs it).
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { sessionUserId } from '../http/session.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** An onRequest hook limiting a route per IP and (when signed in) per user. */
    perRouteLimit(name: string, perMinute: number): onRequestAsyncHookHandler;
  }
  interface FastifyContextConfig {
    /**
     * The route takes state-changing requests from any site: only for requests that prove
     * themselves without a cookie (a signed webhook). Every other /api/ route refuses them.
     */
    anySite?: boolean;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether an Origin header names the host the request was sent to (the same scheme's default port counts). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (!host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  return URL.canParse(`${url.protocol}//${host}`) && new URL(`${url.protocol}//${host}`).host === url.host;
}

/**
 * An onRequest hook: a state-changing request (POST, PUT, PATCH, DELETE) to any /api/ route,
 * present or future, is refused with 403 CROSS_SITE_REQUEST when its Origin is neither the
 * product's own (PUBLIC_URL; without it, the host the request was sent to) nor CORS_ORIGIN, or,
 * without an Origin, when the browser says `Sec-Fetch-Site: cross-site`. A route marked
 * `config.anySite` (the signed Paddle webhook) is exempt. Requests without either header (curl,
 * servers) carry no shopper's cookie by accident and pass.
 */
export function refuseCrossSite(config: Config): onRequestAsyncHookHandler {
  const allowed = new Set(
    [config.publicUrl, config.corsOrigin].filter((u): u is string => u !== undefined).map((u) => new URL(u).origin),
  );
  return async (request) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.anySite === true) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (allowed.has(origin)) return;
      if (config.publicUrl === undefined && sameHost(origin, request.headers.host)) return;
      throw new AppError('CROSS_SITE_REQUEST');
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('CROSS_SITE_REQUEST');
  };
}

/** HSTS: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether the request is known to have come over https, for HSTS: directly over TLS or through a
 * trusted proxy that says so; without TRUST_PROXY, an https PUBLIC_URL says the product is served
 * over https (a TLS proxy in front).
 */
function cameOverHttps(request: FastifyRequest, config: Config): boolean {
  if (request.protocol === 'https') return true;
  return config.trustProxy === false && config.publicUrl?.startsWith('https:') === true;
}

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://cdn.paddle.com'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'https://*.paddle.com'],
  frameSrc: ['https://*.paddle.com'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
};

export default fp(
  async function security(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          ...CONTENT_SECURITY_POLICY,
          ...(config.publicUrl?.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Results are shown by a web app on another origin when CORS_ORIGIN is set.
      crossOriginResourcePolicy: { policy: config.corsOrigin ? 'cross-origin' : 'same-origin' },
      crossOriginEmbedderPolicy: false,
      // Sent below, and only over https: a browser must never take it from a plain-http answer.
      strictTransportSecurity: false,
    });
    app.addHook('onSend', async (request, reply) => {
      if (cameOverHttps(request, config)) reply.header('strict-transport-security', HSTS);
    });

    app.addHook('onRequest', refuseCrossSite(config));

    await app.register(rateLimit, {
      global: true,
      max: config.rateLimits.globalPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => req.ip,
      // The web app's own files are cheap and cached: only the API counts.
      allowList: (req: FastifyRequest) => !req.url.startsWith('/api/'),
      errorResponseBuilder: () => new AppError('RATE_LIMITED'),
      ...(app.redis ? { redis: app.redis, nameSpace: 'aidressup:rate-limit:', skipOnError: true } : {}),
    });

    app.decorate('perRouteLimit', (name: string, perMinute: number) => {
      const byIp = app.createRateLimit({
        max: perMinute,
        timeWindow: 60_000,
        keyGenerator: (req) => `${name}:ip:${req.ip}`,
      });
      const byUser = app.createRateLimit({
        max: perMinute,
        timeWindow: 60_000,
        keyGenerator: (req) => `${name}:user:${sessionUserId(req) ?? `anon:${req.ip}`}`,
      });
      const hook: onRequestAsyncHookHandler = async (request) => {
        for (const limiter of [byIp, byUser]) {
          const r = await limiter(request);
          if (!r.isAllowed && r.isExceeded) throw new AppError('RATE_LIMITED');
        }
      };
      return hook;
    });

    if (config.corsOrigin) {
      const origin = new URL(config.corsOrigin).origin;
      app.addHook('onRequest', async (request, reply) => {
        if (request.headers.origin !== origin) return;
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-allow-credentials', 'true');
        reply.header('vary', 'Origin');
      });
      app.options('/api/*', { config: { rateLimit: false } }, async (request, reply) => {
        if (request.headers.origin !== origin) return reply.status(204).send();
        reply.header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
        reply.header('access-control-allow-headers', 'content-type');
        reply.header('access-control-max-age', '600');
        return reply.status(204).send();
      });
    }
  },
  { name: 'security', dependencies: ['session', 'redis'] },
);
