/**
 * `fashn`: FASHN virtual try-on v1.6 over its REST API (plain fetch):
 * `POST /v1/run` starts a prediction (photos up to 2000 px at JPEG quality 95, the mode
 * from FASHN_MODE, `garment_photo_type: 'auto'`, JPEG output returned as base64 so it is
 * not stored at FASHN), `GET /v1/status/{id}` is polled until it ends, then the first
 * output (a data URL, or a CDN link from an older answer) is read. The credits FASHN
 * reports (`x-fashn-credits-used`) are logged per try-on.
 */
import {
  ENGINE_DEADLINE_MS,
  FASHN_DEFAULT_MODE,
  FASHN_DEFAULT_MODEL,
  FASHN_DEFAULT_MODERATION,
  FASHN_INPUT,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  type Category,
  type FashnMode,
  type FashnModel,
  type FashnModeration,
  type HostedInputSpec,
  type TryOnCategory,
} from '@aidressup/contract';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import type { Config } from '../config.js';
import { createHostedRunner, type HostedCall, type HostedEngineDeps } from './hosted-call.js';
import { FASHN_MAX_DEADLINE_MS } from './deadlines.js';
import { withReasons, type HostedEngineHealth } from './hosted-health.js';
import { isTransientStatus, parseJson, snippet, type HttpResult } from './hosted-http.js';
import { finishResult, reduceImage, toDataUrl } from './hosted-image.js';
import { readOutputImage } from './hosted-output.js';
import { FASHN } from './descriptors.js';

type FullFashnConfig = NonNullable<Config['engines']['fashn']>;
/**
 * The configured FASHN engine; what is left out takes its default: `mode` balanced, `model`
 * tryon-v1.6, `moderation` permissive, `segmentationFree` true, no seed, `lowCredits` 50.
 */
export type FashnConfig = Pick<FullFashnConfig, 'apiKey' | 'baseUrl'> &
  Partial<Omit<FullFashnConfig, 'apiKey' | 'baseUrl'>>;

/** FASHN v1.6's own inputs we set from configuration (also sent to FASHN's model on fal). */
export interface FashnTuning {
  mode?: FashnMode;
  moderation?: FashnModeration;
  segmentationFree?: boolean;
  seed?: number | undefined;
}

const FASHN_ID = FASHN.id;
export const FASHN_DEFAULT_BASE_URL = 'https://api.fashn.ai';
export const FASHN_MODEL_NAME = 'tryon-v1.6';

export const FASHN_CATEGORIES: Record<Category, 'tops' | 'bottoms' | 'one-pieces'> = {
  upper_body: 'tops',
  lower_body: 'bottoms',
  dresses: 'one-pieces',
};

/**
 * A category as a clothing-only model takes it. The pipeline refuses `accessories` on an engine
 * that does not declare it before anything is charged; this is the last guard.
 */
export function clothingOnly(category: TryOnCategory, engineId: string): Category {
  if (category === 'accessories')
    throw new EngineError('ENGINE_FAILED', MESSAGES.categoryNotOffered, `${engineId}: accessories are not offered`);
  return category;
}

/** Prediction states that are still running. */
const RUNNING = new Set(['starting', 'in_queue', 'processing']);

interface FashnRunAnswer {
  id?: string;
  error?: unknown;
}
interface FashnStatusAnswer {
  id?: string;
  status?: string;
  output?: unknown;
  error?: { name?: string; message?: string } | string | null;
}
interface FashnApiError {
  error?: string;
  message?: string;
}

/** The credits header FASHN sets on a finished prediction's status answer. */
export const FASHN_CREDITS_HEADER = 'x-fashn-credits-used';

/**
 * FASHN runtime error names (those of the current SDK's `PredictionStatusResponse.Error`)
 * → what the shopper is told.
 */
export function fashnRuntimeError(name: string | undefined, message: string | undefined, id: string): EngineError {
  const detail = `fashn: prediction ${id} failed: ${name ?? 'unknown error'}${message ? `: ${snippet(message, 200)}` : ''}`;
  switch (name) {
    // ThirdPartyError: a third-party processor (image captioning) refused the photos, a content
    // restriction. NSFWError: older docs' name for a moderation refusal, still accepted.
    case 'ContentModerationError':
    case 'ThirdPartyError':
    case 'NSFWError':
      return new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
    case 'PoseError':
      return new EngineError('PERSON_NOT_FOUND', HOSTED_ENGINE_MESSAGES.poseNotFound, detail);
    // Older docs only; with garment_photo_type 'auto' it is not expected any more.
    case 'PhotoTypeError':
      return new EngineError('GARMENT_NOT_SEPARABLE', HOSTED_ENGINE_MESSAGES.garmentUnrecognised, detail);
    case 'ImageLoadError':
      return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.photoUnreadable, detail);
    default:
      // InputValidationError, PipelineError, 3rdPartyProviderError, InternalServerError and anything new
      return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
  }
}

/**
 * The `inputs` of a try-on v1.6 run (FASHN's own API; fal's FASHN models take the same fields).
 * `num_samples` is 1: only one image is shown, and each one costs a credit.
 */
export function fashnInputs(model: string, garment: string, category: Category, tuning: FashnTuning = {}) {
  return {
    model_image: model,
    garment_image: garment,
    category: FASHN_CATEGORIES[category],
    mode: tuning.mode ?? FASHN_DEFAULT_MODE,
    garment_photo_type: 'auto' as const,
    moderation_level: tuning.moderation ?? FASHN_DEFAULT_MODERATION,
    segmentation_free: tuning.segmentationFree ?? true,
    ...(tuning.seed !== undefined ? { seed: tuning.seed } : {}),
    num_samples: 1,
    output_format: 'jpeg' as const,
  };
}

/** The `inputs` of a Try-On Max run: the garment is the `product_image`; no category or mode. */
export function fashnMaxInputs(model: string, product: string, seed?: number) {
  return {
    model_image: model,
    product_image: product,
    output_format: 'jpeg' as const,
    return_base64: true,
    ...(seed !== undefined ? { seed } : {}),
  };
}

/** FASHN documents PipelineError as a transient failure that costs nothing: one new run is tried. */
const RETRIED_RUNTIME_ERRORS = new Set(['PipelineError']);

/** A prediction that failed with an error worth one new run. */
class RetryableRun extends Error {
  constructor(readonly failure: EngineError) {
    super(failure.message);
  }
}

export interface FashnEngine extends TryOnEngine {
  health(): HostedEngineHealth;
  /** The input photos this engine wants. */
  readonly input: HostedInputSpec;
  /** The FASHN model runs use (FASHN_MODEL). */
  readonly model: FashnModel;
  /** This engine's deadline for one try-on (longer for tryon-max). */
  readonly deadlineMs: number;
  /** Reads the credit balance (at start, then hourly); never throws. */
  checkCredits(): Promise<void>;
}

/** Where FASHN reports the account's balance. */
interface FashnCreditsAnswer {
  credits?: { total?: number; subscription?: number; on_demand?: number };
}

export const CREDITS_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export function createFashnEngine(cfg: FashnConfig, engineDeps: HostedEngineDeps = {}): FashnEngine {
  const base = (cfg.baseUrl ?? FASHN_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
  const baseOrigin = new URL(base).origin;
  const modelName: FashnModel = cfg.model ?? FASHN_DEFAULT_MODEL;
  const max = modelName === 'tryon-max';
  // Try-On Max takes about 50 s and up to 120 s: its deadline is raised, for it only.
  const deps: HostedEngineDeps = max
    ? {
        ...engineDeps,
        deadlineMs: Math.max(engineDeps.deadlineMs ?? ENGINE_DEADLINE_MS, FASHN_MAX_DEADLINE_MS),
        maxDeadlineMs: Math.max(engineDeps.maxDeadlineMs ?? 0, FASHN_MAX_DEADLINE_MS),
      }
    : engineDeps;
  const runner = createHostedRunner(FASHN_ID, [cfg.apiKey], deps);
  const auth = { authorization: `Bearer ${cfg.apiKey}` };
  const runRetry = { attempts: 6, baseMs: deps.retry?.baseMs ?? 500, maxMs: deps.retry?.maxMs ?? 8_000 };
  const mode = cfg.mode ?? FASHN_DEFAULT_MODE;
  const tuning: FashnTuning = {
    mode,
    moderation: cfg.moderation ?? FASHN_DEFAULT_MODERATION,
    segmentationFree: cfg.segmentationFree ?? true,
    seed: cfg.seed,
  };
  const lowCredits = cfg.lowCredits ?? 50;
  const credits = { low: undefined as string | undefined };
  let timer: NodeJS.Timeout | undefined;

  async function checkCredits(): Promise<void> {
    try {
      const res = await runner.fetchOutside(`${base}/v1/credits`, { method: 'GET', headers: auth });
      if (res.status !== 200) throw new Error(`credits answered HTTP ${res.status}: ${snippet(res.body)}`);
      const total = parseJson<FashnCreditsAnswer>(res, FASHN_ID, 'credits').credits?.total;
      if (typeof total !== 'number') throw new Error(`credits answer has no total: ${snippet(res.body)}`);
      runner.log({ credits: total }, 'fashn credit balance');
      const low =
        lowCredits > 0 && total < lowCredits
          ? `the FASHN account has ${total} credits left (below FASHN_LOW_CREDITS=${lowCredits}): top up the FASHN API balance`
          : undefined;
      if (low && low !== credits.low) runner.warn({ credits: total, lowCredits }, `fashn: ${low}`);
      credits.low = low;
    } catch (err) {
      runner.warn(
        { error: err instanceof Error ? err.message : String(err) },
        'fashn: could not read the credit balance',
      );
    }
  }

  async function start(call: HostedCall, input: TryOnInput, model: string, garment: string): Promise<string> {
    const res = await call.fetch(
      `${base}/v1/run`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({
          model_name: modelName,
          // return_base64: the result comes back in the status answer and is not stored at FASHN
          inputs: max
            ? fashnMaxInputs(model, garment, tuning.seed)
            : { ...fashnInputs(model, garment, clothingOnly(input.category, FASHN_ID), tuning), return_base64: true },
        }),
      },
      {
        // No prediction id is issued on an API-level error, so sending the same request
        // again cannot run it twice. An exhausted balance does not get better by waiting.
        retry: runRetry,
        shouldRetry: (r) => isTransientStatus(r.status) && apiError(r).error !== 'OutOfCredits',
      },
    );
    if (res.status < 200 || res.status >= 300) throw httpFailure(res, 'run');
    const answer = parseJson<FashnRunAnswer>(res, FASHN_ID, 'run');
    if (answer.error)
      throw new EngineError(
        'ENGINE_FAILED',
        MESSAGES.engineFailed,
        `fashn: run refused: ${snippet(JSON.stringify(answer.error))}`,
      );
    if (typeof answer.id !== 'string' || answer.id === '') {
      throw new EngineError(
        'ENGINE_FAILED',
        MESSAGES.engineFailed,
        `fashn: run answer has no prediction id: ${snippet(res.body)}`,
      );
    }
    return answer.id;
  }

  async function waitForOutput(call: HostedCall, id: string): Promise<string> {
    return call.poll(async () => {
      const res = await call.fetch(`${base}/v1/status/${encodeURIComponent(id)}`, { method: 'GET', headers: auth });
      if (res.status < 200 || res.status >= 300) throw httpFailure(res, 'status');
      const answer = parseJson<FashnStatusAnswer>(res, FASHN_ID, 'status');
      const status = answer.status ?? '';
      const credits = res.headers.get(FASHN_CREDITS_HEADER);
      if (credits !== null) call.log({ creditsUsed: Number(credits), status }, 'fashn credits used');
      if (status === 'completed') {
        const first = Array.isArray(answer.output) ? answer.output[0] : undefined;
        if (typeof first !== 'string' || first === '') {
          throw new EngineError(
            'ENGINE_FAILED',
            HOSTED_ENGINE_MESSAGES.noImage,
            `fashn: prediction ${id} completed without output`,
          );
        }
        return first;
      }
      if (status === 'failed') {
        const err = answer.error;
        if (err && typeof err === 'object') {
          const failure = fashnRuntimeError(err.name, err.message, id);
          if (err.name && RETRIED_RUNTIME_ERRORS.has(err.name)) throw new RetryableRun(failure);
          throw failure;
        }
        throw fashnRuntimeError(undefined, typeof err === 'string' ? err : undefined, id);
      }
      if (status === 'time_out')
        throw new EngineError(
          'ENGINE_TIMEOUT',
          MESSAGES.engineTimeout,
          `fashn: prediction ${id} timed out at the provider`,
        );
      if (status === 'canceled')
        throw new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, `fashn: prediction ${id} was canceled`);
      if (!RUNNING.has(status)) call.log({ status }, 'fashn: unknown prediction status, still waiting');
      return undefined;
    });
  }

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      const [person, garment] = await Promise.all([
        reduceImage(input.person, FASHN_INPUT),
        reduceImage(input.garment, FASHN_INPUT),
      ]);
      const [modelImage, garmentImage] = [toDataUrl(person), toDataUrl(garment)];
      let output: string | undefined;
      for (let run = 1; output === undefined; run++) {
        const id = await start(call, input, modelImage, garmentImage);
        call.requestId = id;
        call.log(
          {
            model: modelName,
            category: max ? input.category : FASHN_CATEGORIES[clothingOnly(input.category, FASHN_ID)],
            mode: max ? undefined : mode,
            run,
          },
          'fashn prediction started',
        );
        try {
          output = await waitForOutput(call, id);
        } catch (err) {
          if (!(err instanceof RetryableRun)) throw err;
          // FASHN: a PipelineError is not charged and may be retried; once, within the same deadline
          if (run >= 2) throw err.failure;
          call.warn({ detail: err.failure.detail }, 'fashn: PipelineError, starting the prediction once more');
        }
      }
      // The output lives on a CDN (no key is sent there), or inline as a data URI.
      const bytes = await readOutputImage(call, output, FASHN_ID, { ownOrigins: [baseOrigin] });
      return finishResult(bytes, person, FASHN_ID);
    });
  }

  return {
    id: FASHN_ID,
    label: FASHN.label,
    categories: FASHN.categories({ model: modelName }),
    tryOn,
    health: () => withReasons(runner.healthSnapshot(), credits.low ? [credits.low] : []),
    input: FASHN_INPUT,
    model: modelName,
    deadlineMs: runner.deadlineMs,
    checkCredits,
    async warm() {
      await checkCredits();
      if (!timer) {
        timer = setInterval(() => void checkCredits(), deps.refreshIntervalMs ?? CREDITS_CHECK_INTERVAL_MS);
        timer.unref?.();
      }
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

function apiError(res: HttpResult): FashnApiError {
  try {
    const parsed = JSON.parse(res.body.toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function httpFailure(res: HttpResult, step: 'run' | 'status'): EngineError {
  const body = apiError(res);
  const what = body.error ? `${body.error}${body.message ? `: ${snippet(body.message, 200)}` : ''}` : snippet(res.body);
  const detail = `fashn: ${step} answered HTTP ${res.status}: ${what}`;
  if (res.status === 429 && body.error !== 'OutOfCredits')
    return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}
