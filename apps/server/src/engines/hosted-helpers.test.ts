import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FASHN_INPUT, GEMINI_INPUT, HOSTED_ENGINE_MESSAGES } from '@aidressup/contract';
import { isEngineError } from '@aidressup/engine';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { createJsonLogger } from './hosted-call.js';
import { HealthStats } from './hosted-health.js';
import { Deadline, backoffDelay, hostedFetch, redact, retryAfterMs, sleep } from './hosted-http.js';
import { decodeDataUrl, finishResult, reduceImage, sniffImageType } from './hosted-image.js';

describe('reduceImage', () => {
  it('scales large photos down and small ones up to a 1024 px longest side, as JPEG without metadata', async () => {
    const big = await reduceImage(await syntheticPhoto(2000, 3000, { seed: 1 }));
    expect([big.width, big.height]).toEqual([683, 1024]);
    const small = await reduceImage(await syntheticPhoto(400, 300, { seed: 2 }));
    expect([small.width, small.height]).toEqual([1024, 768]);
    for (const r of [big, small]) {
      const m = await sharp(r.data).metadata();
      expect([m.format, m.width, m.height, m.exif, m.orientation]).toEqual([
        'jpeg',
        r.width,
        r.height,
        undefined,
        undefined,
      ]);
    }
  });

  it('applies EXIF orientation and accepts a band up to 2048', async () => {
    const r = await reduceImage(await syntheticPhoto(3000, 2000, { orientation: 6, seed: 3 }), {
      minSide: 1536,
      maxSide: 1536,
      jpegQuality: 90,
    });
    expect([r.width, r.height]).toEqual([1024, 1536]);
    await expect(reduceImage(Buffer.alloc(10), { minSide: 1024, maxSide: 4096, jpegQuality: 90 })).rejects.toThrow(
      RangeError,
    );
    await expect(reduceImage(Buffer.alloc(10), { minSide: 1600, maxSide: 1200, jpegQuality: 90 })).rejects.toThrow(
      RangeError,
    );
  });

  it("brings photos into FASHN's band: down to 2000 px, small ones up to 1024, the rest kept, at quality 95", async () => {
    const big = await reduceImage(await syntheticPhoto(2000, 3000, { seed: 4 }), FASHN_INPUT);
    expect([big.width, big.height]).toEqual([1333, 2000]);
    const mid = await reduceImage(await syntheticPhoto(1200, 1800, { seed: 5 }), FASHN_INPUT);
    expect([mid.width, mid.height]).toEqual([1200, 1800]);
    const small = await reduceImage(await syntheticPhoto(400, 600, { seed: 6 }), FASHN_INPUT);
    expect([small.width, small.height]).toEqual([683, 1024]);
    // the same photo at Gemini's 1024 px and quality 90 is much smaller
    const gemini = await reduceImage(await syntheticPhoto(2000, 3000, { seed: 4 }), GEMINI_INPUT);
    expect([gemini.width, gemini.height]).toEqual([683, 1024]);
    expect(big.data.length).toBeGreaterThan(gemini.data.length * 2);
    expect((await sharp(mid.data).metadata()).exif).toBeUndefined();
  });

  it('puts transparent PNGs on white', async () => {
    const png = await sharp({
      create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const r = await reduceImage(png);
    const { data } = await sharp(r.data).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 300))).toBeGreaterThan(245);
  });

  it('refuses bytes that are not an image with a readable message', async () => {
    const err = await reduceImage(Buffer.from('not a photo at all')).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code).toBe('ENGINE_FAILED');
    expect((err as Error).message).toBe(HOSTED_ENGINE_MESSAGES.photoUnreadable);
  });
});

describe('finishResult', () => {
  it('recognises the image type and refuses anything else', async () => {
    const webp = await sharp({ create: { width: 40, height: 60, channels: 3, background: '#888' } })
      .webp()
      .toBuffer();
    expect(sniffImageType(webp)).toBe('image/webp');
    expect((await finishResult(webp, { width: 400, height: 600 }, 'test')).mimeType).toBe('image/webp');
    const err = await finishResult(Buffer.from('<html>oops</html>'), { width: 1, height: 1 }, 'test').catch(
      (e: unknown) => e,
    );
    expect(isEngineError(err) && err.code).toBe('ENGINE_FAILED');
  });

  it("crops to the person's proportions around the centre", async () => {
    // left half red, right half blue, 1000×500; wanted 1:1 → the middle 500×500
    const img = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#ff0000' } })
      .composite([
        { input: { create: { width: 500, height: 500, channels: 3, background: '#0000ff' } }, left: 500, top: 0 },
      ])
      .png()
      .toBuffer();
    const out = await finishResult(img, { width: 300, height: 300 }, 'test');
    const { data, info } = await sharp(out.image).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([500, 500]);
    const px = (x: number) => [data[x * 3], data[x * 3 + 2]];
    expect(px(10)[0]).toBeGreaterThan(200); // red on the left
    expect(px(490)[1]).toBeGreaterThan(200); // blue on the right
  });

  it('decodes data URLs', () => {
    expect(decodeDataUrl('data:image/png;base64,aGVsbG8=')?.toString()).toBe('hello');
    expect(decodeDataUrl('https://cdn.example/x.png')).toBeUndefined();
  });
});

describe('HTTP helpers', () => {
  it('backs off exponentially with jitter, capped', () => {
    const policy = { attempts: 5, baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1000);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });

  it('redacts every occurrence of a secret', () => {
    expect(redact('key=abc12345 and again abc12345', ['abc12345'])).toBe('key=[redacted] and again [redacted]');
  });

  it('a deadline aborts its signal when it passes or when the caller aborts', async () => {
    const d = new Deadline(30);
    await expect(sleep(1_000, d.signal)).rejects.toBeDefined();
    expect(d.abortedBy).toBe('deadline');
    expect(d.timeoutError('x').code).toBe('ENGINE_TIMEOUT');
    const ac = new AbortController();
    const d2 = new Deadline(10_000, ac.signal);
    ac.abort();
    expect(d2.signal.aborted).toBe(true);
    expect(d2.abortedBy).toBe('caller');
    d.dispose();
    d2.dispose();
  });

  it('does not sleep past the deadline: a retry that would outlast it returns the last answer', async () => {
    let calls = 0;
    const fakeFetch = async () => {
      calls++;
      return new Response('{"error":"busy"}', { status: 503, headers: { 'retry-after': '30' } });
    };
    const d = new Deadline(2_000);
    const started = performance.now();
    const res = await hostedFetch(
      'http://stand-in.invalid/x',
      { method: 'GET' },
      { deadline: d, fetch: fakeFetch, retry: { attempts: 5, baseMs: 10, maxMs: 50 } },
      'test',
    );
    d.dispose();
    expect(res.status).toBe(503);
    expect(calls).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('retries network errors, then reports them without a stack', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const d = new Deadline(5_000);
    const err = await hostedFetch(
      'http://stand-in.invalid/x',
      {},
      { deadline: d, fetch: failing, retry: { attempts: 3, baseMs: 5, maxMs: 10 } },
      'test',
    ).catch((e: unknown) => e);
    d.dispose();
    expect(calls).toBe(3);
    expect(isEngineError(err) && err.code).toBe('ENGINE_FAILED');
    expect((err as { detail: string }).detail).toContain('ECONNREFUSED');
  });
});

describe('health and logging', () => {
  it('computes the error rate over the recent calls only; failures in a row make it down for a minute', () => {
    let now = 0;
    const h = new HealthStats(() => now, 4);
    for (const o of ['failure', 'failure', 'failure', 'failure'] as const) h.record(o);
    expect(h.snapshot()).toMatchObject({ status: 'down', errorRate: 1, recentCalls: 4 });
    // A minute after the last failure one try-on is let through again: degraded, no longer down.
    now += 60_000;
    expect(h.snapshot()).toMatchObject({ status: 'degraded', errorRate: 1 });
    h.record('failure');
    expect(h.snapshot().status).toBe('down');
    for (const o of ['success', 'success', 'refused'] as const) h.record(o);
    expect(h.snapshot()).toMatchObject({ status: 'ok', errorRate: 0.25, recentCalls: 4 });
  });

  it('writes pino-style JSON lines at or above the configured level', () => {
    const lines: string[] = [];
    const log = createJsonLogger('warn', (l) => lines.push(l));
    log.info({ engine: 'fal' }, 'hidden');
    log.warn({ engine: 'fal', requestId: 'r1' }, 'shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, engine: 'fal', requestId: 'r1', msg: 'shown' });
    createJsonLogger('silent', (l) => lines.push(l)).warn({}, 'never');
    expect(lines).toHaveLength(1);
  });
});

describe('reduceImage pass-through', () => {
  it('sends a clean upright 1024 px JPEG as it is, and re-encodes one that carries metadata', async () => {
    const clean = await sharp({ create: { width: 1024, height: 700, channels: 3, background: '#336699' } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const same = await reduceImage(clean);
    expect(same.data.equals(clean)).toBe(true);
    expect([same.width, same.height]).toEqual([1024, 700]);

    const tagged = await sharp(clean)
      .withMetadata({ exif: { IFD0: { Copyright: 'someone' } } })
      .jpeg()
      .toBuffer();
    const stripped = await reduceImage(tagged);
    expect(stripped.data.equals(tagged)).toBe(false);
    expect((await sharp(stripped.data).metadata()).exif).toBeUndefined();
  });
});
