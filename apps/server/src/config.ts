/**
 * Configuration: every environment variable (the README's Configuration table), validated once at start-up.
 * `loadConfig` returns a typed config or throws ConfigError with a readable list of problems.
 */
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import {
  FASHN_DEFAULT_MODE,
  FASHN_DEFAULT_MODEL,
  FASHN_DEFAULT_MODERATION,
  FASHN_MODELS,
  FASHN_MODERATION_LEVELS,
  FASHN_MODES,
  GEMINI_DEFAULT_MODEL,
  FAL_DEFAULT_MODEL,
  FAL_MODELS,
  PLAN_IDS,
  type FashnMode,
  type FashnModel,
  type FashnModeration,
  type PlanId,
} from '@aidressup/contract';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
const optionalUrl = (label: string) =>
  optionalString.refine((v) => v === undefined || URL.canParse(v), { message: `${label} must be a URL` });
const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

const EnvSchema = z.object({
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
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'REDIS_URL must start with redis:// or rediss://',
  }),
  /** With REDIS_URL: also process queued try-ons inside the API process (default: only `npm run worker` does). */
  WORKER_IN_PROCESS: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  SESSION_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
    message: 'SESSION_SECRET must be at least 32 characters',
  }),
  CORS_ORIGIN: optionalUrl('CORS_ORIGIN'),
  PUBLIC_URL: optionalUrl('PUBLIC_URL'),
  SUPPORT_EMAIL: z.string().trim().email('SUPPORT_EMAIL must be an e-mail address').default('support@aidressup.app'),
  FREE_TRIALS_LIMIT: int(2, 0, 1000),
  // engines
  DEFAULT_ENGINE: optionalString,
  ENGINE_CONCURRENCY: int(0, 0, 64),
  ENGINE_DEADLINE_MS: int(100_000, 1_000, 115_000),
  /**
   * Try-ons held waiting in line for an engine slot, uncharged (per engine in this process; the
   * queue's line with REDIS_URL); past it: 503 ENGINE_BUSY with the place and a ticket that keeps it.
   */
  ENGINE_QUEUE_LIMIT: int(32, 0, 10_000),
  /** Longest a try-on is held waiting in line before the answer is 503 ENGINE_BUSY with its ticket. */
  ENGINE_LINE_WAIT_MS: int(15_000, 0, 60_000),
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: optionalUrl('GEMINI_BASE_URL'),
  GEMINI_MODEL: z.string().trim().min(1).default(GEMINI_DEFAULT_MODEL),
  /** Models to switch to, in order, when GEMINI_MODEL is retired (comma-separated). */
  GEMINI_FALLBACK_MODELS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((m) => m.trim().replace(/^models\//, ''))
        .filter((m) => m !== ''),
    ),
  FASHN_API_KEY: optionalString,
  FASHN_BASE_URL: optionalUrl('FASHN_BASE_URL'),
  FASHN_MODE: z.enum(FASHN_MODES).default(FASHN_DEFAULT_MODE),
  FASHN_MODEL: z.enum(FASHN_MODELS).default(FASHN_DEFAULT_MODEL),
  FASHN_MODERATION: z.enum(FASHN_MODERATION_LEVELS).default(FASHN_DEFAULT_MODERATION),
  /** FASHN v1.6 without clothing segmentation (bulky garments, body shape kept); false if old clothes show through. */
  FASHN_SEGMENTATION_FREE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  /** A fixed seed makes FASHN's results repeatable; unset: a new one each time. */
  FASHN_SEED: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
  ),
  /** Below this many FASHN credits the engine is reported degraded (0: never). */
  FASHN_LOW_CREDITS: int(50, 0, 1_000_000),
  FAL_KEY: optionalString,
  FAL_BASE_URL: optionalUrl('FAL_BASE_URL'),
  FAL_MODEL: z
    .string()
    .trim()
    .default(FAL_DEFAULT_MODEL)
    .refine((v) => (FAL_MODELS as readonly string[]).includes(v.replace(/^\/+|\/+$/g, '')), {
      message: `FAL_MODEL must be one of the supported fal endpoints: ${FAL_MODELS.join(', ')}`,
    }),
  // billing
  PADDLE_ENV: z.enum(['sandbox', 'production']).optional(),
  PADDLE_CLIENT_TOKEN: optionalString,
  PADDLE_WEBHOOK_SECRET: optionalString,
  PADDLE_PRICE_WEEKLY: optionalString,
  PADDLE_PRICE_MONTHLY: optionalString,
  PADDLE_PRICE_YEARLY: optionalString,
  PADDLE_PRICE_CREDITS_200: optionalString,
  /** Demo billing in production (https PUBLIC_URL, no PADDLE_*) only when set to true on purpose. */
  DEMO_BILLING: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
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
  // Paddle's API (server side only): the customer portal
  PADDLE_API_KEY: optionalString,
  PADDLE_API_BASE_URL: optionalUrl('PADDLE_API_BASE_URL'),
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

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(v: string): boolean {
  if (TRUST_PROXY_NAMES.includes(v)) return true;
  const [addr, prefix, ...rest] = v.split('/');
  const family = net.isIP(addr ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: off, a hop count, or a list of proxy addresses and CIDRs (Fastify's `trustProxy`). */
function parseTrustProxy(v: string, ctx: z.RefinementCtx): false | number | string[] {
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        'TRUST_PROXY=true would trust every hop, so any client could choose its own address with X-Forwarded-For: set the number of proxies in front of the server (e.g. 1) or their addresses and CIDRs (e.g. 10.0.0.0/8,192.168.1.7)',
    });
    return false;
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY as a hop count must be at most 10' });
    return hops;
  }
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const bad = list.filter((x) => !isAddressOrCidr(x));
  if (bad.length > 0 || list.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses and CIDRs; not understood: ${bad.join(', ') || v}`,
    });
  }
  return list;
}

const PADDLE_PRICE_VARS: Record<PlanId, keyof z.infer<typeof EnvSchema>> = {
  weekly: 'PADDLE_PRICE_WEEKLY',
  monthly: 'PADDLE_PRICE_MONTHLY',
  yearly: 'PADDLE_PRICE_YEARLY',
  credits_200: 'PADDLE_PRICE_CREDITS_200',
};

export interface PaddleConfig {
  environment: 'sandbox' | 'production';
  clientToken: string;
  /** Server-side API key (customer portal); the portal is unavailable without it. */
  apiKey: string | undefined;
  /** Paddle's API: sandbox or live by environment, or PADDLE_API_BASE_URL. */
  apiBaseUrl: string;
  webhookSecret: string;
  /** plan id → Paddle price id */
  prices: Record<PlanId, string>;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** false, a number of trusted hops, or the trusted proxies' addresses and CIDRs. */
  trustProxy: false | number | string[];
  /** Time for a request to arrive whole (headers and body). */
  requestTimeoutMs: number;
  /** Idle time after which a kept-alive connection closes. */
  keepAliveTimeoutMs: number;
  /** Connections open at once per client address; 0: no limit. */
  maxConnectionsPerAddress: number;
  /** On SIGTERM/SIGINT: how long try-ons under way may still take before they are refunded. */
  shutdownGraceMs: number;
  logLevel: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** S3-compatible storage for results and uploads in flight; undefined: local disk under DATA_DIR/files. */
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        /** Both or neither; neither: the AWS SDK's default credentials (environment, instance role). */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  redisUrl: string | undefined;
  /** With a queue (redisUrl): the API process also runs queued try-ons. */
  workerInProcess: boolean;
  sessionSecret: string | undefined;
  corsOrigin: string | undefined;
  publicUrl: string | undefined;
  supportEmail: string;
  freeTrialsLimit: number;
  engines: {
    defaultEngine: string | undefined;
    concurrency: number;
    deadlineMs: number;
    /** At most this many try-ons are held waiting in line; more are answered ENGINE_BUSY with a ticket. */
    queueLimit: number;
    /** Longest a try-on is held waiting in line (then ENGINE_BUSY with its ticket). */
    lineWaitMs: number;
    gemini:
      { apiKey: string; baseUrl: string | undefined; model: string; fallbackModels: readonly string[] } | undefined;
    fashn:
      | {
          apiKey: string;
          baseUrl: string | undefined;
          mode: FashnMode;
          model: FashnModel;
          moderation: FashnModeration;
          segmentationFree: boolean;
          seed: number | undefined;
          lowCredits: number;
        }
      | undefined;
    fal:
      | {
          key: string;
          baseUrl: string | undefined;
          model: string;
          fashnMode: FashnMode;
          moderation: FashnModeration;
          segmentationFree: boolean;
          seed: number | undefined;
        }
      | undefined;
  };
  billing: { provider: 'demo' } | { provider: 'paddle'; paddle: PaddleConfig };
  rateLimits: {
    signInPerMinute: number;
    tryOnPerMinute: number;
    globalPerMinute: number;
    newUsersPerIpPerDay: number;
    /** Sign-in mails asked for per minute from one address (IP). */
    emailPerMinute: number;
    /**
     * Sign-in mails to one mailbox (an address without its +tag) per hour asked for from one
     * client address; all client addresses together get four times as many.
     */
    emailCodesPerAddressPerHour: number;
    /** Wrong sign-in codes from one client address per hour, whatever the email address. */
    signInFailuresPerIpPerHour: number;
    /** Wrong codes per email address per hour from client addresses that did not ask for the code tried. */
    signInFailuresPerAddressPerHour: number;
  };
  /** Sign-in mail: SMTP when smtpUrl is set, else written to the server log. */
  mail: { smtpUrl: string | undefined; from: string };
  /** GET /metrics is on, behind this bearer token, when set. */
  metricsToken: string | undefined;
  /** The operator console: operators' addresses (lower case) and the reports refunded at once per 30 days. */
  admin: { emails: string[]; autoRefundReports: number };
}

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
  const e = parsed.data;
  const problems: string[] = [];

  // Paddle: all or nothing.
  const paddleVars = [
    'PADDLE_ENV',
    'PADDLE_CLIENT_TOKEN',
    'PADDLE_WEBHOOK_SECRET',
    ...Object.values(PADDLE_PRICE_VARS),
  ] as const;
  const setPaddle = paddleVars.filter((k) => e[k] !== undefined);
  let billing: Config['billing'] = { provider: 'demo' };
  if (setPaddle.length > 0) {
    const missing = paddleVars.filter((k) => e[k] === undefined);
    if (missing.length > 0) {
      problems.push(`Paddle billing is partly configured: also set ${missing.join(', ')}`);
    } else {
      const environment = e.PADDLE_ENV!;
      const token = e.PADDLE_CLIENT_TOKEN!;
      const expectedPrefix = environment === 'sandbox' ? 'test_' : 'live_';
      if (!token.startsWith(expectedPrefix)) {
        problems.push(`PADDLE_CLIENT_TOKEN must start with ${expectedPrefix} when PADDLE_ENV=${environment}`);
      }
      const prices = Object.fromEntries(PLAN_IDS.map((id) => [id, e[PADDLE_PRICE_VARS[id]] as string])) as Record<
        PlanId,
        string
      >;
      if (new Set(Object.values(prices)).size !== PLAN_IDS.length) {
        problems.push('PADDLE_PRICE_* must be four different price ids');
      }
      billing = {
        provider: 'paddle',
        paddle: {
          environment,
          clientToken: token,
          webhookSecret: e.PADDLE_WEBHOOK_SECRET!,
          prices,
          apiKey: e.PADDLE_API_KEY,
          apiBaseUrl: (
            e.PADDLE_API_BASE_URL ??
            (environment === 'sandbox' ? 'https://sandbox-api.paddle.com' : 'https://api.paddle.com')
          ).replace(/\/+$/, ''),
        },
      };
    }
  }

  let s3: Config['s3'];
  if (e.S3_BUCKET || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY || e.S3_ENDPOINT || e.S3_REGION) {
    const before = problems.length;
    if (!e.S3_BUCKET) problems.push('S3 storage needs S3_BUCKET (other S3_* variables are set)');
    if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
      problems.push(
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or set neither to use the AWS default credentials)',
      );
    }
    if (!e.S3_REGION && !e.S3_ENDPOINT)
      problems.push('S3 storage needs S3_REGION (AWS) or S3_ENDPOINT (another S3-compatible store)');
    if (problems.length === before) {
      s3 = {
        bucket: e.S3_BUCKET!,
        // Stores on their own address mostly ignore the region, but requests must be signed with one.
        region: e.S3_REGION ?? 'us-east-1',
        endpoint: e.S3_ENDPOINT,
        credentials: e.S3_ACCESS_KEY_ID
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
          : undefined,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      };
    }
  }

  if (e.WORKER_IN_PROCESS && !e.REDIS_URL) {
    problems.push('WORKER_IN_PROCESS needs REDIS_URL: without a queue every try-on already runs in the API process');
  }

  if (e.DEFAULT_ENGINE) {
    const available = [
      'local',
      e.GEMINI_API_KEY && 'nano-banana',
      e.FASHN_API_KEY && 'fashn',
      e.FAL_KEY && 'fal',
    ].filter(Boolean);
    if (!available.includes(e.DEFAULT_ENGINE)) {
      problems.push(`DEFAULT_ENGINE=${e.DEFAULT_ENGINE} is not an enabled engine (enabled: ${available.join(', ')})`);
    }
  }

  // A public production deployment without Paddle would give credits away through the demo checkout.
  if (
    billing.provider === 'demo' &&
    e.NODE_ENV === 'production' &&
    e.PUBLIC_URL?.startsWith('https:') &&
    !e.DEMO_BILLING &&
    setPaddle.length === 0
  ) {
    problems.push(
      'No PADDLE_* settings in production (NODE_ENV=production, https PUBLIC_URL): the demo checkout would give credits away. Configure Paddle, or set DEMO_BILLING=true to run demo billing on purpose',
    );
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    s3,
    redisUrl: e.REDIS_URL,
    workerInProcess: e.WORKER_IN_PROCESS,
    sessionSecret: e.SESSION_SECRET,
    corsOrigin: e.CORS_ORIGIN,
    publicUrl: e.PUBLIC_URL,
    supportEmail: e.SUPPORT_EMAIL,
    freeTrialsLimit: e.FREE_TRIALS_LIMIT,
    engines: {
      defaultEngine: e.DEFAULT_ENGINE,
      concurrency: e.ENGINE_CONCURRENCY,
      deadlineMs: e.ENGINE_DEADLINE_MS,
      queueLimit: e.ENGINE_QUEUE_LIMIT,
      lineWaitMs: e.ENGINE_LINE_WAIT_MS,
      gemini: e.GEMINI_API_KEY
        ? {
            apiKey: e.GEMINI_API_KEY,
            baseUrl: e.GEMINI_BASE_URL,
            model: e.GEMINI_MODEL,
            fallbackModels: e.GEMINI_FALLBACK_MODELS,
          }
        : undefined,
      fashn: e.FASHN_API_KEY
        ? {
            apiKey: e.FASHN_API_KEY,
            baseUrl: e.FASHN_BASE_URL,
            mode: e.FASHN_MODE,
            model: e.FASHN_MODEL,
            moderation: e.FASHN_MODERATION,
            segmentationFree: e.FASHN_SEGMENTATION_FREE,
            seed: e.FASHN_SEED,
            lowCredits: e.FASHN_LOW_CREDITS,
          }
        : undefined,
      fal: e.FAL_KEY
        ? {
            key: e.FAL_KEY,
            baseUrl: e.FAL_BASE_URL,
            model: e.FAL_MODEL.replace(/^\/+|\/+$/g, ''),
            fashnMode: e.FASHN_MODE,
            moderation: e.FASHN_MODERATION,
            segmentationFree: e.FASHN_SEGMENTATION_FREE,
            seed: e.FASHN_SEED,
          }
        : undefined,
    },
    billing,
    rateLimits: {
      signInPerMinute: e.RATE_LIMIT_SIGNIN_PER_MINUTE,
      tryOnPerMinute: e.RATE_LIMIT_TRYON_PER_MINUTE,
      globalPerMinute: e.RATE_LIMIT_GLOBAL_PER_MINUTE,
      newUsersPerIpPerDay: e.NEW_USERS_PER_IP_PER_DAY,
      emailPerMinute: e.RATE_LIMIT_EMAIL_PER_MINUTE,
      emailCodesPerAddressPerHour: e.EMAIL_CODES_PER_ADDRESS_PER_HOUR,
      signInFailuresPerIpPerHour: e.SIGN_IN_FAILURES_PER_IP_PER_HOUR,
      signInFailuresPerAddressPerHour: e.SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    metricsToken: e.METRICS_TOKEN,
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
