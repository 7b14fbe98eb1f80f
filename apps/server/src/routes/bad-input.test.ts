/**
 * The bad-input corpus: every malformed or hostile request we know of, each with the status and
 * code it must get. None may answer 5xx, log a stack trace, charge anything, or leave a
 * kept-alive connection unusable.
 */
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS, MAX_UPLOAD_BYTES, type ErrorCode } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { signIn, testApps, type TestApp } from '../test/app.js';
import { gif, jpeg, multipart, png, pngHeaderOnly, truncatedJpeg, type FilePart } from '../test/images.js';

let PERSON: Buffer;
let GARMENT: Buffer;
let GIF: Buffer;
let TRUNCATED: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(320, 480, '#c08060');
  GARMENT = await png(200, 200, '#2040ff');
  GIF = await gif();
  TRUNCATED = await truncatedJpeg();
});

interface Ctx {
  cookie: string;
  userId: string;
}

interface Probe {
  name: string;
  status: number;
  code: ErrorCode;
  request: (ctx: Ctx) => {
    method?: 'GET' | 'POST';
    url?: string;
    headers?: Record<string, string>;
    payload?: Buffer | string;
    cookie?: boolean;
  };
}

const upload = (ctx: Ctx, fields: Record<string, string | FilePart | undefined>) => {
  const body = multipart({
    userImage: { data: PERSON },
    clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
    category: 'upper_body',
    userId: ctx.userId,
    ...fields,
  });
  return { headers: body.headers, payload: body.payload };
};

const PROBES: Probe[] = [
  { name: 'no session', status: 401, code: 'UNAUTHORIZED', request: (c) => ({ ...upload(c, {}), cookie: false }) },
  {
    name: 'not multipart (JSON)',
    status: 400,
    code: 'MISSING_FILE',
    request: () => ({ headers: { 'content-type': 'application/json' }, payload: '{"userId":"x"}' }),
  },
  {
    name: 'multipart without a boundary',
    status: 400,
    code: 'MALFORMED_UPLOAD',
    request: (c) => ({ headers: { 'content-type': 'multipart/form-data' }, payload: upload(c, {}).payload }),
  },
  {
    name: 'multipart cut off mid-file',
    status: 400,
    code: 'MALFORMED_UPLOAD',
    request: (c) => {
      const u = upload(c, {});
      return { headers: u.headers, payload: u.payload.subarray(0, Math.floor(u.payload.length / 2)) };
    },
  },
  {
    // The parser just sees no complete part: nothing to read.
    name: 'multipart cut off inside a part header',
    status: 400,
    code: 'MISSING_FILE',
    request: (c) => {
      const u = upload(c, {});
      const boundary = u.headers['content-type']!.split('boundary=')[1]!;
      return { headers: u.headers, payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`) };
    },
  },
  {
    name: 'multipart body that never uses its boundary',
    status: 400,
    code: 'MISSING_FILE',
    request: () => ({ headers: { 'content-type': 'multipart/form-data; boundary=abc' }, payload: 'hello' }),
  },
  {
    // Three files are a whole outfit; a fourth part is refused by the parser's files limit.
    name: 'four files',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => upload(c, { lowerClothingImage: { data: GARMENT }, extraImage: { data: GARMENT } }),
  },
  {
    name: 'a bottom with another category than Upper Body',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => upload(c, { lowerClothingImage: { data: GARMENT }, category: 'dresses' }),
  },
  {
    name: 'a file under an unknown name',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => upload(c, { userImage: undefined, clothingImage: undefined, other: { data: PERSON } }),
  },
  {
    name: 'the same file field twice',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => {
      const u = upload(c, {});
      const boundary = u.headers['content-type']!.split('boundary=')[1]!;
      const again = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="userImage"; filename="b.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        PERSON,
        Buffer.from('\r\n'),
      ]);
      return { headers: u.headers, payload: Buffer.concat([again, u.payload]) };
    },
  },
  {
    name: 'too many parts',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => upload(c, Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`f${i}`, 'x']))),
  },
  {
    name: 'a field value over the size limit',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => upload(c, { category: 'x'.repeat(5000) }),
  },
  {
    name: 'a file over 10 MB',
    status: 413,
    code: 'FILE_TOO_LARGE',
    request: (c) => upload(c, { userImage: { data: Buffer.concat([PERSON, Buffer.alloc(MAX_UPLOAD_BYTES)]) } }),
  },
  { name: 'no person photo', status: 400, code: 'MISSING_FILE', request: (c) => upload(c, { userImage: undefined }) },
  {
    name: 'no clothing photo',
    status: 400,
    code: 'MISSING_FILE',
    request: (c) => upload(c, { clothingImage: undefined }),
  },
  { name: 'no userId', status: 400, code: 'VALIDATION_ERROR', request: (c) => upload(c, { userId: undefined }) },
  {
    name: 'someone else’s userId',
    status: 403,
    code: 'FORBIDDEN',
    request: (c) => upload(c, { userId: 'someone-else' }),
  },
  {
    name: 'an unknown category',
    status: 400,
    code: 'INVALID_CATEGORY',
    request: (c) => upload(c, { category: 'hats' }),
  },
  {
    name: 'an engine that is not enabled',
    status: 400,
    code: 'ENGINE_UNAVAILABLE',
    request: (c) => upload(c, { api: 'no-such-engine' }),
  },
  {
    name: 'a GIF',
    status: 415,
    code: 'UNSUPPORTED_FORMAT',
    request: (c) => upload(c, { userImage: { data: GIF, contentType: 'image/jpeg' } }),
  },
  {
    name: 'text called a JPEG',
    status: 415,
    code: 'UNSUPPORTED_FORMAT',
    request: (c) => upload(c, { clothingImage: { data: Buffer.from('not an image at all') } }),
  },
  {
    name: 'a truncated JPEG',
    status: 422,
    code: 'IMAGE_UNREADABLE',
    request: (c) => upload(c, { userImage: { data: TRUNCATED } }),
  },
  {
    name: 'a decompression bomb',
    status: 422,
    code: 'IMAGE_TOO_MANY_PIXELS',
    request: (c) => upload(c, { userImage: { data: pngHeaderOnly(), contentType: 'image/png' } }),
  },
  {
    name: 'a 2 MB JSON body',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    request: () => ({
      url: '/api/auth/anonymous',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ deviceId: 'x'.repeat(2_000_000) }),
    }),
  },
  {
    name: 'broken JSON',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: () => ({
      url: '/api/auth/anonymous',
      headers: { 'content-type': 'application/json' },
      payload: '{"deviceId": ',
    }),
  },
  {
    name: 'an empty JSON body',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: () => ({
      url: '/api/billing/demo/checkout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    }),
  },
  {
    name: 'a content type the route does not take',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: () => ({
      url: '/api/billing/demo/checkout',
      headers: { 'content-type': 'application/xml' },
      payload: '<planId/>',
    }),
  },
  {
    name: 'multipart to a JSON route',
    status: 400,
    code: 'VALIDATION_ERROR',
    request: (c) => ({ ...upload(c, {}), url: '/api/auth/anonymous', cookie: false }),
  },
  {
    name: 'a plan that does not exist',
    status: 400,
    code: 'INVALID_PLAN',
    request: () => ({
      url: '/api/billing/demo/checkout',
      headers: { 'content-type': 'application/json' },
      payload: '{"planId":"lifetime"}',
    }),
  },
  {
    name: 'an unknown API route',
    status: 404,
    code: 'NOT_FOUND',
    request: () => ({ method: 'GET', url: '/api/nothing-here' }),
  },
  {
    name: 'a result name that walks the disk',
    status: 404,
    code: 'NOT_FOUND',
    request: () => ({ method: 'GET', url: '/api/results/..%2F..%2Fapp.db' }),
  },
];

/** Log lines, parsed. */
function logSink() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

async function send(app: FastifyInstance, ctx: Ctx, probe: Probe) {
  const r = probe.request(ctx);
  return app.inject({
    method: r.method ?? 'POST',
    url: r.url ?? '/api/process-image',
    headers: { ...(r.headers ?? {}), ...(r.cookie === false ? {} : { cookie: ctx.cookie }) },
    ...(r.payload !== undefined ? { payload: r.payload } : {}),
  });
}

/** Writes raw HTTP/1.1 over one socket; returns everything received until `until` matches or the socket closes. */
function rawExchange(
  port: number,
  chunks: Buffer[],
  until: RegExp,
  timeoutMs = 5_000,
): Promise<{ text: string; closed: boolean; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (until.test(text)) finish(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    for (const c of chunks) socket.write(c);
  });
}

describe.each(DATABASE_KINDS)('bad-input corpus on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;
  let ctx: Ctx;
  let port: number;
  const log = logSink();
  beforeAll(async () => {
    t = await make({ env: { LOG_LEVEL: 'info' }, logStream: log.stream });
    const s = await signIn(t.app);
    ctx = { cookie: s.cookie, userId: s.user.id };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  it(`answers each of the ${PROBES.length} probes with its 4xx status and code`, async () => {
    const got: string[] = [];
    for (const probe of PROBES) {
      const res = await send(t.app, ctx, probe);
      const body = res.json() as { success: boolean; code: string; error: string };
      got.push(`${probe.name}: ${res.statusCode} ${body.code}`);
      expect(body.success).toBe(false);
      expect(typeof body.error).toBe('string');
      expect(ERROR_STATUS[probe.code]).toBe(probe.status);
    }
    expect(got).toEqual(PROBES.map((p) => `${p.name}: ${p.status} ${p.code}`));
  });

  it('charged nothing and logged no error or stack trace for any of them', async () => {
    const user = await t.app.db
      .selectFrom('users')
      .select('free_trials_used')
      .where('id', '=', ctx.userId)
      .executeTakeFirstOrThrow();
    expect(user.free_trials_used).toBe(0);
    expect(await t.app.db.selectFrom('tryons').select('id').execute()).toEqual([]);
    expect(log.lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(JSON.stringify(log.lines)).not.toMatch(/"stack"|\n\s+at /);
    expect(log.lines.filter((l) => l.msg === 'request refused').length).toBeGreaterThanOrEqual(PROBES.length - 2);
  });

  it('after an early refusal, the next request on the same kept-alive connection works', async () => {
    const big = Buffer.alloc(3_000_000, 7);
    const body = multipart({
      first: { data: PERSON },
      second: { data: big },
      third: { data: big },
      category: 'upper_body',
      userId: ctx.userId,
    });
    const head = Buffer.from(
      `POST /api/process-image HTTP/1.1\r\nHost: x\r\nCookie: ${ctx.cookie}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
    );
    const next = Buffer.from('GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n');
    const res = await rawExchange(port, [head, body.payload, next], /HTTP\/1\.1 200 OK[\s\S]*"engines"/);
    expect(res.text).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(res.text).toMatch(/HTTP\/1\.1 200 OK/);
    expect(res.ms).toBeLessThan(3_000);
  });

  it('after an early refusal of a body too big to drain, it answers and closes the connection cleanly', async () => {
    const body = multipart({ first: { data: PERSON }, category: 'upper_body' });
    const declared = 200 * 1024 * 1024;
    const head = Buffer.from(
      `POST /api/process-image HTTP/1.1\r\nHost: x\r\nCookie: ${ctx.cookie}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    const res = await rawExchange(port, [head, body.payload], /$^/);
    expect(res.text).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(res.text).toMatch(/connection: close/i);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(3_000);
  });
});

export const BAD_INPUT_CORPUS_SIZE = PROBES.length;
