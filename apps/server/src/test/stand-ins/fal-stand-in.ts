/**
 * Stand-in for fal.ai's queue API, for tests and benchmarks. It speaks the public wire
 * format: `POST /{model}` with `Authorization: Key …` (and the platform headers
 * `X-Fal-Request-Timeout`, seconds, and `X-Fal-Object-Lifecycle-Preference`,
 * `{"expiration_duration_seconds": n}`, both checked when present) → `{request_id,
 * response_url, status_url, cancel_url, queue_position}`; `GET /{app}/requests/{id}/status`
 * → 202 IN_QUEUE / IN_PROGRESS, 200 COMPLETED; `GET /{app}/requests/{id}` → the model
 * output (`images[].url`, or `image.url`; a data URI when the input set `sync_mode`, in
 * the input's `output_format`) or an error (`detail` list of typed errors, or `detail`
 * text with `error_type`); `PUT …/cancel`. FASHN v1.6 inputs (`category`, `mode`,
 * `garment_photo_type`, `output_format`) are checked like fal's schema does. Result files
 * come from a local "CDN" path. It never calls fal.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  hang,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type FalOutcome =
  | { kind: 'completed'; polls?: number; output?: 'images' | 'image' | 'data-uri' | 'none' }
  | { kind: 'model-error'; polls?: number; status?: number; type: string; msg: string }
  | { kind: 'request-error'; status: number; errorType: string; detail: string }
  | { kind: 'in-progress-forever' };

export type FalSubmitBehaviour =
  | { kind: 'accept'; outcome?: FalOutcome }
  | { kind: 'http'; status: number; detail?: string }
  | { kind: 'malformed' }
  | { kind: 'hang' };

export type FalPollFault = { kind: 'http'; status: number } | { kind: 'malformed' } | { kind: 'hang' };

export interface FalStandIn extends StandInServer {
  /** Forget queued behaviours and recorded requests; back to plain success. */
  reset(): void;
  enqueueSubmit(...b: FalSubmitBehaviour[]): void;
  enqueuePollFault(...f: FalPollFault[]): void;
  fallbackSubmit: FalSubmitBehaviour;
  submitCalls(): RecordedRequest[];
  statusCalls(): RecordedRequest[];
  resultCalls(): RecordedRequest[];
  cancelCalls(): RecordedRequest[];
  mediaCalls(): RecordedRequest[];
  requestIds: string[];
}

interface QueuedRequest {
  id: string;
  outcome: FalOutcome;
  polls: number;
  output: Buffer;
  format: 'png' | 'jpeg';
  sync: boolean;
}

const FASHN_ENUMS: Record<string, readonly string[]> = {
  category: ['tops', 'bottoms', 'one-pieces', 'auto'],
  mode: ['performance', 'balanced', 'quality'],
  garment_photo_type: ['auto', 'flat-lay', 'model'],
  moderation_level: ['conservative', 'permissive', 'none'],
  output_format: ['png', 'jpeg'],
  // Leffa
  garment_type: ['upper_body', 'lower_body', 'dresses'],
};

/**
 * Each endpoint's required inputs, as its schema on fal names them, the first being the person
 * photo; and where the result is (`images` list, or Leffa's single `image`).
 */
export const FAL_ENDPOINT_SCHEMAS: Record<string, { required: string[]; single?: boolean }> = {
  'fal-ai/fashn/tryon/v1.6': { required: ['model_image', 'garment_image'] },
  'fal-ai/image-apps-v2/virtual-try-on': { required: ['person_image_url', 'clothing_image_url'] },
  'fal-ai/flux-pro/v1/vto': { required: ['human_image_url', 'garment_image_url', 'prompt'] },
  'fal-ai/leffa/virtual-tryon': { required: ['human_image_url', 'garment_image_url', 'garment_type'], single: true },
  'fal-ai/kling/v1-5/kolors-virtual-try-on': { required: ['human_image_url', 'garment_image_url'] },
};

/** `instant`: every request returns the output made for the first one (benchmarks). */
export async function startFalStandIn(opts: { key: string; model?: string; instant?: boolean }): Promise<FalStandIn> {
  let cachedOutput: Buffer | undefined;
  const model = opts.model ?? 'fal-ai/fashn/tryon/v1.6';
  const appId = model.split('/').slice(0, 2).join('/');
  const schema = FAL_ENDPOINT_SCHEMAS[model] ?? FAL_ENDPOINT_SCHEMAS['fal-ai/fashn/tryon/v1.6']!;
  const submitQueue: FalSubmitBehaviour[] = [];
  const pollFaults: FalPollFault[] = [];
  const requests = new Map<string, QueuedRequest>();
  const requestIds: string[] = [];
  const state = { fallbackSubmit: { kind: 'accept' } as FalSubmitBehaviour };
  let base = '';

  const server = await startStandInServer(async (req, res) => {
    const path = req.url.split('?')[0]!;
    if (req.headers.authorization !== `Key ${opts.key}` && !path.startsWith('/media/')) {
      return sendJson(res, 401, { detail: 'Invalid authorization header' });
    }

    if (req.method === 'POST' && path === `/${model}`) {
      const timeout = req.headers['x-fal-request-timeout'];
      if (timeout !== undefined && !(Number(timeout) > 0.1))
        return sendJson(res, 400, { detail: `Invalid X-Fal-Request-Timeout: ${String(timeout)}` });
      const lifecycle = req.headers['x-fal-object-lifecycle-preference'];
      if (lifecycle !== undefined) {
        let ok = false;
        try {
          const v = (JSON.parse(String(lifecycle)) as { expiration_duration_seconds?: unknown })
            .expiration_duration_seconds;
          ok = v === null || (typeof v === 'number' && Number.isInteger(v) && v > 0);
        } catch {
          ok = false;
        }
        if (!ok) return sendJson(res, 400, { detail: 'Invalid X-Fal-Object-Lifecycle-Preference' });
      }
      const body = req.json as Record<string, unknown> | undefined;
      const missing = schema.required.filter((f) => !body?.[f]);
      if (missing.length) {
        return sendJson(res, 422, {
          detail: missing.map((f) => ({ loc: ['body', f], msg: 'field required', type: 'missing' })),
        });
      }
      for (const [field, allowed] of Object.entries(FASHN_ENUMS)) {
        const v = body![field];
        if (v !== undefined && !allowed.includes(String(v))) {
          return sendJson(res, 422, {
            detail: [
              { loc: ['body', field], msg: `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}`, type: 'enum' },
            ],
          });
        }
      }
      for (const field of ['sync_mode', 'segmentation_free', 'preserve_pose']) {
        if (body![field] !== undefined && typeof body![field] !== 'boolean') {
          return sendJson(res, 422, {
            detail: [{ loc: ['body', field], msg: 'Input should be a valid boolean', type: 'bool_type' }],
          });
        }
      }
      const format = body!.output_format === 'jpeg' ? 'jpeg' : 'png';
      const b = submitQueue.shift() ?? state.fallbackSubmit;
      if (b.kind === 'hang') return hang(res);
      if (b.kind === 'malformed') return sendMalformedJson(res);
      if (b.kind === 'http')
        return sendJson(res, b.status, {
          detail: b.detail ?? (b.status === 429 ? 'Too many requests' : 'Internal server error'),
        });
      const id = randomUUID();
      requestIds.push(id);
      const personImage = String(body![schema.required[0]!]);
      const personB64 = personImage.slice(personImage.indexOf(',') + 1);
      const output =
        (opts.instant ? cachedOutput : undefined) ??
        (await (() => {
          const img = sharp(Buffer.from(personB64, 'base64'))
            .resize(864, 1296, { fit: 'contain', background: '#ffffff' })
            .modulate({ hue: 180 });
          return format === 'jpeg' ? img.jpeg({ quality: 90 }) : img.png({ compressionLevel: 1 });
        })().toBuffer());
      if (opts.instant) cachedOutput = output;
      requests.set(id, {
        id,
        outcome: b.outcome ?? { kind: 'completed' },
        polls: 0,
        output,
        format,
        sync: body!.sync_mode === true,
      });
      const r = `${base}/${appId}/requests/${id}`;
      return sendJson(
        res,
        200,
        { request_id: id, response_url: r, status_url: `${r}/status`, cancel_url: `${r}/cancel`, queue_position: 0 },
        { 'x-fal-request-id': id },
      );
    }

    const m = new RegExp(`^/${appId}/requests/([^/]+)(/status|/cancel)?$`).exec(path);
    if (m) {
      const q = requests.get(m[1]!);
      if (!q) return sendJson(res, 404, { detail: 'Request not found' });
      const r = `${base}/${appId}/requests/${q.id}`;
      const o = q.outcome;
      const done = () => o.kind === 'request-error' || (o.kind !== 'in-progress-forever' && q.polls > (o.polls ?? 1));
      if (m[2] === '/cancel' && req.method === 'PUT') {
        return done()
          ? sendJson(res, 400, { status: 'ALREADY_COMPLETED' })
          : sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      if (m[2] === '/status' && req.method === 'GET') {
        const fault = pollFaults.shift();
        if (fault?.kind === 'hang') return hang(res);
        if (fault?.kind === 'malformed') return sendMalformedJson(res);
        if (fault?.kind === 'http') return sendJson(res, fault.status, { detail: 'Internal server error' });
        q.polls++;
        if (done())
          return sendJson(res, 200, {
            status: 'COMPLETED',
            response_url: r,
            logs: null,
            metrics: { inference_time: 7.1 },
          });
        return q.polls === 1
          ? sendJson(res, 202, { status: 'IN_QUEUE', queue_position: 0, response_url: r })
          : sendJson(res, 202, { status: 'IN_PROGRESS', response_url: r, logs: null });
      }
      if (!m[2] && req.method === 'GET') {
        if (!done()) return sendJson(res, 400, { detail: 'Request is still in progress' });
        if (o.kind === 'request-error')
          return sendJson(
            res,
            o.status,
            { detail: o.detail, error_type: o.errorType },
            { 'x-fal-error-type': o.errorType },
          );
        if (o.kind === 'model-error') {
          return sendJson(
            res,
            o.status ?? 422,
            {
              detail: [
                { loc: ['body', 'model_image'], msg: o.msg, type: o.type, url: `https://docs.fal.ai/errors#${o.type}` },
              ],
            },
            { 'x-fal-retryable': 'false' },
          );
        }
        if (o.kind !== 'completed') return sendJson(res, 400, { detail: 'Request is still in progress' });
        const dataUri = o.output === 'data-uri' || (q.sync && o.output !== 'images' && o.output !== 'image');
        const ext = q.format === 'jpeg' ? 'jpg' : 'png';
        const image = {
          url: dataUri
            ? `data:image/${q.format};base64,${q.output.toString('base64')}`
            : `${base}/media/${q.id}.${ext}`,
          content_type: `image/${q.format}`,
          file_name: `${q.id}.${ext}`,
          file_size: q.output.length,
          width: 864,
          height: 1296,
        };
        if (o.output === 'none') return sendJson(res, 200, { images: [] });
        if (schema.single || o.output === 'image')
          return sendJson(res, 200, { image, seed: 42, has_nsfw_concepts: false });
        return sendJson(res, 200, { images: [image] });
      }
    }

    const media = /^\/media\/([^/]+)\.(png|jpg)$/.exec(path);
    if (req.method === 'GET' && media) {
      const q = requests.get(media[1]!);
      if (!q) return sendJson(res, 404, { detail: 'Not found' });
      res.writeHead(200, { 'content-type': `image/${q.format}`, 'content-length': q.output.length.toString() });
      return res.end(q.output);
    }
    return sendJson(res, 404, { detail: 'Not found' });
  });
  base = server.url;

  const byPath = (test: (r: RecordedRequest) => boolean) => () => server.requests.filter(test);
  return {
    ...server,
    reset: () => {
      submitQueue.length = 0;
      pollFaults.length = 0;
      server.requests.length = 0;
      state.fallbackSubmit = { kind: 'accept' };
    },
    get url() {
      return server.url;
    },
    enqueueSubmit: (...b) => void submitQueue.push(...b),
    enqueuePollFault: (...f) => void pollFaults.push(...f),
    get fallbackSubmit() {
      return state.fallbackSubmit;
    },
    set fallbackSubmit(b: FalSubmitBehaviour) {
      state.fallbackSubmit = b;
    },
    submitCalls: byPath((r) => r.method === 'POST'),
    statusCalls: byPath((r) => r.method === 'GET' && r.url.endsWith('/status')),
    resultCalls: byPath((r) => r.method === 'GET' && /\/requests\/[^/]+$/.test(r.url)),
    cancelCalls: byPath((r) => r.method === 'PUT'),
    mediaCalls: byPath((r) => r.url.startsWith('/media/')),
    requestIds,
  };
}
