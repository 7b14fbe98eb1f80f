/**
 * Stand-in for the Gemini API's generateContent with image output (Gemini 3.1 Flash Image,
 * Gemini 3 Pro Image, and the older 2.5 Flash Image), for tests and benchmarks. It speaks
 * the public REST wire format: `POST /v1beta/models/{model}:generateContent`, key in
 * `x-goog-api-key`, `generationConfig.imageConfig.{aspectRatio, imageSize}`; answers with
 * `candidates[].content.parts[].inlineData`, `finishReason`, `promptFeedback.blockReason`,
 * and `{error:{code,message,status}}` bodies for HTTP errors (404 NOT_FOUND for a model it
 * does not serve). Gemini 3.x answers first carry parts marked `thought: true` (a text and
 * an interim image), then the final image with a `thoughtSignature`. It never calls Google.
 */
import { randomUUID } from 'node:crypto';
import {
  hang,
  makeResultImage,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type GeminiBehaviour =
  | { kind: 'image'; format?: 'png' | 'jpeg'; thoughts?: boolean }
  | { kind: 'finish'; reason: string; text?: string }
  | { kind: 'blocked'; reason: string }
  | { kind: 'text-only'; text?: string }
  | { kind: 'no-candidates' }
  /** A Gemini 3.x answer with thought parts (a text and an interim image) but no final image. */
  | { kind: 'thoughts-only' }
  | { kind: 'http'; status: number; statusText?: string; message?: string; retryAfter?: string }
  | { kind: 'echo-key' }
  | { kind: 'malformed' }
  | { kind: 'hang' }
  /** Held open until `release()`, then answered with an image (a slow call the test ends when it chooses). */
  | { kind: 'held' };

/** Output size per aspect ratio at 1K (2K doubles both sides, 4K quadruples them). */
export const GEMINI_OUTPUT_SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};

let thoughtPng: Promise<Buffer> | undefined;
/** A small interim "thought" image, unlike any result: a try-on must never return it. */
function thoughtImage(): Promise<Buffer> {
  thoughtPng ??= makeResultImage(64, 64, 'png');
  return thoughtPng;
}

/** One entry of the model list (`GET /v1beta/models`), as the Gemini API describes a model. */
export interface GeminiListedModel {
  name: string;
  displayName?: string;
  description?: string;
  supportedGenerationMethods?: string[];
}

export interface GeminiStandIn extends StandInServer {
  /** The models generateContent answers for (others: 404 NOT_FOUND). */
  serve(models: string[]): void;
  /**
   * The model list `GET /v1beta/models` answers with (default: the served models as image
   * models), paginated: `pageSize` per page and `nextPageToken` until the last.
   */
  listing: GeminiListedModel[];
  /** Largest page the model list answers with (the API's own cap is 1000). */
  maxPageSize: number;
  /** The model list requests received so far. */
  listCalls(): RecordedRequest[];
  /** Forget queued behaviours and recorded requests; back to plain success. */
  reset(): void;
  /** Answers for the next generateContent calls, in order; afterwards `fallback` applies. */
  enqueue(...behaviours: GeminiBehaviour[]): void;
  fallback: GeminiBehaviour;
  /** The generateContent requests received so far. */
  calls(): RecordedRequest[];
  /** responseId of the last successful answer. */
  lastResponseId: string | undefined;
  /** Answers the calls held by `{ kind: 'held' }` (at most `count` of them, oldest first); returns how many. */
  release(count?: number): number;
  /** Calls held now. */
  held(): number;
}

interface GenerateBody {
  contents?: Array<{ parts?: Array<{ text?: string; inlineData?: { mimeType?: string; data?: string } }> }>;
  generationConfig?: { responseModalities?: string[]; imageConfig?: { aspectRatio?: string; imageSize?: string } };
}

/**
 * `instant`: answer from a result image made once per aspect ratio (benchmarks measure
 * the adapter, not the stand-in).
 */
export async function startGeminiStandIn(opts: {
  apiKey: string;
  model?: string | string[];
  instant?: boolean;
}): Promise<GeminiStandIn> {
  const cache = new Map<string, Buffer>();
  const models = [opts.model ?? 'gemini-3.1-flash-image'].flat();
  const queue: GeminiBehaviour[] = [];
  const heldCalls: (() => void)[] = [];
  const paths = new Map<string, string>();
  const serve = (served: string[]) => {
    paths.clear();
    for (const m of served) paths.set(`/v1beta/models/${m}:generateContent`, m);
  };
  serve(models);
  const describe = (m: string): GeminiListedModel => ({
    name: `models/${m}`,
    displayName: m,
    description: 'Image generation and editing model.',
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  });
  const state = {
    fallback: { kind: 'image' } as GeminiBehaviour,
    lastResponseId: undefined as string | undefined,
    listing: models.map(describe),
    maxPageSize: 1000,
  };

  const server = await startStandInServer(async (req, res) => {
    const error = (code: number, status: string, message: string, headers: Record<string, string> = {}) =>
      sendJson(res, code, { error: { code, message, status } }, headers);
    if (req.method === 'GET' && req.url.split('?')[0] === '/v1beta/models') {
      if (req.headers['x-goog-api-key'] !== opts.apiKey)
        return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      const query = new URL(req.url, 'http://stand-in').searchParams;
      const size = Math.min(state.maxPageSize, Number(query.get('pageSize') ?? 50) || 50);
      const from = Number(query.get('pageToken') ?? 0) || 0;
      const page = state.listing.slice(from, from + size);
      const next = from + size < state.listing.length ? String(from + size) : undefined;
      return sendJson(res, 200, { models: page, ...(next ? { nextPageToken: next } : {}) });
    }
    if (req.method !== 'POST' || !req.url.startsWith('/v1beta/models/')) return error(404, 'NOT_FOUND', 'Not found.');
    const model = paths.get(decodeURIComponent(req.url));
    if (!model) {
      const asked = decodeURIComponent(req.url)
        .split('/')
        .pop()!
        .replace(/:generateContent$/, '');
      return error(
        404,
        'NOT_FOUND',
        `models/${asked} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      );
    }
    const gemini3 = /^gemini-3/.test(model);
    const key = req.headers['x-goog-api-key'];
    if (!key) return error(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers.");
    if (key !== opts.apiKey) return error(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    const body = req.json as GenerateBody | undefined;
    const parts = body?.contents?.[0]?.parts ?? [];
    const images = parts.filter((p) => p.inlineData?.data);
    if (!body || parts.length === 0) return error(400, 'INVALID_ARGUMENT', 'contents is not specified');
    if (images.some((p) => !['image/jpeg', 'image/png', 'image/webp'].includes(p.inlineData?.mimeType ?? ''))) {
      return error(400, 'INVALID_ARGUMENT', 'Unsupported MIME type.');
    }

    let behaviour = queue.shift() ?? state.fallback;
    if (behaviour.kind === 'held') {
      await new Promise<void>((resolve) => heldCalls.push(resolve));
      behaviour = { kind: 'image' };
    }
    const responseId = randomUUID().replace(/-/g, '').slice(0, 22);
    const usageMetadata = { promptTokenCount: 560, candidatesTokenCount: 1290, totalTokenCount: 1850 };
    switch (behaviour.kind) {
      case 'hang':
        return hang(res);
      case 'malformed':
        return sendMalformedJson(res);
      case 'echo-key':
        return error(400, 'INVALID_ARGUMENT', `Request with key ${String(key)} was rejected.`);
      case 'http':
        return error(
          behaviour.status,
          behaviour.statusText ??
            (behaviour.status === 429
              ? 'RESOURCE_EXHAUSTED'
              : behaviour.status >= 500
                ? 'INTERNAL'
                : 'INVALID_ARGUMENT'),
          behaviour.message ??
            (behaviour.status === 429
              ? 'Resource has been exhausted (e.g. check quota).'
              : 'An internal error has occurred.'),
          behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {},
        );
      case 'blocked':
        return sendJson(res, 200, {
          promptFeedback: { blockReason: behaviour.reason },
          usageMetadata,
          modelVersion: model,
          responseId,
        });
      case 'no-candidates':
        return sendJson(res, 200, { candidates: [], usageMetadata, modelVersion: model, responseId });
      case 'finish':
        return sendJson(res, 200, {
          candidates: [
            {
              content: behaviour.text ? { role: 'model', parts: [{ text: behaviour.text }] } : { role: 'model' },
              finishReason: behaviour.reason,
              index: 0,
            },
          ],
          usageMetadata,
          modelVersion: model,
          responseId,
        });
      case 'thoughts-only':
        return sendJson(res, 200, {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  { text: '**Planning the edit**', thought: true },
                  {
                    inlineData: { mimeType: 'image/png', data: (await thoughtImage()).toString('base64') },
                    thought: true,
                  },
                ],
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata,
          modelVersion: model,
          responseId,
        });
      case 'text-only':
        return sendJson(res, 200, {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: behaviour.text ?? 'I cannot edit this image.' }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata,
          modelVersion: model,
          responseId,
        });
      case 'image': {
        const ratio = body.generationConfig?.imageConfig?.aspectRatio ?? '1:1';
        const base = GEMINI_OUTPUT_SIZES[ratio];
        if (!base) return error(400, 'INVALID_ARGUMENT', `Unsupported aspect ratio: ${ratio}`);
        const imageSize = body.generationConfig?.imageConfig?.imageSize ?? '1K';
        const factor = { '1K': 1, '2K': 2, '4K': 4 }[imageSize];
        if (!factor)
          return error(
            400,
            'INVALID_ARGUMENT',
            `Invalid value at 'generation_config.image_config.image_size': ${imageSize}`,
          );
        const size: [number, number] = gemini3 ? [base[0] * factor, base[1] * factor] : base;
        const personData = images[0]?.inlineData?.data;
        const format = behaviour.format ?? 'png';
        const cacheKey = `${size[0]}x${size[1]}/${format}`;
        const out =
          (opts.instant ? cache.get(cacheKey) : undefined) ??
          (await makeResultImage(size[0], size[1], format, personData ? Buffer.from(personData, 'base64') : undefined));
        if (opts.instant) cache.set(cacheKey, out);
        state.lastResponseId = responseId;
        const final = { inlineData: { mimeType: `image/${format}`, data: out.toString('base64') } };
        const parts =
          gemini3 && behaviour.thoughts !== false
            ? [
                {
                  text: '**Planning the edit**\nSwapping the top while keeping the pose and background.',
                  thought: true,
                },
                {
                  inlineData: { mimeType: 'image/png', data: (await thoughtImage()).toString('base64') },
                  thought: true,
                },
                { ...final, thoughtSignature: 'c3RhbmQtaW4tdGhvdWdodC1zaWduYXR1cmU=' },
              ]
            : [final];
        return sendJson(res, 200, {
          candidates: [
            {
              content: { role: 'model', parts },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata,
          modelVersion: model,
          responseId,
        });
      }
    }
  });

  return {
    ...server,
    reset: () => {
      queue.length = 0;
      server.requests.length = 0;
      state.fallback = { kind: 'image' };
      serve(models);
      state.listing = models.map(describe);
      state.maxPageSize = 1000;
    },
    get url() {
      return server.url;
    },
    enqueue: (...b) => void queue.push(...b),
    get fallback() {
      return state.fallback;
    },
    set fallback(b: GeminiBehaviour) {
      state.fallback = b;
    },
    get lastResponseId() {
      return state.lastResponseId;
    },
    set lastResponseId(v) {
      state.lastResponseId = v;
    },
    calls: () => server.requests.filter((r) => r.method === 'POST'),
    release(count = Infinity) {
      const released = heldCalls.splice(0, count);
      for (const answer of released) answer();
      return released.length;
    },
    held: () => heldCalls.length,
    listCalls: () => server.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/v1beta/models')),
    serve,
    get listing() {
      return state.listing;
    },
    set listing(l: GeminiListedModel[]) {
      state.listing = l;
    },
    get maxPageSize() {
      return state.maxPageSize;
    },
    set maxPageSize(n: number) {
      state.maxPageSize = n;
    },
  };
}
