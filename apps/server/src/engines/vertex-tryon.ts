/**
 * `vertex-tryon`: Google's dedicated try-on model on Vertex AI (`virtual-try-on-001`). One call,
 * `POST {base}/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:predict`
 * with a service account's access token, `{instances: [{personImage: {image: {bytesBase64Encoded}},
 * productImages: [{image: {bytesBase64Encoded}}]}], parameters: {sampleCount: 1, safetySetting,
 * personGeneration, baseSteps?}}` → `{predictions: [{mimeType, bytesBase64Encoded}]}`. An image
 * the Responsible AI filters withheld comes back as `{raiFilteredReason}` (or no prediction at
 * all): a content refusal. No prompt; the result keeps the person photo's size.
 */
import { HOSTED_ENGINE_MESSAGES, MESSAGES, VERTEX_INPUT } from '@aidressup/contract';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import type { VertexConfig } from '../config/hosted-engines.js';
import { createHostedRunner, type HostedEngineDeps } from './hosted-call.js';
import { withReasons, type HostedEngineHealth } from './hosted-health.js';
import { parseJson, snippet } from './hosted-http.js';
import { finishResult, reduceImage } from './hosted-image.js';
import { clothingOnly } from './fashn.js';
import { createServiceAccountTokens, type AccessTokens } from './google-token.js';
import { VERTEX } from './descriptors.js';

const VERTEX_ID = VERTEX.id;
/** Google documents a 10 MB limit per image sent. */
export const VERTEX_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export type VertexEngineConfig = Omit<VertexConfig, 'baseSteps'> & { baseSteps?: number | undefined };

interface VertexPrediction {
  mimeType?: string;
  bytesBase64Encoded?: string;
  gcsUri?: string;
  raiFilteredReason?: string;
}
interface VertexError {
  error?: { code?: number; message?: string; status?: string };
}

/** The request body Google documents for the model (one sample; the photos inline). */
export function vertexRequest(
  cfg: Pick<VertexEngineConfig, 'safetySetting' | 'personGeneration' | 'baseSteps'>,
  person: Buffer,
  garment: Buffer,
): Record<string, unknown> {
  return {
    instances: [
      {
        personImage: { image: { bytesBase64Encoded: person.toString('base64') } },
        productImages: [{ image: { bytesBase64Encoded: garment.toString('base64') } }],
      },
    ],
    parameters: {
      sampleCount: 1,
      safetySetting: cfg.safetySetting,
      personGeneration: cfg.personGeneration,
      ...(cfg.baseSteps !== undefined ? { baseSteps: cfg.baseSteps } : {}),
    },
  };
}

/** Google's error answers (`{error: {code, message, status}}`). */
export function vertexError(status: number, body: Buffer): EngineError {
  let e: VertexError['error'] = {};
  try {
    e = (JSON.parse(body.toString('utf8')) as VertexError).error ?? {};
  } catch {
    // not JSON
  }
  const text = `${e.status ?? ''}${e.status && e.message ? ': ' : ''}${e.message ?? snippet(body)}`;
  const detail = `vertex-tryon: predict answered HTTP ${status}: ${snippet(text)}`;
  if (status === 429 || e.status === 'RESOURCE_EXHAUSTED')
    return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, detail);
  // A request the Responsible AI filters refused outright (the photos, not the service).
  if (status === 400 && /responsible ai|rai|safety|blocked|prohibited|sensitive/i.test(e.message ?? ''))
    return new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
  if (status === 404) return new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable, detail);
  return new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
}

export interface VertexEngine extends TryOnEngine {
  health(): HostedEngineHealth;
}

export interface VertexDeps extends HostedEngineDeps {
  /** Access tokens (default: the service account's JWT bearer flow, `google-token.ts`). */
  tokens?: AccessTokens;
}

export function createVertexEngine(cfg: VertexEngineConfig, deps: VertexDeps = {}): VertexEngine {
  const base = cfg.baseUrl.replace(/\/+$/, '');
  const url = `${base}/v1/projects/${encodeURIComponent(cfg.project)}/locations/${encodeURIComponent(cfg.location)}/publishers/google/models/${encodeURIComponent(cfg.model)}:predict`;
  const runner = createHostedRunner(VERTEX_ID, [cfg.credentials.private_key], deps);
  const tokens =
    deps.tokens ?? createServiceAccountTokens(cfg.credentials, (tokenUrl, init) => runner.fetchOutside(tokenUrl, init));
  /** Why no access token can be had (a revoked key, a wrong token_uri): the engine is down. */
  let noToken: string | undefined;
  let lastTokenTry = 0;
  const now = deps.now ?? Date.now;
  /** While down for want of a token, a new one is tried at most once a minute (health asks). */
  const TOKEN_RETRY_MS = 60_000;

  async function token(signal: AbortSignal): Promise<string> {
    lastTokenTry = now();
    try {
      const t = await tokens.get(signal);
      noToken = undefined;
      return t;
    } catch (err) {
      if (signal.aborted) throw err;
      noToken = `vertex-tryon: no access token for ${cfg.credentials.client_email}: ${(err as Error).message}`;
      throw new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable, noToken);
    }
  }

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      // The model needs no category (it reads the garment from the product photo): clothing only.
      clothingOnly(input.category, VERTEX_ID);
      const [person, garment] = await Promise.all([
        reduceImage(input.person, VERTEX_INPUT),
        reduceImage(input.garment, VERTEX_INPUT),
      ]);
      const bearer = await token(call.deadline.signal);
      const res = await call.fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(vertexRequest(cfg, person.data, garment.data)),
      });
      if (res.status !== 200) throw vertexError(res.status, res.body);
      const answer = parseJson<{ predictions?: VertexPrediction[] }>(res, VERTEX_ID, 'predict');
      const predictions = Array.isArray(answer.predictions) ? answer.predictions : [];
      const image = predictions.find((p) => typeof p.bytesBase64Encoded === 'string' && p.bytesBase64Encoded !== '');
      if (!image) {
        const reason = predictions.map((p) => p.raiFilteredReason).find((r) => typeof r === 'string');
        // Google leaves out filtered images: no prediction, or one with only its reason.
        if (reason !== undefined || predictions.length === 0)
          throw new EngineError(
            'CONTENT_BLOCKED',
            MESSAGES.contentBlocked,
            `vertex-tryon: the image was filtered by Responsible AI checks: ${snippet(reason ?? 'no prediction returned')}`,
          );
        throw new EngineError(
          'ENGINE_FAILED',
          HOSTED_ENGINE_MESSAGES.noImage,
          `vertex-tryon: predictions without an image: ${snippet(res.body)}`,
        );
      }
      return finishResult(Buffer.from(image.bytesBase64Encoded!, 'base64'), person, VERTEX_ID);
    });
  }

  return {
    id: VERTEX_ID,
    label: VERTEX.label,
    // Google documents the model for clothing (tops, bottoms, dresses).
    categories: VERTEX.categories(cfg),
    tryOn,
    async warm() {
      // An access token costs nothing: a key that cannot get one shows as down at once.
      await token(AbortSignal.timeout(15_000)).catch(() => undefined);
    },
    health: () => {
      if (noToken && now() - lastTokenTry >= TOKEN_RETRY_MS)
        void token(AbortSignal.timeout(15_000)).catch(() => undefined);
      return withReasons(runner.healthSnapshot(), [], noToken ? [noToken] : []);
    },
  };
}
