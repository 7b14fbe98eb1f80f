/**
 * Stand-in for the FASHN API (virtual try-on v1.6), for tests and benchmarks. It speaks
 * the public REST wire format: `POST /v1/run` with `Authorization: Bearer …` and
 * `{model_name, inputs}` → `{id, error}`, where inputs may carry `category`, `mode`
 * (performance / balanced / quality), `garment_photo_type` (auto / flat-lay / model),
 * `output_format` (png / jpeg) and `return_base64`; `GET /v1/status/{id}` →
 * `{id, status, output, error}` with status starting / in_queue / processing / completed /
 * failed / canceled / time_out, the error `name` being one of the current SDK's
 * (ContentModerationError, ThirdPartyError, PoseError, ImageLoadError, …), and the
 * `x-fashn-credits-used` header on a finished prediction; API errors as `{error, message}`.
 * Outputs are data URLs when `return_base64` is set, else links to a local "CDN" path.
 * It never calls FASHN.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import sharp from 'sharp';
import {
  hang,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type FashnOutcome =
  | { kind: 'completed'; polls?: number; output?: 'url' | 'data-url' | 'none' }
  | { kind: 'failed'; name: string; message?: string; polls?: number }
  | { kind: 'time_out' }
  | { kind: 'canceled' }
  | { kind: 'processing-forever' };

export type FashnRunBehaviour =
  | { kind: 'accept'; outcome?: FashnOutcome }
  | { kind: 'http'; status: number; error: string; message?: string }
  | { kind: 'malformed' }
  | { kind: 'hang' };

/** One-off faults on the next status polls, before normal answers resume. */
export type FashnPollFault =
  { kind: 'http'; status: number; error?: string } | { kind: 'malformed' } | { kind: 'hang' };

export interface FashnStandIn extends StandInServer {
  /** Forget queued behaviours and recorded requests; back to plain success. */
  reset(): void;
  enqueueRun(...b: FashnRunBehaviour[]): void;
  enqueuePollFault(...f: FashnPollFault[]): void;
  /** What /v1/run does once the queue is empty. */
  fallbackRun: FashnRunBehaviour;
  runCalls(): RecordedRequest[];
  statusCalls(): RecordedRequest[];
  outputCalls(): RecordedRequest[];
  /** Prediction ids issued so far. */
  predictionIds: string[];
  /** The balance `GET /v1/credits` reports (`credits.total`, split into subscription and on-demand). */
  credits: number;
  creditsCalls(): RecordedRequest[];
}

interface Prediction {
  id: string;
  outcome: FashnOutcome;
  polls: number;
  output: Buffer;
  format: 'png' | 'jpeg';
  base64: boolean;
}

const ENUMS: Record<string, readonly string[]> = {
  category: ['tops', 'bottoms', 'one-pieces', 'auto'],
  mode: ['performance', 'balanced', 'quality'],
  garment_photo_type: ['auto', 'flat-lay', 'model'],
  output_format: ['png', 'jpeg'],
  moderation_level: ['conservative', 'permissive', 'none'],
};

/** FASHN v1.6 answers at 864×1296: the person photo is fitted inside, padded with white. */
async function fashnOutput(modelImage: string, format: 'png' | 'jpeg'): Promise<Buffer> {
  const b64 = modelImage.slice(modelImage.indexOf(',') + 1);
  const img = sharp(Buffer.from(b64, 'base64'))
    .resize(864, 1296, { fit: 'contain', background: '#ffffff' })
    .modulate({ hue: 90 });
  return format === 'jpeg' ? img.jpeg({ quality: 90 }).toBuffer() : img.png({ compressionLevel: 1 }).toBuffer();
}

/** `instant`: every prediction returns the output made for the first one (benchmarks). */
export async function startFashnStandIn(opts: { apiKey: string; instant?: boolean }): Promise<FashnStandIn> {
  let cachedOutput: Buffer | undefined;
  const runQueue: FashnRunBehaviour[] = [];
  const pollFaults: FashnPollFault[] = [];
  const predictions = new Map<string, Prediction>();
  const state = { fallbackRun: { kind: 'accept' } as FashnRunBehaviour, credits: 234 };
  const predictionIds: string[] = [];
  let base = '';

  const authorised = (req: RecordedRequest, res: http.ServerResponse): boolean => {
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      sendJson(res, 401, { error: 'UnauthorizedAccess', message: 'Unauthorized: Invalid token' });
      return false;
    }
    return true;
  };

  const server = await startStandInServer(async (req, res) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && path === '/v1/credits') {
      if (!authorised(req, res)) return;
      const subscription = Math.min(state.credits, 100);
      return sendJson(res, 200, {
        credits: { total: state.credits, subscription, on_demand: state.credits - subscription },
      });
    }
    if (req.method === 'POST' && path === '/v1/run') {
      if (!authorised(req, res)) return;
      const body = req.json as
        | { model_name?: string; inputs?: Record<string, unknown> & { model_image?: string; garment_image?: string } }
        | undefined;
      // Try-On Max takes the garment as `product_image`
      const max = body?.model_name === 'tryon-max';
      if (
        !body?.inputs?.model_image ||
        !(max ? body.inputs.product_image : body.inputs.garment_image) ||
        !['tryon-v1.6', 'tryon-v1.5', 'tryon-max'].includes(body.model_name ?? '')
      ) {
        return sendJson(res, 400, {
          error: 'BadRequest',
          message: 'Invalid request: model_name, inputs.model_image and inputs.garment_image are required',
        });
      }
      for (const [field, allowed] of Object.entries(ENUMS)) {
        const v = body.inputs[field];
        if (v !== undefined && !allowed.includes(String(v)))
          return sendJson(res, 400, { error: 'BadRequest', message: `Invalid ${field}: ${String(v)}` });
      }
      for (const field of ['return_base64', 'segmentation_free']) {
        const v = body.inputs[field];
        if (v !== undefined && typeof v !== 'boolean')
          return sendJson(res, 400, { error: 'BadRequest', message: `Invalid ${field}: expected a boolean` });
      }
      for (const [field, min, max] of [
        ['seed', 0, 2 ** 32 - 1],
        ['num_samples', 1, 4],
      ] as const) {
        const v = body.inputs[field];
        if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min && (v as number) <= max))
          return sendJson(res, 400, { error: 'BadRequest', message: `Invalid ${field}: ${String(v)}` });
      }
      const format = body.inputs.output_format === 'jpeg' ? 'jpeg' : 'png';
      const b = runQueue.shift() ?? state.fallbackRun;
      if (b.kind === 'hang') return hang(res);
      if (b.kind === 'malformed') return sendMalformedJson(res);
      if (b.kind === 'http') return sendJson(res, b.status, { error: b.error, message: b.message ?? b.error });
      const id = `${randomUUID()}-u1`;
      predictionIds.push(id);
      const output = (opts.instant ? cachedOutput : undefined) ?? (await fashnOutput(body.inputs.model_image, format));
      if (opts.instant) cachedOutput = output;
      predictions.set(id, {
        id,
        outcome: b.outcome ?? { kind: 'completed' },
        polls: 0,
        output,
        format,
        base64: body.inputs.return_base64 === true,
      });
      return sendJson(res, 200, { id, error: null });
    }

    const status = /^\/v1\/status\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && status) {
      if (!authorised(req, res)) return;
      const fault = pollFaults.shift();
      if (fault?.kind === 'hang') return hang(res);
      if (fault?.kind === 'malformed') return sendMalformedJson(res);
      if (fault?.kind === 'http')
        return sendJson(res, fault.status, {
          error: fault.error ?? 'InternalServerError',
          message: 'Internal server error',
        });
      const p = predictions.get(decodeURIComponent(status[1]!));
      if (!p) return sendJson(res, 404, { error: 'NotFound', message: 'Prediction not found or no longer tracked' });
      p.polls++;
      const o = p.outcome;
      const running = (n = 1) => p.polls <= n;
      // A finished prediction reports its cost: 1 credit per image, none for a failure.
      const credits = (s: string): Record<string, string> =>
        s === 'completed'
          ? { 'x-fashn-credits-used': '1' }
          : ['failed', 'canceled', 'time_out'].includes(s)
            ? { 'x-fashn-credits-used': '0' }
            : {};
      const answer = (s: string, extra: Record<string, unknown> = {}) =>
        sendJson(res, 200, { id: p.id, status: s, output: null, error: null, ...extra }, credits(s));
      switch (o.kind) {
        case 'processing-forever':
          return answer(p.polls === 1 ? 'in_queue' : 'processing');
        case 'time_out':
          return answer('time_out');
        case 'canceled':
          return answer('canceled');
        case 'failed':
          if (running(o.polls ?? 0)) return answer('processing');
          return answer('failed', { error: { name: o.name, message: o.message ?? `${o.name} during inference` } });
        case 'completed': {
          if (running(o.polls ?? 1)) return answer(p.polls === 1 ? 'starting' : 'processing');
          const mode = o.output ?? (p.base64 ? 'data-url' : 'url');
          const output =
            mode === 'none'
              ? []
              : mode === 'data-url'
                ? [`data:image/${p.format};base64,${p.output.toString('base64')}`]
                : [`${base}/cdn/${p.id}/output.${p.format === 'jpeg' ? 'jpg' : 'png'}?token=cdn-signature`];
          return answer('completed', { output });
        }
      }
    }

    const cdn = /^\/cdn\/([^/]+)\/output\.(png|jpg)$/.exec(path);
    if (req.method === 'GET' && cdn) {
      const p = predictions.get(cdn[1]!);
      if (!p) return sendJson(res, 404, { error: 'NotFound' });
      res.writeHead(200, { 'content-type': `image/${p.format}`, 'content-length': p.output.length.toString() });
      return res.end(p.output);
    }
    return sendJson(res, 404, { error: 'NotFound', message: 'Not found' });
  });
  base = server.url;

  return {
    ...server,
    reset: () => {
      runQueue.length = 0;
      pollFaults.length = 0;
      server.requests.length = 0;
      state.fallbackRun = { kind: 'accept' };
      state.credits = 234;
    },
    get url() {
      return server.url;
    },
    enqueueRun: (...b) => void runQueue.push(...b),
    enqueuePollFault: (...f) => void pollFaults.push(...f),
    get fallbackRun() {
      return state.fallbackRun;
    },
    set fallbackRun(b: FashnRunBehaviour) {
      state.fallbackRun = b;
    },
    runCalls: () => server.requests.filter((r) => r.url === '/v1/run'),
    statusCalls: () => server.requests.filter((r) => r.url.startsWith('/v1/status/')),
    outputCalls: () => server.requests.filter((r) => r.url.startsWith('/cdn/')),
    creditsCalls: () => server.requests.filter((r) => r.url === '/v1/credits'),
    predictionIds,
    get credits() {
      return state.credits;
    },
    set credits(n: number) {
      state.credits = n;
    },
  };
}
