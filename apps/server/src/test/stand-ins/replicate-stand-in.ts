/**
 * Stand-in for Replicate's HTTP API, for tests and benchmarks. It speaks the public wire format:
 * `POST /v1/models/{owner}/{name}/predictions` `{input}` (an official model) or `POST
 * /v1/predictions` `{version, input}`, with `Authorization: Bearer …`, `Prefer: wait[=n]` (the
 * answer holds the finished prediction when it is done within n seconds, else the prediction
 * `starting`/`processing`) and `Cancel-After`; `GET /v1/predictions/{id}` (the `urls.get` to poll)
 * and `POST /v1/predictions/{id}/cancel`. A prediction is `{id, model, version, input, status:
 * starting|processing|succeeded|failed|canceled, output, error, urls: {get, cancel, stream}}`; the
 * output is a file URL on a second origin (Replicate's delivery CDN), which answers without any
 * token. Inputs are checked like each model's schema (P-Image-Try-On: `person_image`,
 * `garment_images` 1–11; IDM-VTON: `human_img`, `garm_img`, `category`), data URIs at most 1 MB.
 * It never calls Replicate.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { REPLICATE_DATA_URI_MAX } from '@aidressup/contract';
import {
  hang,
  makeResultImage,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type ReplicateOutcome =
  | { kind: 'succeeded'; polls?: number; output?: 'url' | 'list' | 'none' | 'too-large' | 'not-image' }
  | { kind: 'failed'; polls?: number; error: string }
  | { kind: 'processing-forever' };

export type ReplicateBehaviour =
  | { kind: 'accept'; outcome?: ReplicateOutcome }
  | { kind: 'http'; status: number; detail?: string }
  | { kind: 'malformed' }
  | { kind: 'hang' };

export interface ReplicateStandIn extends StandInServer {
  /** The delivery CDN's origin (output files). */
  readonly cdnUrl: string;
  reset(): void;
  enqueue(...b: ReplicateBehaviour[]): void;
  fallback: ReplicateBehaviour;
  createCalls(): RecordedRequest[];
  getCalls(): RecordedRequest[];
  cancelCalls(): RecordedRequest[];
  fileCalls(): RecordedRequest[];
  predictionIds: string[];
}

interface Stored {
  id: string;
  model: string;
  outcome: ReplicateOutcome;
  polls: number;
  output: Buffer;
  canceled: boolean;
}

const MODEL_SCHEMAS: Record<string, { person: string; garment: string; list: boolean; category?: string[] }> = {
  'prunaai/p-image-try-on': { person: 'person_image', garment: 'garment_images', list: true },
  'cuuupid/idm-vton': {
    person: 'human_img',
    garment: 'garm_img',
    list: false,
    category: ['upper_body', 'lower_body', 'dresses'],
  },
};
/** A version id the stand-in knows as IDM-VTON's. */
export const IDM_VTON_VERSION = 'c871bb9b046607b680449ecbae55fd8c6d945e0a1948644bf2361b3d021d3ff4';

export async function startReplicateStandIn(opts: { token: string; instant?: boolean }): Promise<ReplicateStandIn> {
  const queue: ReplicateBehaviour[] = [];
  const predictions = new Map<string, Stored>();
  const predictionIds: string[] = [];
  const state = { fallback: { kind: 'accept' } as ReplicateBehaviour };
  let cached: Buffer | undefined;
  let base = '';

  const cdn = await startStandInServer((req, res) => {
    const m = /^\/([a-z0-9]+)\/(out\.jpg|big\.jpg|page\.html)$/.exec(req.url);
    const p = m ? predictions.get(m[1]!) : undefined;
    if (!p) return sendJson(res, 404, { detail: 'Not found' });
    if (m![2] === 'page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>not an image</body></html>');
    }
    const body = m![2] === 'big.jpg' ? Buffer.concat([p.output, Buffer.alloc(11 * 1024 * 1024)]) : p.output;
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) });
    return res.end(body);
  });

  const view = (p: Stored) => {
    const o = p.outcome;
    const done = o.kind !== 'processing-forever' && p.polls >= (o.polls ?? 0);
    const status = p.canceled
      ? 'canceled'
      : !done
        ? p.polls === 0
          ? 'starting'
          : 'processing'
        : o.kind === 'failed'
          ? 'failed'
          : 'succeeded';
    let output: unknown = null;
    if (status === 'succeeded' && o.kind === 'succeeded') {
      const file = o.output === 'too-large' ? 'big.jpg' : o.output === 'not-image' ? 'page.html' : 'out.jpg';
      const url = `${cdn.url}/${p.id}/${file}`;
      output = o.output === 'none' ? null : o.output === 'list' ? [url] : url;
    }
    return {
      id: p.id,
      model: p.model,
      version: 'hidden',
      status,
      output,
      error: status === 'failed' && o.kind === 'failed' ? o.error : null,
      logs: '',
      metrics: status === 'succeeded' ? { predict_time: 1.2 } : {},
      urls: {
        get: `${base}/v1/predictions/${p.id}`,
        cancel: `${base}/v1/predictions/${p.id}/cancel`,
        stream: `${base}/v1/predictions/${p.id}/stream`,
      },
    };
  };

  const server = await startStandInServer(async (req, res) => {
    const path = req.url.split('?')[0]!;
    if (req.headers.authorization !== `Bearer ${opts.token}`)
      return sendJson(res, 401, {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      });
    const official = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(path);
    if (req.method === 'POST' && (official || path === '/v1/predictions')) {
      const body = req.json as { input?: Record<string, unknown>; version?: string } | undefined;
      const modelName = official ? official[1]! : body?.version === IDM_VTON_VERSION ? 'cuuupid/idm-vton' : undefined;
      const schema = modelName ? MODEL_SCHEMAS[modelName] : undefined;
      if (!schema)
        return sendJson(res, 404, {
          title: 'Not found',
          detail: 'The requested resource could not be found.',
          status: 404,
        });
      const prefer = String(req.headers.prefer ?? '');
      if (prefer && !/^wait(=([1-9]|[1-5]\d|60))?$/.test(prefer))
        return sendJson(res, 400, {
          title: 'Invalid Prefer header',
          detail: 'Prefer must be wait or wait=1..60',
          status: 400,
        });
      const cancelAfter = req.headers['cancel-after'];
      if (cancelAfter !== undefined && !/^\d+(ms|s|m|h)$/.test(String(cancelAfter)))
        return sendJson(res, 400, { title: 'Invalid Cancel-After header', detail: String(cancelAfter), status: 400 });
      const input = body?.input ?? {};
      const problems: string[] = [];
      const isDataUri = (v: unknown) => typeof v === 'string' && /^data:image\/(jpeg|png|webp);base64,/.test(v);
      if (!isDataUri(input[schema.person])) problems.push(`${schema.person}: a file is required`);
      const garments = schema.list ? input[schema.garment] : [input[schema.garment]];
      if (!Array.isArray(garments) || garments.length < 1 || garments.length > 11 || !garments.every(isDataUri))
        problems.push(`${schema.garment}: ${schema.list ? '1 to 11 files' : 'a file'} required`);
      if (schema.category && !schema.category.includes(String(input.category)))
        problems.push(`category: must be one of ${schema.category.join(', ')}`);
      if (problems.length)
        return sendJson(res, 422, { title: 'Input validation failed', detail: problems.join('; '), status: 422 });
      const uris = [input[schema.person], ...(garments as unknown[])].map(String);
      if (uris.some((u) => u.length > REPLICATE_DATA_URI_MAX))
        return sendJson(res, 413, {
          title: 'Request too large',
          detail: 'data URIs must stay under 1 MB',
          status: 413,
        });
      const b = queue.shift() ?? state.fallback;
      if (b.kind === 'hang') return hang(res);
      if (b.kind === 'malformed') return sendMalformedJson(res, 201);
      if (b.kind === 'http')
        return sendJson(res, b.status, {
          title: b.status === 429 ? 'Request was throttled' : 'Internal server error',
          detail:
            b.detail ??
            (b.status === 429 ? 'Request was throttled. Your rate limit resets in ~10s.' : 'Something went wrong'),
          status: b.status,
        });
      const id = randomBytes(13).toString('hex').slice(0, 26);
      predictionIds.push(id);
      const person = Buffer.from(uris[0]!.slice(uris[0]!.indexOf(',') + 1), 'base64');
      const meta = await sharp(person).metadata();
      const output =
        (opts.instant ? cached : undefined) ??
        (await makeResultImage(meta.width ?? 512, meta.height ?? 768, 'jpeg', person));
      if (opts.instant) cached = output;
      const p: Stored = {
        id,
        model: modelName!,
        outcome: b.outcome ?? { kind: 'succeeded' },
        polls: 0,
        output,
        canceled: false,
      };
      predictions.set(id, p);
      return sendJson(res, 201, view(p), { location: `${base}/v1/predictions/${id}` });
    }
    const one = /^\/v1\/predictions\/([a-z0-9]+)(\/cancel)?$/.exec(path);
    if (one) {
      const p = predictions.get(one[1]!);
      if (!p) return sendJson(res, 404, { title: 'Not found', detail: 'Prediction not found', status: 404 });
      if (one[2] && req.method === 'POST') {
        p.canceled = true;
        return sendJson(res, 200, view(p));
      }
      if (!one[2] && req.method === 'GET') {
        p.polls++;
        return sendJson(res, 200, view(p));
      }
    }
    return sendJson(res, 404, {
      title: 'Not found',
      detail: 'The requested resource could not be found.',
      status: 404,
    });
  });
  base = server.url;

  const by = (test: (r: RecordedRequest) => boolean) => () => server.requests.filter(test);
  return {
    ...server,
    get url() {
      return server.url;
    },
    cdnUrl: cdn.url,
    close: async () => {
      await Promise.all([server.close(), cdn.close()]);
    },
    reset() {
      queue.length = 0;
      server.requests.length = 0;
      cdn.requests.length = 0;
      state.fallback = { kind: 'accept' };
    },
    enqueue: (...b) => void queue.push(...b),
    get fallback() {
      return state.fallback;
    },
    set fallback(b: ReplicateBehaviour) {
      state.fallback = b;
    },
    createCalls: by((r) => r.method === 'POST' && r.url.endsWith('/predictions')),
    getCalls: by((r) => r.method === 'GET'),
    cancelCalls: by((r) => r.url.endsWith('/cancel')),
    fileCalls: () => cdn.requests,
    predictionIds,
  };
}
