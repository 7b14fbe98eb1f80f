/**
 * `replicate`: a try-on model hosted on Replicate (default Pruna's `prunaai/p-image-try-on`; also
 * `cuuupid/idm-vton`, non-commercial), through Replicate's HTTP API with plain fetch. An official
 * model is run at `POST /v1/models/{owner}/{name}/predictions`, a version at `POST /v1/predictions`
 * `{version, input}`; both with `Prefer: wait=<seconds>` (the answer holds the finished prediction
 * when the model is done in time) and `Cancel-After` (Replicate cancels it at our deadline). A
 * prediction still `starting` or `processing` is polled at its `urls.get`; the result image is read
 * from the output URL with an upload's limits.
 */
import {
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  NON_COMMERCIAL_PRESETS,
  REPLICATE_DATA_URI_MAX,
  REPLICATE_INPUT,
  type TryOnModelPreset,
} from '@aidressup/contract';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import { PRESET_INPUTS, type ReplicateConfig } from '../config/hosted-engines.js';
import { createHostedRunner, onOrigin, type HostedCall, type HostedEngineDeps } from './hosted-call.js';
import type { HostedEngineHealth } from './hosted-health.js';
import { parseJson, snippet, type HttpResult } from './hosted-http.js';
import { finishResult } from './hosted-image.js';
import { photoDataUrl, readOutputImage } from './hosted-output.js';
import { firstOutputUrl, modelInput } from './model-inputs.js';
import { REPLICATE } from './descriptors.js';

const REPLICATE_ID = REPLICATE.id;
export const REPLICATE_DEFAULT_BASE_URL = 'https://api.replicate.com';
/** Replicate holds a `Prefer: wait` request open at most this long. */
export const REPLICATE_MAX_WAIT_SECONDS = 60;

export type ReplicateEngineConfig = Pick<ReplicateConfig, 'token' | 'baseUrl' | 'model' | 'version'> & {
  preset: TryOnModelPreset;
};

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string; cancel?: string };
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** Replicate's error text for a prediction its safety checker stopped (E005 "flagged as sensitive", NSFW). */
const SENSITIVE = /\bE005\b|sensitive|nsfw|safety|content (policy|moderation)/i;

/** An HTTP error answer from Replicate (`{detail}` or a problem document `{title, detail, status}`). */
export function replicateError(res: HttpResult, step: string): EngineError {
  let text = snippet(res.body);
  try {
    const json = JSON.parse(res.body.toString('utf8')) as { detail?: unknown; title?: unknown };
    text = [json.title, json.detail].filter((v) => typeof v === 'string').join(': ') || text;
  } catch {
    // not JSON
  }
  const detail = `replicate: ${step} answered HTTP ${res.status}: ${snippet(text)}`;
  if (res.status === 429) return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, detail);
  if (res.status === 422 && SENSITIVE.test(text))
    return new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}

/** A finished prediction that did not succeed. */
function predictionFailure(p: Prediction): EngineError {
  const error =
    typeof p.error === 'string' ? p.error : p.error === undefined || p.error === null ? '' : JSON.stringify(p.error);
  const detail = `replicate: prediction ${p.id ?? '?'} ${p.status ?? '?'}: ${snippet(error)}`;
  if (p.status === 'canceled' || p.status === 'aborted')
    return new EngineError('ENGINE_TIMEOUT', MESSAGES.engineTimeout, detail);
  if (SENSITIVE.test(error)) return new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}

export interface ReplicateEngine extends TryOnEngine {
  health(): HostedEngineHealth;
}

export function createReplicateEngine(cfg: ReplicateEngineConfig, deps: HostedEngineDeps = {}): ReplicateEngine {
  const base = (cfg.baseUrl ?? REPLICATE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const baseOrigin = new URL(base).origin;
  const runner = createHostedRunner(REPLICATE_ID, [cfg.token], deps);
  const auth = { authorization: `Bearer ${cfg.token}` };
  const inputs = PRESET_INPUTS[cfg.preset];
  if (!cfg.model && !cfg.version) throw new Error('replicate: REPLICATE_MODEL names neither a model nor a version');
  const createUrl = cfg.version ? `${base}/v1/predictions` : `${base}/v1/models/${cfg.model}/predictions`;
  if (NON_COMMERCIAL_PRESETS.includes(cfg.preset))
    runner.warn(
      { model: cfg.model ?? cfg.version },
      'replicate: IDM-VTON is licensed CC BY-NC-SA 4.0: non-commercial use only',
    );

  const ours = (url: string | undefined): url is string => onOrigin(url, baseOrigin);

  async function create(call: HostedCall, input: Record<string, unknown>): Promise<Prediction> {
    const seconds = Math.max(1, Math.floor(call.deadline.remaining() / 1000));
    const res = await call.fetch(createUrl, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        prefer: `wait=${Math.min(REPLICATE_MAX_WAIT_SECONDS, seconds)}`,
        // Replicate cancels the prediction (and stops billing it) once we no longer wait for it.
        'cancel-after': `${seconds}s`,
      },
      body: JSON.stringify(cfg.version ? { version: cfg.version, input } : { input }),
    });
    if (res.status !== 200 && res.status !== 201) throw replicateError(res, 'create');
    return parseJson<Prediction>(res, REPLICATE_ID, 'create');
  }

  /** Best effort: stop a prediction we no longer wait for. */
  function cancel(p: Prediction): void {
    const url = ours(p.urls?.cancel) ? p.urls.cancel : p.id ? `${base}/v1/predictions/${p.id}/cancel` : undefined;
    if (url) runner.cancel(url, { method: 'POST', headers: auth }, p.id);
  }

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      const garmentsIn = input.lowerGarment ? [input.garment, input.lowerGarment] : [input.garment];
      const [person, ...garments] = await Promise.all(
        [input.person, ...garmentsIn].map((p) => photoDataUrl(p, REPLICATE_INPUT, REPLICATE_DATA_URI_MAX)),
      );
      const body = modelInput(
        inputs,
        person!.url,
        garments.map((g) => g.url),
        input.category,
        REPLICATE_ID,
      );
      let prediction = await create(call, body);
      if (typeof prediction.id !== 'string')
        throw new EngineError(
          'ENGINE_FAILED',
          MESSAGES.engineFailed,
          `replicate: create answer has no prediction id: ${snippet(JSON.stringify(prediction))}`,
        );
      call.requestId = prediction.id;
      const id = prediction.id;
      call.log({ model: cfg.model ?? cfg.version, status: prediction.status }, 'replicate prediction created');
      if (!TERMINAL.has(prediction.status ?? '')) {
        const getUrl = ours(prediction.urls?.get) ? prediction.urls.get : `${base}/v1/predictions/${id}`;
        try {
          prediction = await call.poll(async () => {
            const res = await call.fetch(getUrl, { method: 'GET', headers: auth });
            if (res.status !== 200) throw replicateError(res, 'get');
            const p = parseJson<Prediction>(res, REPLICATE_ID, 'get');
            return TERMINAL.has(p.status ?? '') ? p : undefined;
          });
        } catch (err) {
          if (err instanceof EngineError && err.code === 'ENGINE_TIMEOUT') cancel(prediction);
          throw err;
        }
      }
      if (prediction.status !== 'succeeded') throw predictionFailure({ ...prediction, id });
      const url = firstOutputUrl(prediction.output);
      if (!url)
        throw new EngineError(
          'ENGINE_FAILED',
          HOSTED_ENGINE_MESSAGES.noImage,
          `replicate: prediction ${id} succeeded without an image: ${snippet(JSON.stringify(prediction.output ?? null))}`,
        );
      // Output files are on Replicate's CDN (no token sent) or, for the files API, under the API's origin.
      const bytes = await readOutputImage(call, url, REPLICATE_ID, {
        ownOrigins: [baseOrigin],
        authOrigin: baseOrigin,
        auth,
      });
      return finishResult(bytes, person!.image, REPLICATE_ID);
    });
  }

  return {
    id: REPLICATE_ID,
    label: REPLICATE.label,
    categories: REPLICATE.categories(cfg),
    // Pruna's model takes several garments: a whole outfit is one call (and one price plus an extra garment).
    outfit: inputs.garmentList,
    tryOn,
    health: () => runner.healthSnapshot(),
  };
}
