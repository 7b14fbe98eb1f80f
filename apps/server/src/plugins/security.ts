/**
 * Abuse and safety (docs/architecture.md, "15. Abuse limits and security headers"): Helmet headers with a CSP that admits Paddle, a global rate
 * limit per IP, per-route limits per IP and per user, and CORS for CORS_ORIGIN only. HSTS only
 * over https. Requests from other sites are refused earlier, by `cross-site.ts`.
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
import { isApiRequest } from '../http/paths.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** An onRequest hook limiting a route per IP and (when signed in) per user. */
    perRouteLimit(name: string, perMinute: number): onRequestAsyncHookHandler;
  }
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

    await app.register(rateLimit, {
      global: true,
      max: config.rateLimits.globalPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => req.ip,
      // The web app's own files are cheap and cached: only the API counts, under any spelling.
      allowList: (req: FastifyRequest) => !isApiRequest(req),
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
        reply.header('access-control-allow-methods', 'GET, HEAD, POST, PATCH, DELETE, OPTIONS');
        reply.header('access-control-allow-headers', 'content-type');
        reply.header('access-control-max-age', '600');
        return reply.status(204).send();
      });
    }
  },
  { name: 'security', dependencies: ['session', 'redis'] },
);
