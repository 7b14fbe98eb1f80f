import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const PADDLE = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_abc123',
  PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_secret',
  PADDLE_PRICE_WEEKLY: 'pri_w',
  PADDLE_PRICE_MONTHLY: 'pri_m',
  PADDLE_PRICE_YEARLY: 'pri_y',
  PADDLE_PRICE_CREDITS_200: 'pri_c',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a configuration error');
}

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.billing).toEqual({ provider: 'demo' });
    expect(c.freeTrialsLimit).toBe(2);
    expect(c.engines.gemini).toBeUndefined();
    expect(c.engines.deadlineMs).toBeLessThan(120_000);
    expect(c.rateLimits).toEqual({
      signInPerMinute: 60,
      tryOnPerMinute: 60,
      globalPerMinute: 600,
      newUsersPerIpPerDay: 50,
      emailPerMinute: 10,
      emailCodesPerAddressPerHour: 5,
      signInFailuresPerIpPerHour: 20,
      signInFailuresPerAddressPerHour: 10,
    });
    expect(c.requestTimeoutMs).toBe(60_000);
    expect(c.keepAliveTimeoutMs).toBe(72_000);
    expect(c.maxConnectionsPerAddress).toBe(64);
    expect(c.mail).toEqual({ smtpUrl: undefined, from: 'AI Dress Up <no-reply@aidressup.app>' });
    expect(c.trustProxy).toBe(false);
  });

  it('lists every problem readably', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SESSION_SECRET: 'short',
      SUPPORT_EMAIL: 'nope',
      FREE_TRIALS_LIMIT: '-1',
    });
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL must start with postgres/);
    expect(problems.join('\n')).toMatch(/SESSION_SECRET must be at least 32 characters/);
    expect(problems.join('\n')).toMatch(/SUPPORT_EMAIL must be an e-mail address/);
    expect(problems.join('\n')).toMatch(/FREE_TRIALS_LIMIT/);
    try {
      loadConfig({ PORT: 'eighty' });
    } catch (err) {
      expect((err as Error).message).toMatch(/^Invalid configuration:\n {2}- PORT: /);
    }
  });

  it('turns demo billing off only with a complete Paddle configuration', () => {
    const c = loadConfig(PADDLE);
    expect(c.billing.provider).toBe('paddle');
    if (c.billing.provider === 'paddle') {
      expect(c.billing.paddle.prices).toEqual({
        weekly: 'pri_w',
        monthly: 'pri_m',
        yearly: 'pri_y',
        credits_200: 'pri_c',
      });
    }
    const { PADDLE_WEBHOOK_SECRET: _s, PADDLE_PRICE_YEARLY: _y, ...partial } = PADDLE;
    expect(problemsOf(partial)).toEqual([
      'Paddle billing is partly configured: also set PADDLE_WEBHOOK_SECRET, PADDLE_PRICE_YEARLY',
    ]);
    expect(problemsOf({ ...PADDLE, PADDLE_PRICE_YEARLY: 'pri_w' })).toEqual([
      'PADDLE_PRICE_* must be four different price ids',
    ]);
  });

  it('checks the client token prefix against PADDLE_ENV', () => {
    expect(problemsOf({ ...PADDLE, PADDLE_CLIENT_TOKEN: 'live_abc' })).toEqual([
      'PADDLE_CLIENT_TOKEN must start with test_ when PADDLE_ENV=sandbox',
    ]);
    expect(problemsOf({ ...PADDLE, PADDLE_ENV: 'production' })).toEqual([
      'PADDLE_CLIENT_TOKEN must start with live_ when PADDLE_ENV=production',
    ]);
    expect(loadConfig({ ...PADDLE, PADDLE_ENV: 'production', PADDLE_CLIENT_TOKEN: 'live_abc' }).billing.provider).toBe(
      'paddle',
    );
  });

  it('accepts only enabled engines as the default', () => {
    expect(problemsOf({ DEFAULT_ENGINE: 'fashn' })).toEqual([
      'DEFAULT_ENGINE=fashn is not an enabled engine (enabled: local)',
    ]);
    expect(loadConfig({ DEFAULT_ENGINE: 'fashn', FASHN_API_KEY: 'k' }).engines.defaultEngine).toBe('fashn');
    expect(problemsOf({ ENGINE_DEADLINE_MS: '130000' })[0]).toMatch(/ENGINE_DEADLINE_MS/);
  });

  it('defaults the hosted engines to current models and settings', () => {
    const c = loadConfig({ GEMINI_API_KEY: 'g', FASHN_API_KEY: 'f', FAL_KEY: 'k' }).engines;
    expect(c.gemini?.model).toBe('gemini-3.1-flash-image');
    expect(c.fashn?.mode).toBe('balanced');
    expect(c.fal?.fashnMode).toBe('balanced');
    const q = loadConfig({
      GEMINI_API_KEY: 'g',
      GEMINI_MODEL: 'gemini-3-pro-image',
      FASHN_API_KEY: 'f',
      FASHN_MODE: 'quality',
    }).engines;
    expect([q.gemini?.model, q.fashn?.mode]).toEqual(['gemini-3-pro-image', 'quality']);
    expect(problemsOf({ FASHN_MODE: 'fast' })[0]).toMatch(/FASHN_MODE/);
  });

  it('takes the round-three engine settings, with defaults', () => {
    const d = loadConfig({ GEMINI_API_KEY: 'g', FASHN_API_KEY: 'f', FAL_KEY: 'k' }).engines;
    expect(d.gemini?.fallbackModels).toEqual([]);
    expect(d.fashn).toMatchObject({
      model: 'tryon-v1.6',
      moderation: 'permissive',
      segmentationFree: true,
      seed: undefined,
      lowCredits: 50,
    });
    expect(d.fal?.model).toBe('fal-ai/fashn/tryon/v1.6');
    const c = loadConfig({
      GEMINI_API_KEY: 'g',
      GEMINI_FALLBACK_MODELS: ' gemini-3-pro-image, models/gemini-3.1-flash-image ,',
      FASHN_API_KEY: 'f',
      FASHN_MODEL: 'tryon-max',
      FASHN_MODERATION: 'conservative',
      FASHN_SEGMENTATION_FREE: 'false',
      FASHN_SEED: '42',
      FASHN_LOW_CREDITS: '10',
      FAL_KEY: 'k',
      FAL_MODEL: 'fal-ai/leffa/virtual-tryon',
    }).engines;
    expect(c.gemini?.fallbackModels).toEqual(['gemini-3-pro-image', 'gemini-3.1-flash-image']);
    expect(c.fashn).toMatchObject({
      model: 'tryon-max',
      moderation: 'conservative',
      segmentationFree: false,
      seed: 42,
      lowCredits: 10,
    });
    expect(c.fal).toMatchObject({ model: 'fal-ai/leffa/virtual-tryon', moderation: 'conservative', seed: 42 });
    expect(problemsOf({ FASHN_MODEL: 'tryon-v9' })[0]).toMatch(/FASHN_MODEL/);
    expect(problemsOf({ FASHN_MODERATION: 'strict' })[0]).toMatch(/FASHN_MODERATION/);
    expect(problemsOf({ FASHN_SEED: '-1' })[0]).toMatch(/FASHN_SEED/);
  });

  it('refuses an unknown fal endpoint at start, listing the supported ones', () => {
    expect(problemsOf({ FAL_KEY: 'k', FAL_MODEL: 'fal-ai/idm-vton' })).toEqual([
      'FAL_MODEL: FAL_MODEL must be one of the supported fal endpoints: fal-ai/fashn/tryon/v1.6, fal-ai/image-apps-v2/virtual-try-on, fal-ai/flux-pro/v1/vto, fal-ai/leffa/virtual-tryon, fal-ai/kling/v1-5/kolors-virtual-try-on',
    ]);
  });

  it('takes S3-compatible storage settings, refusing incomplete ones; takes the queue settings', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(
      loadConfig({
        S3_BUCKET: 'b',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
      forcePathStyle: true,
    });
    // AWS with the default credentials (instance role, environment).
    expect(loadConfig({ S3_BUCKET: 'b', S3_REGION: 'eu-west-1' }).s3).toEqual({
      bucket: 'b',
      region: 'eu-west-1',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
    });
    expect(problemsOf({ S3_BUCKET: 'b' })).toEqual([
      'S3 storage needs S3_REGION (AWS) or S3_ENDPOINT (another S3-compatible store)',
    ]);
    expect(problemsOf({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'k' })).toEqual([
      'S3 storage needs S3_BUCKET (other S3_* variables are set)',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or set neither to use the AWS default credentials)',
    ]);
    expect(problemsOf({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })[0]).toMatch(/S3_ENDPOINT must be a URL/);
    expect(problemsOf({ REDIS_URL: 'localhost:6379' })[0]).toMatch(
      /REDIS_URL must start with redis:\/\/ or rediss:\/\//,
    );
    const queued = loadConfig({ REDIS_URL: 'redis://localhost:6379' });
    expect([queued.redisUrl, queued.workerInProcess]).toEqual(['redis://localhost:6379', false]);
    expect(loadConfig({ REDIS_URL: 'redis://localhost:6379', WORKER_IN_PROCESS: 'true' }).workerInProcess).toBe(true);
    expect(problemsOf({ WORKER_IN_PROCESS: 'true' })[0]).toMatch(/WORKER_IN_PROCESS needs REDIS_URL/);
  });

  it('makes the server print the problems and exit 1 on a bad configuration', () => {
    const server = fileURLToPath(new URL('./server.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', server], {
      env: { ...process.env, PORT: 'eighty', FREE_TRIALS_LIMIT: 'lots', DATA_DIR: '/nonexistent/never-created' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Invalid configuration:\n {2}- PORT: .*\n {2}- FREE_TRIALS_LIMIT: /);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of addresses and CIDRs, never a blanket true', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(problemsOf({ TRUST_PROXY: 'true' }).join('\n')).toMatch(/TRUST_PROXY=true would trust every hop/);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/33' }).join('\n')).toMatch(/not understood: 10\.0\.0\.0\/33/);
    expect(problemsOf({ TRUST_PROXY: 'proxy.internal' }).join('\n')).toMatch(/hop count or a comma-separated list/);
    expect(problemsOf({ TRUST_PROXY: '50' }).join('\n')).toMatch(/at most 10/);
  });
});

describe('demo billing in production', () => {
  const PROD = { NODE_ENV: 'production', PUBLIC_URL: 'https://aidressup.app' };
  it('refuses to start without Paddle unless DEMO_BILLING=true is set on purpose', () => {
    expect(problemsOf(PROD).join('\n')).toMatch(/demo checkout would give credits away.*DEMO_BILLING=true/);
    expect(loadConfig({ ...PROD, DEMO_BILLING: 'true' }).billing).toEqual({ provider: 'demo' });
    expect(loadConfig({ ...PROD, ...PADDLE }).billing.provider).toBe('paddle');
    // Not a public production deployment: development, tests, a local http address.
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://aidressup.app' }).billing.provider).toBe('demo');
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' }).billing.provider).toBe('demo');
    expect(loadConfig({ NODE_ENV: 'production' }).billing.provider).toBe('demo');
  });
});
