/**
 * `nano-banana`: a Gemini image model (default `gemini-3.1-flash-image`, or
 * `gemini-3-pro-image` for higher quality) through the Gemini API's generateContent (REST,
 * plain fetch). The person and the garment go in as two inline JPEG parts after an
 * instruction that names the category; the answer's last non-thought inline image part is
 * the result (Gemini 3.x may send interim "thought" images first).
 */
import {
  GEMINI_CURRENT_MODELS,
  GEMINI_INPUT,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  type HostedInputSpec,
  type TryOnCategory,
} from '@aidressup/contract';
import { EngineError, isEngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import type { Config } from '../config.js';
import { createHostedRunner, type HostedCall, type HostedEngineDeps } from './hosted-call.js';
import { withReasons, type HostedEngineHealth } from './hosted-health.js';
import { configuredModelProblem, listGeminiModels, pickFallback, type ListedGeminiModel } from './gemini-models.js';
import { parseJson, snippet, type HttpResult } from './hosted-http.js';
import { finishResult, reduceImage } from './hosted-image.js';
import { NANO_BANANA } from './descriptors.js';

/** The configured Gemini engine; `fallbackModels` (GEMINI_FALLBACK_MODELS) defaults to none. */
export type GeminiConfig = Omit<NonNullable<Config['engines']['gemini']>, 'fallbackModels'> & {
  fallbackModels?: readonly string[];
};

const NANO_BANANA_ID = NANO_BANANA.id;
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Output aspect ratios every Gemini image model accepts in imageConfig.aspectRatio. */
export const GEMINI_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
export type GeminiAspectRatio = (typeof GEMINI_ASPECT_RATIOS)[number];

/** The supported ratio closest to width:height (compared on a log scale, so 2:1 and 1:2 are equally far from 1:1). */
export function nearestAspectRatio(width: number, height: number): GeminiAspectRatio {
  const r = Math.log(width / height);
  let best: GeminiAspectRatio = '1:1';
  let bestDist = Infinity;
  for (const ratio of GEMINI_ASPECT_RATIOS) {
    const [a, b] = ratio.split(':').map(Number) as [number, number];
    const d = Math.abs(Math.log(a / b) - r);
    if (d < bestDist) {
      best = ratio;
      bestDist = d;
    }
  }
  return best;
}

const CATEGORY_WORDING: Record<TryOnCategory, { region: string; garment: string; change: string; keep: string }> = {
  upper_body: {
    region: 'upper body',
    garment: 'an upper-body garment (for example a T-shirt, shirt, blouse, sweater or jacket)',
    change: 'Replace only the clothing on the upper body (torso and arms) with this garment.',
    keep: 'Keep the trousers, skirt or other lower-body clothing, the shoes and any accessories exactly as they are.',
  },
  lower_body: {
    region: 'lower body',
    garment: 'a lower-body garment (for example trousers, jeans, shorts or a skirt)',
    change: 'Replace only the clothing on the lower body (from the waist down to the ankles) with this garment.',
    keep: 'Keep the top, jacket or other upper-body clothing, the shoes and any accessories exactly as they are.',
  },
  dresses: {
    region: 'full outfit',
    garment: 'a full outfit (for example a dress, jumpsuit, suit or complete outfit)',
    change: "Replace the person's whole outfit, from the shoulders down, with this outfit.",
    keep: 'Keep the shoes and accessories unless the outfit clearly includes them.',
  },
  accessories: {
    region: 'shoes and accessories',
    garment:
      'a pair of shoes or an accessory (for example shoes, boots, sneakers, a bag, a hat, a cap, a necklace, earrings, a bracelet, a watch or sunglasses)',
    change:
      'Identify the item in the second image and put it on the person where it is worn: shoes on the feet, a bag carried in the hand or on the shoulder, a hat or cap on the head, jewellery on the neck, ears or wrists, sunglasses on the face. Replace only the matching item the person already wears, if any.',
    keep: 'Keep all of the clothing exactly as it is.',
  },
};

/** The instruction sent with the two photos. */
export function buildTryOnInstruction(category: TryOnCategory): string {
  const w = CATEGORY_WORDING[category];
  return [
    `Virtual try-on (category: ${w.region}).`,
    `The first image is a photo of a person. The second image shows ${w.garment}.`,
    `Edit the first image so that the person is wearing the garment from the second image. ${w.change}`,
    w.keep,
    'Keep everything else exactly as in the first image: the same person and identity, face, facial expression, hair, skin tone, pose, body shape and proportions, hands, background, lighting and framing.',
    "Reproduce the garment's colour, pattern, print, texture and cut faithfully, fitted naturally to the person's body with realistic folds and shadows.",
    'Do not add people, text, logos or watermarks. Answer with the edited photo only.',
  ].join(' ');
}

export type GeminiImageSize = '1K' | '2K' | '4K';

/**
 * The output size to ask for in imageConfig.imageSize, or undefined for a model that does
 * not take one (Gemini 2.5 Flash Image answers at 1K only). Gemini 3.x Flash Image is asked
 * for 1K (its default: the fastest and cheapest size that still exceeds what the shopper
 * sees); Gemini 3.x Pro Image for 2K, which costs the same as 1K there.
 */
export function geminiImageSize(model: string): GeminiImageSize | undefined {
  const m = model.replace(/^models\//, '');
  if (/^gemini-3(\.\d+)?-pro-image/.test(m)) return '2K';
  if (/^gemini-3(\.\d+)?-flash-image/.test(m)) return '1K';
  return undefined;
}

interface GeminiPart {
  text?: string;
  /** Gemini 3.x: an interim part of the model's reasoning, not the answer. */
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  inline_data?: { mime_type?: string; data?: string };
}
interface GeminiResponse {
  responseId?: string;
  modelVersion?: string;
  candidates?: Array<{ content?: { parts?: GeminiPart[] }; finishReason?: string; finishMessage?: string }>;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
}
interface GeminiErrorBody {
  error?: { code?: number; message?: string; status?: string };
}

/** finishReason values that mean the photos or the result hit a safety filter. */
const SAFETY_FINISH = new Set([
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
]);
/**
 * promptFeedback.blockReason values that are safety refusals. `OTHER` ("blocked for other
 * reasons", e.g. the prompt's language) and unknown values are not.
 */
const SAFETY_BLOCK = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'IMAGE_SAFETY']);

export interface NanoBananaEngine extends TryOnEngine {
  health(): HostedEngineHealth;
  /** The input photos this engine wants. */
  readonly input: HostedInputSpec;
  /** Both garments of an outfit go to Gemini in one request (two calls only if that answer has no image). */
  readonly outfit: true;
  /** The model try-ons use now: GEMINI_MODEL, or its replacement after a "model not found" answer. */
  activeModel(): string;
  /** Reads the model list again (at start, then hourly); never throws. */
  refreshModels(): Promise<void>;
}

/** The instruction for a whole outfit in one request: the person, the top, then the bottom. */
export function buildOutfitInstruction(): string {
  return [
    'Virtual try-on (category: whole outfit, a top and a bottom).',
    'The first image is a photo of a person. The second image shows an upper-body garment (for example a T-shirt, shirt, blouse, sweater or jacket). The third image shows a lower-body garment (for example trousers, jeans, shorts or a skirt).',
    'Edit the first image so that the person is wearing both garments: the garment from the second image on the upper body (torso and arms) and the garment from the third image on the lower body (from the waist down to the ankles).',
    'Keep the shoes and any accessories exactly as they are.',
    'Keep everything else exactly as in the first image: the same person and identity, face, facial expression, hair, skin tone, pose, body shape and proportions, hands, background, lighting and framing.',
    "Reproduce each garment's colour, pattern, print, texture and cut faithfully, fitted naturally to the person's body with realistic folds and shadows.",
    'Do not add people, text, logos or watermarks. Answer with the edited photo only.',
  ].join(' ');
}

/** Photos of one request: the person first, then the garments in the instruction's order. */
type Reduced = Awaited<ReturnType<typeof reduceImage>>;

export function createNanoBananaEngine(cfg: GeminiConfig, deps: HostedEngineDeps = {}): NanoBananaEngine {
  const base = (cfg.baseUrl ?? GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const configured = cfg.model.replace(/^models\//, '');
  const preferred = (cfg.fallbackModels ?? []).map((m) => m.replace(/^models\//, ''));
  const runner = createHostedRunner(NANO_BANANA_ID, [cfg.apiKey], deps);
  const headers = { 'content-type': 'application/json', 'x-goog-api-key': cfg.apiKey };
  const state = {
    active: configured,
    listed: undefined as ListedGeminiModel[] | undefined,
    /** From the last listing: the configured model is missing or deprecated. */
    problem: undefined as string | undefined,
    /** Set when try-ons run on a replacement after a "model not found" answer. */
    switched: undefined as string | undefined,
  };
  let timer: NodeJS.Timeout | undefined;
  /** The HTTP status of a "model gone" answer, for the operator's log line. */
  const goneStatus = new WeakMap<Error, number>();

  function useListing(listed: ListedGeminiModel[]): void {
    state.listed = listed;
    state.active = configured;
    state.switched = undefined;
    const problem = configuredModelProblem(listed, configured, preferred);
    if (problem && problem !== state.problem) runner.warn({ model: configured }, `nano-banana: ${problem}`);
    state.problem = problem;
  }

  async function refreshModels(): Promise<void> {
    try {
      useListing(await listGeminiModels((url, init) => runner.fetchOutside(url, init), base, cfg.apiKey));
    } catch (err) {
      runner.warn(
        { error: err instanceof Error ? err.message : String(err) },
        'nano-banana: could not read the Gemini model list; keeping the current model',
      );
    }
  }

  async function generate(call: HostedCall, model: string, parts: unknown[], person: Reduced) {
    const aspectRatio = nearestAspectRatio(person.width, person.height);
    const imageSize = geminiImageSize(model);
    const body = {
      contents: [{ role: 'user', parts }],
      generationConfig: {
        responseModalities: ['IMAGE'],
        imageConfig: { aspectRatio, ...(imageSize ? { imageSize } : {}) },
      },
    };
    const endpoint = `${base}/v1beta/models/${encodeURIComponent(model)}:generateContent`;
    const res = await call.fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status < 200 || res.status >= 300) {
      const failure = httpFailure(res, model);
      goneStatus.set(failure, res.status);
      throw failure;
    }
    const answer = parseJson<GeminiResponse>(res, NANO_BANANA_ID, 'generateContent');
    call.requestId = typeof answer.responseId === 'string' ? answer.responseId : undefined;
    call.log({ model, aspectRatio, imageSize, modelVersion: answer.modelVersion }, 'gemini answered');
    return imageFrom(answer);
  }

  /**
   * One generateContent on the active model; when Gemini answers that the model is gone, the
   * best listed replacement is tried once (same deadline, same engine call: one charge at most)
   * and kept until the next listing.
   */
  async function generateWithFallback(call: HostedCall, parts: unknown[], person: Reduced): Promise<Buffer> {
    const model = state.active;
    try {
      return await generate(call, model, parts, person);
    } catch (err) {
      if (!(isEngineError(err) && err.message === HOSTED_ENGINE_MESSAGES.unavailable)) throw err;
      let listed = state.listed;
      if (!listed) {
        try {
          listed = await listGeminiModels((url, init) => call.fetch(url, init), base, cfg.apiKey);
          state.listed = listed;
        } catch {
          listed = [];
        }
      }
      const replacement = pickFallback(listed, configured, preferred, [model]);
      if (!replacement) {
        call.warn(
          { model, status: goneStatus.get(err), detail: err.detail },
          `nano-banana: the Gemini model "${model}" is not available (retired or unknown): set GEMINI_MODEL to a current model (${GEMINI_CURRENT_MODELS.join(' or ')})`,
        );
        throw err;
      }
      state.active = replacement;
      state.switched = `the Gemini model "${model}" answered that it does not exist; try-ons use "${replacement}" until the next model listing: set GEMINI_MODEL (or GEMINI_FALLBACK_MODELS) to a current model`;
      call.warn(
        { model, replacement, status: goneStatus.get(err), detail: err.detail },
        `nano-banana: ${state.switched}`,
      );
      return generate(call, replacement, parts, person);
    }
  }

  const inline = (img: Reduced) => ({ inlineData: { mimeType: img.mimeType, data: img.data.toString('base64') } });

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      const { lowerGarment } = input;
      const [person, garment, lower] = await Promise.all([
        reduceImage(input.person, GEMINI_INPUT),
        reduceImage(input.garment, GEMINI_INPUT),
        lowerGarment ? reduceImage(lowerGarment, GEMINI_INPUT) : undefined,
      ]);
      if (!lower) {
        const parts = [{ text: buildTryOnInstruction(input.category) }, inline(person), inline(garment)];
        return finishResult(await generateWithFallback(call, parts, person), person, NANO_BANANA_ID);
      }
      // A whole outfit: both garments in one request; if that answer has no image, the bottom
      // and then the top, one request each, under the same deadline.
      try {
        const parts = [{ text: buildOutfitInstruction() }, inline(person), inline(garment), inline(lower)];
        const bytes = await generateWithFallback(call, parts, person);
        call.log({ requests: 1 }, 'gemini outfit in one request');
        return finishResult(bytes, person, NANO_BANANA_ID);
      } catch (err) {
        if (!(isEngineError(err) && err.message === HOSTED_ENGINE_MESSAGES.noImage)) throw err;
        call.log({ detail: err.detail }, 'gemini outfit: no image in one request, dressing bottom then top');
      }
      const bottom = await generateWithFallback(
        call,
        [{ text: buildTryOnInstruction('lower_body') }, inline(person), inline(lower)],
        person,
      );
      const dressed = await reduceImage(bottom, GEMINI_INPUT);
      const top = await generateWithFallback(
        call,
        [{ text: buildTryOnInstruction('upper_body') }, inline(dressed), inline(garment)],
        dressed,
      );
      return finishResult(top, person, NANO_BANANA_ID);
    });
  }

  return {
    id: NANO_BANANA_ID,
    label: NANO_BANANA.label,
    // Gemini edits from an instruction: the accessory is named in it (buildTryOnInstruction).
    categories: NANO_BANANA.categories(cfg),
    tryOn,
    outfit: true,
    health: () =>
      withReasons(
        runner.healthSnapshot(),
        [state.problem, state.switched].filter((r): r is string => r !== undefined),
      ),
    input: GEMINI_INPUT,
    activeModel: () => state.active,
    refreshModels,
    async warm() {
      await refreshModels();
      if (!timer) {
        timer = setInterval(() => void refreshModels(), deps.refreshIntervalMs ?? MODEL_LIST_INTERVAL_MS);
        timer.unref?.();
      }
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/** The model list is read at start, then hourly. */
export const MODEL_LIST_INTERVAL_MS = 60 * 60 * 1000;

/** A 404, or an answer saying the model is unknown, retired or not served any more. */
function isModelGone(status: number, apiStatus: string, message: string): boolean {
  if (status === 404 || apiStatus === 'NOT_FOUND') return true;
  return (
    status === 400 &&
    /\bmodels?\b.*\b(not found|retired|deprecated|no longer (available|supported)|shut ?down|not supported for generateContent)\b/i.test(
      message,
    )
  );
}

function httpFailure(res: HttpResult, model: string): EngineError {
  let status = '';
  let message = snippet(res.body);
  try {
    const parsed = JSON.parse(res.body.toString('utf8')) as GeminiErrorBody;
    status = parsed.error?.status ?? '';
    message = parsed.error?.message ? snippet(parsed.error.message) : message;
  } catch {
    // not JSON: keep the raw snippet
  }
  const detail = `nano-banana: HTTP ${res.status}${status ? ` ${status}` : ''} for model ${model}: ${message}`;
  if (isModelGone(res.status, status, message))
    return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable, detail);
  if (res.status === 429) return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}

/** The image bytes of a successful answer, or the specific failure. */
function imageFrom(answer: GeminiResponse): Buffer {
  const block = answer.promptFeedback?.blockReason;
  if (block) {
    const detail = `nano-banana: prompt blocked (blockReason=${block}${answer.promptFeedback?.blockReasonMessage ? `: ${snippet(answer.promptFeedback.blockReasonMessage, 200)}` : ''})`;
    if (SAFETY_BLOCK.has(block)) throw new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
    throw new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, detail);
  }
  const candidate = answer.candidates?.[0];
  if (!candidate)
    throw new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage, 'nano-banana: answer has no candidates');
  const reason = candidate.finishReason ?? 'STOP';
  const parts = candidate.content?.parts ?? [];
  const answerParts = parts.filter((p) => p.thought !== true);
  const text = answerParts
    .map((p) => p.text)
    .filter((t): t is string => typeof t === 'string')
    .join(' ');
  const said = text ? `; model said: ${snippet(text, 200)}` : '';
  if (SAFETY_FINISH.has(reason)) {
    throw new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, `nano-banana: finishReason=${reason}${said}`);
  }
  if (reason !== 'STOP') {
    throw new EngineError(
      'ENGINE_FAILED',
      HOSTED_ENGINE_MESSAGES.noImage,
      `nano-banana: finishReason=${reason}${said}`,
    );
  }
  // The final image is the last inline image that is not a thought.
  for (const part of [...answerParts].reverse()) {
    const data = part.inlineData?.data ?? part.inline_data?.data;
    if (typeof data === 'string' && data.length > 0) return Buffer.from(data, 'base64');
  }
  const thoughts = parts.length - answerParts.length;
  throw new EngineError(
    'ENGINE_FAILED',
    HOSTED_ENGINE_MESSAGES.noImage,
    `nano-banana: answer has no image part${thoughts ? ` (only ${thoughts} thought part(s))` : ''}${said}`,
  );
}
