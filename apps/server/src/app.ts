/**
 * Builds the Fastify app: the OpenAPI document, plugins (database, storage, engines, session,
 * security, errors), then routes, then the web app. `server.ts` listens; tests use `app.inject`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TryOnEngine } from '@aidressup/engine';
import type { Config } from './config.js';
import type { Storage } from './storage/storage.js';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.js';
import dbPlugin from './plugins/db.js';
import storagePlugin from './plugins/storage.js';
import sessionPlugin from './plugins/session.js';
import { resolveSessionSecret } from './config/session-secret.js';
import securityPlugin from './plugins/security.js';
import crossSitePlugin from './plugins/cross-site.js';
import canonicalPathsPlugin from './plugins/canonical-paths.js';
import connectionLimitsPlugin from './plugins/connection-limits.js';
import closingPlugin from './plugins/closing.js';
import errorHandlerPlugin from './plugins/error-handler.js';
import openapiPlugin from './plugins/openapi.js';
import webPlugin from './plugins/web.js';
import tryOnPlugin from './plugins/tryon.js';
import recoveryPlugin from './plugins/recovery.js';
import metricsPlugin from './plugins/metrics.js';
import redisPlugin from './plugins/redis.js';
import { redisRunLock } from './redis/lock.js';
import authRoutes from './routes/auth.js';
import accountRoutes from './routes/account.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import processImageRoute from './routes/tryons/process-image.js';
import photoRoutes from './routes/photos.js';
import resultRoutes from './routes/tryons/results.js';
import galleryRoutes from './routes/tryons/gallery.js';
import rerunRoute from './routes/tryons/rerun.js';
import lineRoutes from './routes/tryons/line.js';
import progressRoutes from './routes/tryons/progress.js';
import sharePageRoutes from './routes/share-pages.js';
import garmentRoutes from './routes/garments.js';
import demoBillingRoutes from './routes/billing-demo.js';
import metaRoutes from './routes/meta.js';
import reportRoutes from './routes/tryons/report.js';
import adminUserRoutes from './routes/admin/users.js';
import adminReportRoutes from './routes/admin/reports.js';
import adminStatsRoutes from './routes/admin/stats.js';
import adminMerchantRoutes from './routes/admin/merchants.js';
import embedRoutes from './routes/embed.js';
import blockedPlugin from './plugins/blocked.js';
import { paddleWebhookRoutes } from './routes/webhooks-paddle.js';
import { scheduleRetention } from './services/retention.js';
import { reportBadMerchantOrigins } from './services/merchants.js';
import { loggerOptions, newRequestId } from './logging.js';
import progressPlugin, { type ProgressPluginOptions } from './plugins/progress.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: () => Date;
    engines: EngineRegistry;
    sessionSecret: string;
    mailer: Mailer;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** Engines to use instead of the ones configuration enables (tests, benchmarks). */
  engines?: Record<string, TryOnEngine>;
  /** The time source; default the system clock. */
  clock?: () => Date;
  /** Storage to use instead of the configured one. */
  storage?: Storage;
  /** Where the built web app is; default `apps/web/dist`. */
  webDistDir?: string;
  /** Mail to use instead of the configured one (tests). */
  mailer?: Mailer;
  /** Start background work (engine warm-up, retention schedule, recovery sweep); default true. */
  background?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** Timings of the try-on progress streams (tests shorten them). */
  progress?: ProgressPluginOptions;
}

/** Log addresses are keyed hashes (the rule and the function live with the shared logger options). */
export { logAddressHash } from './logging.js';

/**
 * Fastify's `trustProxy` from TRUST_PROXY. A hop count becomes "trust the nearest N hops" (this
 * Fastify trusts nothing for a bare number); a list goes to proxy-addr as addresses and CIDRs.
 */
export function trustProxyOption(
  trustProxy: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') {
    const hops = trustProxy;
    return (_address, hop) => hop < hops;
  }
  return trustProxy;
}

/**
 * The HTTP server's timeouts. A request must arrive whole (headers and body) within
 * REQUEST_TIMEOUT_MS, else 408 and the connection closes: a body trickled in a byte at a time
 * holds a connection no longer than that. The answer's time is not counted (a try-on may take
 * 100 s, a progress stream longer). The headers must arrive within the same time or 60 s,
 * whichever is shorter (Node swaps the two when the headers' is the longer, which would let a
 * body take the headers' time). Node checks the open connections at an interval: a quarter of
 * the timeout, at most 5 s. An idle kept-alive connection closes after KEEP_ALIVE_TIMEOUT_MS.
 */
export function serverTimeouts(config: Config) {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(config.requestTimeoutMs / 4))),
    },
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const sessionSecret = resolveSessionSecret(config);
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            // The same options as the workers' and the hosted engines' loggers.
            ...loggerOptions(config, { addressKey: sessionSecret }),
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // Unique across processes: a queued try-on's worker lines carry the same id.
    genReqId: () => newRequestId(),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    // Starting waits for the database's migrations and for Redis (connecting, loading the queue's
    // code): on a busy machine that outlasts Fastify's 10 s default, and a start then failed.
    pluginTimeout: 60_000,
    ...serverTimeouts(config),
  });

  // Route schemas are the contract's zod schemas: they validate requests and serialise answers.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('clock', options.clock ?? (() => new Date()));
  app.decorate('engines', createEngineRegistry(config, options.engines, { log: app.log }));
  app.decorate('sessionSecret', sessionSecret);
  app.decorate(
    'mailer',
    options.mailer ?? (await createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, log: app.log })),
  );
  app.addHook('onClose', async () => {
    await app.engines.closeAll();
    await app.mailer.close();
  });

  // First, so the OpenAPI document sees every route registered after it.
  await app.register(openapiPlugin);
  await app.register(dbPlugin, { config });
  await app.register(storagePlugin, options.storage ? { config, storage: options.storage } : { config });
  await app.register(recoveryPlugin, { sweep: options.background !== false });
  await app.register(progressPlugin, options.progress ?? {});
  await app.register(tryOnPlugin);
  await app.register(redisPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(metricsPlugin);
  await app.register(canonicalPathsPlugin);
  await app.register(crossSitePlugin, { config });
  await app.register(sessionPlugin, { secret: app.sessionSecret });
  await app.register(securityPlugin, { config });
  await app.register(connectionLimitsPlugin, { config });
  await app.register(closingPlugin);
  await app.register(blockedPlugin);

  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(processImageRoute);
  await app.register(photoRoutes);
  await app.register(resultRoutes);
  await app.register(garmentRoutes);
  await app.register(demoBillingRoutes);
  await app.register(metaRoutes);
  await app.register(progressRoutes);
  await app.register(galleryRoutes);
  await app.register(rerunRoute);
  await app.register(lineRoutes);
  await app.register(sharePageRoutes);
  await app.register(reportRoutes);
  // The operator console: each plugin refuses anyone but an operator (http/operator.ts).
  await app.register(adminUserRoutes);
  await app.register(adminReportRoutes);
  await app.register(adminStatsRoutes);
  await app.register(adminMerchantRoutes);
  await app.register(embedRoutes);
  // Merchants' origins stored before they were checked strictly: each bad one is logged once here
  // and never used (`allowedOriginsOf`); the other merchants are unaffected.
  app.addHook('onReady', async () => {
    await reportBadMerchantOrigins(app.db, app.log);
  });
  if (config.billing.provider === 'paddle')
    await app.register(paddleWebhookRoutes, {
      db: app.db,
      paddle: config.billing.paddle,
      now: () => app.clock().getTime(),
    });

  await app.register(webPlugin, options.webDistDir ? { distDir: options.webDistDir } : {});

  if (options.background !== false) {
    let stopRetention: (() => void) | undefined;
    app.addHook('onReady', async () => {
      // Warm engines without holding up listen.
      void app.engines.warmAll((id, err) => app.log.warn({ err, engine: id }, 'engine failed to warm up'));
      // With several API instances on one Redis, one runs retention at a time.
      const lock = app.redis ? redisRunLock(app.redis) : undefined;
      stopRetention = scheduleRetention(
        {
          db: app.db,
          storage: app.storage,
          clock: app.clock,
          log: app.log,
          photos: {
            vault: app.photoVault,
            keptPhotoDays: config.photos.keptPhotoDays,
            rotating: config.photos.keys.length > 1,
          },
        },
        undefined,
        lock ? { lock } : {},
      );
    });
    app.addHook('preClose', async () => stopRetention?.());
  }
  return app;
}
