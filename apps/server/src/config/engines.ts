/** The try-on engines' settings: which engines are enabled, their keys, models and limits, and the line. */
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
  MAX_UPLOAD_BYTES,
} from '@aidressup/contract';
import { int, optionalString, optionalUrl } from './env.js';
import { HostedEngineEnv, hostedEnginesConfig } from './hosted-engines.js';
import { EngineRoutingEnv, routingConfig } from './engine-costs.js';

export const EngineEnv = {
  ...HostedEngineEnv,
  ...EngineRoutingEnv,
  DEFAULT_ENGINE: optionalString,
  ENGINE_CONCURRENCY: int(0, 0, 64),
  ENGINE_DEADLINE_MS: int(100_000, 1_000, 115_000),
  /**
   * Largest image read from a hosted engine (its result file; an answer carrying one inline may be
   * a third larger), capped while it streams (`engines/upstream.ts`). Default: the upload limit.
   */
  UPSTREAM_MAX_BYTES: int(MAX_UPLOAD_BYTES, 1024 * 1024, 100 * 1024 * 1024),
  /**
   * Origins trusted like an engine's own for its result files (comma-separated `scheme://host[:port]`):
   * a mirror or proxy the operator runs, on a private address or over http. Default none: result
   * files come from the engine's own origin or `https` on a public address.
   */
  UPSTREAM_OUTPUT_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const part of v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        if (!URL.canParse(part) || new URL(part).origin !== part.replace(/\/+$/, '')) {
          ctx.addIssue({
            code: 'custom',
            message: `UPSTREAM_OUTPUT_ORIGINS: ${part} is not an origin (scheme://host[:port])`,
          });
          return z.NEVER;
        }
        origins.push(new URL(part).origin);
      }
      return origins;
    }),
  /**
   * Try-ons held waiting in line for an engine slot, uncharged (per engine in this process; the
   * queue's line with REDIS_URL); past it: 503 ENGINE_BUSY with the place and a ticket that keeps it.
   */
  ENGINE_QUEUE_LIMIT: int(32, 0, 10_000),
  /** Longest a try-on is held waiting in line before the answer is 503 ENGINE_BUSY with its ticket. */
  ENGINE_LINE_WAIT_MS: int(15_000, 0, 60_000),
  /**
   * Places one shopper may hold in line at once (every engine's line counted). At least 4: one
   * press may take a place per garment.
   */
  ENGINE_LINE_TICKETS_PER_USER: int(4, 1, 100),
  /** Places one client address may hold in line at once (several shoppers may share one). */
  ENGINE_LINE_TICKETS_PER_ADDRESS: int(12, 1, 1_000),
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
};
type EngineEnvValues = z.infer<z.ZodObject<typeof EngineEnv>>;

/** The engines that the settings enable, by id (the built-in `local` is always on). */
function enabledEngines(e: EngineEnvValues): string[] {
  return [
    'local',
    e.GEMINI_API_KEY && 'nano-banana',
    e.FASHN_API_KEY && 'fashn',
    e.FAL_KEY && 'fal',
    e.VERTEX_PROJECT && 'vertex-tryon',
    e.REPLICATE_API_TOKEN && 'replicate',
    e.COG_URL && 'cog',
  ].filter((v): v is string => Boolean(v));
}

export function enginesConfig(e: EngineEnvValues, problems: string[]) {
  const hosted = hostedEnginesConfig(e, problems);
  const enabled = enabledEngines(e);
  const routing = routingConfig(
    e,
    enabled,
    {
      geminiModel: e.GEMINI_MODEL,
      fashnModel: e.FASHN_MODEL,
      falModel: e.FAL_MODEL.replace(/^\/+|\/+$/g, ''),
      replicatePreset: hosted.replicate?.preset,
    },
    problems,
  );
  if (e.DEFAULT_ENGINE) {
    const available = enabled;
    if (!available.includes(e.DEFAULT_ENGINE)) {
      problems.push(`DEFAULT_ENGINE=${e.DEFAULT_ENGINE} is not an enabled engine (enabled: ${available.join(', ')})`);
    }
  }
  return {
    ...hosted,
    ...routing,
    defaultEngine: e.DEFAULT_ENGINE,
    concurrency: e.ENGINE_CONCURRENCY,
    deadlineMs: e.ENGINE_DEADLINE_MS,
    upstreamMaxBytes: e.UPSTREAM_MAX_BYTES,
    upstreamOutputOrigins: e.UPSTREAM_OUTPUT_ORIGINS,
    queueLimit: e.ENGINE_QUEUE_LIMIT,
    lineWaitMs: e.ENGINE_LINE_WAIT_MS,
    lineTicketsPerUser: e.ENGINE_LINE_TICKETS_PER_USER,
    lineTicketsPerAddress: e.ENGINE_LINE_TICKETS_PER_ADDRESS,
    // A hosted engine's settings when its key is set; undefined: the engine is off.
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
  };
}
