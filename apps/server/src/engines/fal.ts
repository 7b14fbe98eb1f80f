/**
 * `fal`: a try-on model hosted on fal.ai (default FASHN v1.6, `fal-ai/fashn/tryon/v1.6`),
 * called through fal's queue API with plain fetch: submit to `{base}/{model}`, poll the
 * returned `status_url` until COMPLETED, read `response_url`, take the image (a data URI
 * with `sync_mode`, else a CDN link that is downloaded). The submit carries
 * `x-fal-request-timeout` (fal gives up on a request that has not started by our
 * deadline) and `x-fal-object-lifecycle-preference` (output files kept one hour, the
 * shortest named lifecycle fal's client offers).
 */
import {
  FAL_DEFAULT_MODEL,
  FAL_MODELS,
  FASHN_DEFAULT_MODE,
  FASHN_INPUT,
  GEMINI_INPUT,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  type Category,
  type FalModel,
  type HostedInputSpec,
} from '@aidressup/contract';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import type { Config } from '../config.js';
import { createHostedRunner, onOrigin, type HostedCall, type HostedEngineDeps } from './hosted-call.js';
import type { HostedEngineHealth } from './hosted-health.js';
import { parseJson, snippet } from './hosted-http.js';
import { finishResult, reduceImage, toDataUrl, type ReducedImage } from './hosted-image.js';
import { readOutputImage } from './hosted-output.js';
import { clothingOnly, fashnInputs, fashnRuntimeError, type FashnTuning } from './fashn.js';
import { FAL } from './descriptors.js';

type FullFalConfig = NonNullable<Config['engines']['fal']>;
/**
 * The configured fal engine; `fashnMode` (FASHN_MODE) defaults to FASHN_DEFAULT_MODE
 * (`balanced`), and FASHN's other inputs to FASHN's own defaults.
 */
export type FalConfig = Pick<FullFalConfig, 'key' | 'baseUrl' | 'model'> &
  Partial<Omit<FullFalConfig, 'key' | 'baseUrl' | 'model'>>;

const FAL_ID = FAL.id;
export const FAL_DEFAULT_BASE_URL = 'https://queue.fal.run';
export { FAL_DEFAULT_MODEL };

/** How long fal keeps output files: one hour, the shortest named lifecycle its client offers ("1h"). */
export const FAL_OUTPUT_LIFETIME_SECONDS = 3600;

const isFashn = (model: string) => model.startsWith('fal-ai/fashn/');

/** The input photos the configured model wants: FASHN's size for FASHN's models, 1024 px (about 1 MP) otherwise. */
export function falInputSpec(model: string): HostedInputSpec {
  return isFashn(model) ? FASHN_INPUT : GEMINI_INPUT;
}

const GARMENT_WORDS: Record<Category, string> = {
  upper_body: 'top',
  lower_body: 'trousers or skirt',
  dresses: 'dress or full outfit',
};

/** The prompt FLUX VTO wants, in Black Forest Labs' documented form ("the person of image 1 … of image 2"). */
export function fluxVtoPrompt(category: Category): string {
  return `The person of image 1, maintaining exactly their face and pose, wearing the ${GARMENT_WORDS[category]} of image 2.`;
}

/**
 * The request body for the configured endpoint, with the input names its schema on fal gives:
 * - `fal-ai/fashn/tryon/v1.6`: FASHN's own inputs (`model_image`, `garment_image`, `category`,
 *   `mode`, `garment_photo_type`, `moderation_level`, `segmentation_free`, `seed`,
 *   `num_samples`, `output_format`) plus fal's `sync_mode` (the image as a data URI);
 * - `fal-ai/image-apps-v2/virtual-try-on`: `person_image_url`, `clothing_image_url`, `preserve_pose`;
 * - `fal-ai/flux-pro/v1/vto`: `prompt`, `human_image_url`, `garment_image_url`;
 * - `fal-ai/leffa/virtual-tryon`: `human_image_url`, `garment_image_url`, `garment_type`
 *   (`upper_body`, `lower_body`, `dresses`: our own category names);
 * - `fal-ai/kling/v1-5/kolors-virtual-try-on`: `human_image_url`, `garment_image_url`.
 */
export function falInput(
  model: string,
  person: string,
  garment: string,
  category: Category,
  tuning: FashnTuning = {},
): Record<string, unknown> {
  switch (model as FalModel) {
    case 'fal-ai/image-apps-v2/virtual-try-on':
      return { person_image_url: person, clothing_image_url: garment, preserve_pose: true };
    case 'fal-ai/flux-pro/v1/vto':
      return { prompt: fluxVtoPrompt(category), human_image_url: person, garment_image_url: garment };
    case 'fal-ai/leffa/virtual-tryon':
      return { human_image_url: person, garment_image_url: garment, garment_type: category };
    case 'fal-ai/kling/v1-5/kolors-virtual-try-on':
      return { human_image_url: person, garment_image_url: garment };
    case 'fal-ai/fashn/tryon/v1.6':
      return { ...fashnInputs(person, garment, category, tuning), sync_mode: true };
  }
  throw new Error(`fal: unsupported FAL_MODEL ${model} (supported: ${FAL_MODELS.join(', ')})`);
}

interface FalSubmitAnswer {
  request_id?: string;
  status_url?: string;
  response_url?: string;
  cancel_url?: string;
}
interface FalStatusAnswer {
  status?: string;
  queue_position?: number;
  error?: string | null;
  error_type?: string | null;
}
interface FalImage {
  url?: string;
  content_type?: string;
}
interface FalOutput {
  images?: FalImage[];
  image?: FalImage;
  /** Leffa (a boolean) and other models (one per image) flag results their safety checker caught. */
  has_nsfw_concepts?: boolean | boolean[];
}
interface FalModelError {
  loc?: unknown[];
  msg?: string;
  type?: string;
}

/** fal's error answers: a `detail` list of typed errors, or a `detail` text with `error_type`. */
export function falError(
  status: number,
  body: Buffer,
  requestId: string | undefined,
  step: string,
  headers?: Headers,
): EngineError {
  let parsed: { detail?: unknown; error_type?: string } = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    // not JSON
  }
  const items: FalModelError[] = Array.isArray(parsed.detail) ? (parsed.detail as FalModelError[]) : [];
  const types = items.map((d) => d.type ?? '').filter(Boolean);
  const text = items.length
    ? items.map((d) => `${d.type ?? '?'}: ${d.msg ?? ''}`).join('; ')
    : typeof parsed.detail === 'string'
      ? parsed.detail
      : snippet(body);
  const errorType = parsed.error_type ?? '';
  const detail = `fal: ${step} answered HTTP ${status}${requestId ? ` for request ${requestId}` : ''}: ${errorType ? `${errorType}: ` : ''}${snippet(text, 300)}`;

  if (types.some((t) => /content_policy|nsfw|safety/i.test(t))) {
    return new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
  }
  // FASHN's runtime error names come through in the message of its fal models
  const fashnName =
    /\b(ContentModerationError|ThirdPartyError|NSFWError|PoseError|PhotoTypeError|ImageLoadError)\b/.exec(text)?.[1];
  if (fashnName) {
    const mapped = fashnRuntimeError(fashnName, undefined, requestId ?? '?');
    return new EngineError(mapped.code, mapped.message, detail);
  }
  if (types.some((t) => /image_load|file_download|image_too|unsupported_image|invalid_image/i.test(t))) {
    return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.photoUnreadable, detail);
  }
  // Our x-fal-request-timeout passed before a runner started, or fal's own limits
  if (
    /^(request_timeout|startup_timeout)$/.test(errorType) ||
    (status === 504 && headers?.get('x-fal-request-timeout-type') === 'user')
  ) {
    return new EngineError('ENGINE_TIMEOUT', MESSAGES.engineTimeout, detail);
  }
  if (status === 429) return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}

export interface FalEngine extends TryOnEngine {
  health(): HostedEngineHealth;
  /** The input photos this engine wants (depends on the model). */
  readonly input: HostedInputSpec;
}

export function createFalEngine(cfg: FalConfig, deps: HostedEngineDeps = {}): FalEngine {
  const base = (cfg.baseUrl ?? FAL_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const model = cfg.model.replace(/^\/+|\/+$/g, '');
  // Status and result live under the app id (owner/app), without the model's sub-path.
  const appId = model.split('/').slice(0, 2).join('/');
  const baseOrigin = new URL(base).origin;
  const runner = createHostedRunner(FAL_ID, [cfg.key], deps);
  const auth = { authorization: `Key ${cfg.key}` };
  const mode = cfg.fashnMode ?? FASHN_DEFAULT_MODE;
  const tuning: FashnTuning = {
    mode,
    moderation: cfg.moderation,
    segmentationFree: cfg.segmentationFree,
    seed: cfg.seed,
  };
  if (!(FAL_MODELS as readonly string[]).includes(model))
    throw new Error(`fal: unsupported FAL_MODEL ${model} (supported: ${FAL_MODELS.join(', ')})`);
  const inputSpec = falInputSpec(model);

  /** Use a URL fal returned only if it is on fal's own origin: the key goes with it. */
  const onOurOrigin = (url: string | undefined): url is string => onOrigin(url, baseOrigin);

  async function submit(call: HostedCall, person: ReducedImage, garment: ReducedImage, category: Category) {
    const res = await call.fetch(`${base}/${model}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...auth,
        // seconds fal may spend before a runner starts (queue, retries): no later than our deadline
        'x-fal-request-timeout': String(Math.max(1, Math.floor(call.deadline.remaining() / 1000))),
        'x-fal-object-lifecycle-preference': JSON.stringify({
          expiration_duration_seconds: FAL_OUTPUT_LIFETIME_SECONDS,
        }),
      },
      body: JSON.stringify(falInput(model, toDataUrl(person), toDataUrl(garment), category, tuning)),
    });
    if (res.status < 200 || res.status >= 300)
      throw falError(res.status, res.body, res.headers.get('x-fal-request-id') ?? undefined, 'submit', res.headers);
    const answer = parseJson<FalSubmitAnswer>(res, FAL_ID, 'submit');
    const id = answer.request_id;
    if (typeof id !== 'string' || id === '')
      throw new EngineError(
        'ENGINE_FAILED',
        MESSAGES.engineFailed,
        `fal: submit answer has no request_id: ${snippet(res.body)}`,
      );
    const requests = `${base}/${appId}/requests/${encodeURIComponent(id)}`;
    return {
      id,
      statusUrl: onOurOrigin(answer.status_url) ? answer.status_url : `${requests}/status`,
      responseUrl: onOurOrigin(answer.response_url) ? answer.response_url : requests,
      cancelUrl: onOurOrigin(answer.cancel_url) ? answer.cancel_url : `${requests}/cancel`,
    };
  }

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      const [person, garment] = await Promise.all([
        reduceImage(input.person, inputSpec),
        reduceImage(input.garment, inputSpec),
      ]);
      const req = await submit(call, person, garment, clothingOnly(input.category, FAL_ID));
      call.requestId = req.id;
      call.log({ model, mode }, 'fal request queued');
      try {
        await call.poll(async () => {
          const res = await call.fetch(req.statusUrl, { method: 'GET', headers: auth });
          if (res.status < 200 || res.status >= 300)
            throw falError(res.status, res.body, req.id, 'status', res.headers);
          const s = parseJson<FalStatusAnswer>(res, FAL_ID, 'status');
          if (s.status === 'COMPLETED') return true;
          return undefined; // IN_QUEUE, IN_PROGRESS
        });
      } catch (err) {
        if (err instanceof EngineError && err.code === 'ENGINE_TIMEOUT')
          runner.cancel(req.cancelUrl, { method: 'PUT', headers: auth }, req.id);
        throw err;
      }
      const res = await call.fetch(req.responseUrl, { method: 'GET', headers: auth });
      if (res.status < 200 || res.status >= 300) throw falError(res.status, res.body, req.id, 'result', res.headers);
      const output = parseJson<FalOutput>(res, FAL_ID, 'result');
      if ([output.has_nsfw_concepts].flat().includes(true))
        throw new EngineError(
          'CONTENT_BLOCKED',
          MESSAGES.contentBlocked,
          `fal: request ${req.id} result flagged by the safety checker (has_nsfw_concepts)`,
        );
      const url = output.images?.[0]?.url ?? output.image?.url;
      if (typeof url !== 'string' || url === '') {
        throw new EngineError(
          'ENGINE_FAILED',
          HOSTED_ENGINE_MESSAGES.noImage,
          `fal: request ${req.id} result has no image: ${snippet(res.body)}`,
        );
      }
      // Result files sit on fal's public CDN (no key is sent there), or inline as a data URI.
      const bytes = await readOutputImage(call, url, FAL_ID, { ownOrigins: [baseOrigin] });
      return finishResult(bytes, person, FAL_ID);
    });
  }

  // None of the five endpoints documents shoes or accessories: clothing only.
  return {
    id: FAL_ID,
    label: FAL.label,
    categories: FAL.categories(cfg),
    tryOn,
    health: () => runner.healthSnapshot(),
    input: inputSpec,
  };
}
