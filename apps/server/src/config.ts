/**
 * Configuration: every environment variable (the README's Configuration table), validated once at start-up.
 * `loadConfig` returns a typed config or throws ConfigError with a readable list of problems.
 */
import path from 'node:path';
import { z } from 'zod';
import { BillingEnv, billingConfig } from './config/billing.js';
import { EngineEnv, enginesConfig } from './config/engines.js';
import { flag, int, optionalString, optionalUrl } from './config/env.js';
import { parseTrustProxy } from './config/network.js';
import { PhotosEnv, photosConfig } from './config/photos.js';

export type { PaddleConfig } from './config/billing.js';

const EnvSchema = z.object({
  ...EngineEnv,
  ...BillingEnv,
  ...PhotosEnv,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: int(3000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Behind a load balancer or reverse proxy: take the client address from X-Forwarded-For, trusting
   * only the given number of hops, or only the given proxy addresses and CIDRs. Never every hop.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('')
    .transform((v, ctx) => parseTrustProxy(v, ctx)),
  /** A request (headers and body) must arrive whole within this time; past it: 408 and the connection closes. */
  REQUEST_TIMEOUT_MS: int(60_000, 1_000, 600_000),
  /** An idle kept-alive connection closes after this time. */
  KEEP_ALIVE_TIMEOUT_MS: int(72_000, 1_000, 600_000),
  /** Connections open at once from one client address (0: no limit); past it a new one is closed at once. */
  MAX_CONNECTIONS_PER_ADDRESS: int(64, 0, 100_000),
  /**
   * On SIGTERM/SIGINT: how long try-ons under way may still take to finish; past it they are
   * refunded and the process exits (keep below the orchestrator's stop timeout).
   */
  SHUTDOWN_GRACE_MS: int(25_000, 0, 600_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'DATABASE_URL must start with postgres:// or postgresql://',
  }),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ENDPOINT: optionalString.refine((v) => v === undefined || (/^https?:\/\//.test(v) && URL.canParse(v)), {
    message: 'S3_ENDPOINT must be a URL starting with http:// or https://',
  }),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Path-style addressing (`endpoint/bucket/key`), for MinIO, Ceph and other stores on their own address. */
  S3_FORCE_PATH_STYLE: flag(false),
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'REDIS_URL must start with redis:// or rediss://',
  }),
  /** With REDIS_URL: also process queued try-ons inside the API process (default: only `npm run worker` does). */
  WORKER_IN_PROCESS: flag(false),
  SESSION_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'SESSION_SECRET must be at least 32 characters',
  }),
  CORS_ORIGIN: optionalUrl('CORS_ORIGIN'),
  PUBLIC_URL: optionalUrl('PUBLIC_URL'),
  SUPPORT_EMAIL: z.string().trim().email('SUPPORT_EMAIL must be an e-mail address').default('support@aidressup.app'),
  FREE_TRIALS_LIMIT: int(2, 0, 1000),
  // abuse limits
  RATE_LIMIT_SIGNIN_PER_MINUTE: int(60, 1, 100_000),
  RATE_LIMIT_TRYON_PER_MINUTE: int(60, 1, 100_000),
  RATE_LIMIT_GLOBAL_PER_MINUTE: int(600, 1, 1_000_000),
  NEW_USERS_PER_IP_PER_DAY: int(50, 0, 1_000_000),
  // email sign-in
  SMTP_URL: optionalString.refine((v) => v === undefined || (/^smtps?:\/\//.test(v) && URL.canParse(v)), {
    message: 'SMTP_URL must be a URL starting with smtp:// or smtps:// (credentials in the URL)',
  }),
  MAIL_FROM: z.string().trim().min(3).default('AI Dress Up <no-reply@aidressup.app>'),
  RATE_LIMIT_EMAIL_PER_MINUTE: int(10, 1, 100_000),
  EMAIL_CODES_PER_ADDRESS_PER_HOUR: int(5, 1, 1000),
  SIGN_IN_FAILURES_PER_IP_PER_HOUR: int(20, 1, 100_000),
  SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR: int(10, 1, 100_000),
  /** Turns on GET /metrics (Prometheus), readable only with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: 'METRICS_TOKEN must be at least 16 characters',
  }),
  // the operator console (docs/operations.md)
  /** Comma-separated email addresses whose accounts, signed in by email, are operators (case-insensitive). */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter((x) => x !== ''),
    )
    .refine((list) => list.every((x) => /^[^\s@]+@[^\s@]+$/.test(x)), {
      message: 'ADMIN_EMAILS must be a comma-separated list of email addresses',
    }),
  /** A shopper's first this many reports in 30 days are refunded at once; later ones wait for an operator. */
  AUTO_REFUND_REPORTS: int(3, 0, 1000),
});

/**
 * The configuration the process runs with: the type of `configFrom`'s answer, so that a setting is
 * written once in the schema (with its documentation) and once in the mapping below.
 */
export type Config = ReturnType<typeof configFrom>;
type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`));
  }
  const problems: string[] = [];
  const config = configFrom(parsed.data, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** S3-compatible storage for results and uploads in flight; undefined: local disk under DATA_DIR/files. */
function s3Config(e: Env, problems: string[]) {
  if (!(e.S3_BUCKET || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY || e.S3_ENDPOINT || e.S3_REGION)) return undefined;
  const before = problems.length;
  if (!e.S3_BUCKET) problems.push('S3 storage needs S3_BUCKET (other S3_* variables are set)');
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or set neither to use the AWS default credentials)',
    );
  }
  if (!e.S3_REGION && !e.S3_ENDPOINT)
    problems.push('S3 storage needs S3_REGION (AWS) or S3_ENDPOINT (another S3-compatible store)');
  if (problems.length !== before) return undefined;
  return {
    bucket: e.S3_BUCKET!,
    // Stores on their own address mostly ignore the region, but requests must be signed with one.
    region: e.S3_REGION ?? 'us-east-1',
    endpoint: e.S3_ENDPOINT,
    /** Both or neither; neither: the AWS SDK's default credentials (environment, instance role). */
    credentials: e.S3_ACCESS_KEY_ID
      ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
      : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** The environment's settings mapped to the process's configuration; problems found are pushed. */
function configFrom(e: Env, problems: string[]) {
  const billing = billingConfig(e, problems);
  const s3 = s3Config(e, problems);
  if (e.WORKER_IN_PROCESS && !e.REDIS_URL) {
    problems.push('WORKER_IN_PROCESS needs REDIS_URL: without a queue every try-on already runs in the API process');
  }
  const engines = enginesConfig(e, problems);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    /** false, a number of trusted hops, or the trusted proxies' addresses and CIDRs. */
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    /** 0: no limit. */
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    s3,
    redisUrl: e.REDIS_URL,
    /** With a queue (redisUrl): the API process also runs queued try-ons. */
    workerInProcess: e.WORKER_IN_PROCESS,
    sessionSecret: e.SESSION_SECRET,
    corsOrigin: e.CORS_ORIGIN,
    publicUrl: e.PUBLIC_URL,
    supportEmail: e.SUPPORT_EMAIL,
    freeTrialsLimit: e.FREE_TRIALS_LIMIT,
    engines,
    billing,
    /** Kept person photos: their encryption keys and how long one stays unused (config/photos.ts). */
    photos: photosConfig(e),
    rateLimits: {
      signInPerMinute: e.RATE_LIMIT_SIGNIN_PER_MINUTE,
      tryOnPerMinute: e.RATE_LIMIT_TRYON_PER_MINUTE,
      globalPerMinute: e.RATE_LIMIT_GLOBAL_PER_MINUTE,
      newUsersPerIpPerDay: e.NEW_USERS_PER_IP_PER_DAY,
      /** Sign-in mails asked for per minute from one address (IP). */
      emailPerMinute: e.RATE_LIMIT_EMAIL_PER_MINUTE,
      /**
       * Sign-in mails to one mailbox (an address without its +tag) per hour asked for from one
       * client address; all client addresses together get four times as many.
       */
      emailCodesPerAddressPerHour: e.EMAIL_CODES_PER_ADDRESS_PER_HOUR,
      /** Wrong sign-in codes from one client address per hour, whatever the email address. */
      signInFailuresPerIpPerHour: e.SIGN_IN_FAILURES_PER_IP_PER_HOUR,
      /** Wrong codes per email address per hour from client addresses that did not ask for the code tried. */
      signInFailuresPerAddressPerHour: e.SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR,
    },
    /** Sign-in mail: SMTP when smtpUrl is set, else written to the server log. */
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    /** GET /metrics is on, behind this bearer token, when set. */
    metricsToken: e.METRICS_TOKEN,
    /** The operator console: operators' addresses (lower case) and the reports refunded at once per 30 days. */
    admin: { emails: e.ADMIN_EMAILS, autoRefundReports: e.AUTO_REFUND_REPORTS },
  };
}

/** Loads the configuration for a process entry point: on a problem, prints the readable list and exits 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
