/**
 * Stand-in for a Cog server (Replicate's open container format, run on the operator's GPU), for
 * tests and benchmarks. It speaks Cog's HTTP API: `GET /health-check` → `{status: STARTING | READY
 * | BUSY | SETUP_FAILED | DEFUNCT | UNHEALTHY, setup, version}` (always 200); `PUT
 * /predictions/{id}` (idempotent: the same id while it runs gets the same prediction) or `POST
 * /predictions`, `{input}` → synchronously `{id, status: succeeded | failed, output, error,
 * metrics}` with the output image as a base64 data URI; 409 when every prediction slot is busy;
 * `POST /predictions/{id}/cancel`. The inputs are checked against the model's names (a preset's,
 * or the ones given). No model runs: the result is an image made from the person photo.
 *
 * An output may also be a URL (`{kind: 'ok', output: 'url', url}`), as a Cog model that uploads its
 * files names them, for the tests of what the server follows: the stand-in serves the last result
 * at `GET /files/result.png`, an endless chunked body with no Content-Length at `GET /files/huge`
 * (`hugeBytesSent()` says how much went out before the reader gave up), and `GET /redirect?to=<url>`
 * answers 302 to `<url>`.
 */
import sharp from 'sharp';
import {
  hang,
  makeResultImage,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type CogBehaviour =
  | { kind: 'ok'; output?: 'data-uri' | 'none' | 'not-image' }
  | { kind: 'ok'; output: 'url'; url: string }
  | { kind: 'failed'; error: string }
  | { kind: 'http'; status: number }
  | { kind: 'malformed' }
  | { kind: 'hang' };

export interface CogStandIn extends StandInServer {
  reset(): void;
  enqueue(...b: CogBehaviour[]): void;
  fallback: CogBehaviour;
  /** What `/health-check` says. */
  healthStatus: string;
  predictionCalls(): RecordedRequest[];
  healthCalls(): RecordedRequest[];
  cancelCalls(): RecordedRequest[];
  /** Bytes of `GET /files/huge` written so far (it stops when the reader closes the connection). */
  hugeBytesSent(): number;
}

/** `GET /files/huge`: 400 MB at most, 64 KiB chunks, no Content-Length, until the client goes away. */
const HUGE_BYTES = 400 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x41);

export interface CogModelNames {
  person: string;
  garment: string;
  list: boolean;
  category?: string;
}

export async function startCogStandIn(
  names: CogModelNames = { person: 'person_image', garment: 'garment_images', list: true },
  opts: { instant?: boolean } = {},
): Promise<CogStandIn> {
  const queue: CogBehaviour[] = [];
  const state = { fallback: { kind: 'ok' } as CogBehaviour, health: 'READY' };
  let cached: Buffer | undefined;
  let lastResult: Buffer | undefined;
  let hugeSent = 0;

  const server = await startStandInServer(async (req, res) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && path === '/files/result.png' && lastResult) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': lastResult.length });
      return res.end(lastResult);
    }
    if (req.method === 'GET' && path === '/files/huge') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const more = () => {
        while (!res.destroyed && hugeSent < HUGE_BYTES) {
          hugeSent += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end();
      };
      return more();
    }
    if (req.method === 'GET' && path === '/redirect') {
      const to = new URL(req.url, 'http://stand-in').searchParams.get('to') ?? '/';
      res.writeHead(302, { location: to });
      return res.end();
    }
    if (req.method === 'GET' && path === '/health-check') {
      return sendJson(res, 200, {
        status: state.health,
        setup: {
          started_at: '2026-11-27T00:00:00+00:00',
          status: state.health === 'SETUP_FAILED' ? 'failed' : 'succeeded',
          logs: '',
        },
        version: { coglet: '0.21.0', cog: '0.17.0', python: '3.12' },
      });
    }
    const put = /^\/predictions\/([a-z0-9]+)$/.exec(path);
    if ((req.method === 'PUT' && put) || (req.method === 'POST' && path === '/predictions')) {
      if (state.health !== 'READY' && state.health !== 'BUSY')
        return sendJson(res, 503, { detail: `Server is not ready: ${state.health}` });
      const body = req.json as { input?: Record<string, unknown> } | undefined;
      const input = body?.input;
      const isDataUri = (v: unknown) => typeof v === 'string' && /^data:image\/(jpeg|png|webp);base64,/.test(v);
      const garments = names.list ? input?.[names.garment] : [input?.[names.garment]];
      const problems = [
        !isDataUri(input?.[names.person]) && `${names.person}: field required`,
        !(Array.isArray(garments) && garments.length >= 1 && garments.every(isDataUri)) &&
          `${names.garment}: field required`,
        names.category && typeof input?.[names.category] !== 'string' && `${names.category}: field required`,
      ].filter(Boolean);
      if (problems.length)
        return sendJson(res, 422, {
          detail: problems.map((msg) => ({ loc: ['body', 'input'], msg, type: 'value_error' })),
        });
      const b = queue.shift() ?? state.fallback;
      if (b.kind === 'hang') return hang(res);
      if (b.kind === 'malformed') return sendMalformedJson(res);
      if (b.kind === 'http')
        return sendJson(res, b.status, {
          detail: b.status === 409 ? 'Already running a prediction' : 'Internal Server Error',
        });
      const id = put?.[1] ?? 'sync';
      if (b.kind === 'failed')
        return sendJson(res, 200, { id, status: 'failed', output: null, error: b.error, logs: '' });
      const personUri = String(input![names.person]);
      const person = Buffer.from(personUri.slice(personUri.indexOf(',') + 1), 'base64');
      const meta = await sharp(person).metadata();
      const image =
        (opts.instant ? cached : undefined) ??
        (await makeResultImage(meta.width ?? 512, meta.height ?? 768, 'png', person));
      if (opts.instant) cached = image;
      lastResult = image;
      const output =
        b.output === 'url'
          ? b.url
          : b.output === 'none'
            ? null
            : b.output === 'not-image'
              ? `data:text/plain;base64,${Buffer.from('no image here').toString('base64')}`
              : `data:image/png;base64,${image.toString('base64')}`;
      return sendJson(res, 200, {
        id,
        status: 'succeeded',
        output,
        error: null,
        logs: '',
        metrics: { predict_time: 0.5 },
      });
    }
    if (req.method === 'POST' && /^\/predictions\/[a-z0-9]+\/cancel$/.test(path)) return sendJson(res, 200, {});
    return sendJson(res, 404, { detail: 'Not Found' });
  });

  return {
    ...server,
    get url() {
      return server.url;
    },
    reset() {
      queue.length = 0;
      server.requests.length = 0;
      state.fallback = { kind: 'ok' };
      state.health = 'READY';
    },
    enqueue: (...b) => void queue.push(...b),
    get fallback() {
      return state.fallback;
    },
    set fallback(b: CogBehaviour) {
      state.fallback = b;
    },
    get healthStatus() {
      return state.health;
    },
    set healthStatus(s: string) {
      state.health = s;
    },
    predictionCalls: () => server.requests.filter((r) => /^\/predictions(\/[a-z0-9]+)?$/.test(r.url)),
    healthCalls: () => server.requests.filter((r) => r.url === '/health-check'),
    cancelCalls: () => server.requests.filter((r) => r.url.endsWith('/cancel')),
    hugeBytesSent: () => hugeSent,
  };
}
