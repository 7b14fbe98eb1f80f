import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isEngineError, type EngineError } from '@aidressup/engine';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import {
  buildTryOnInstruction,
  createNanoBananaEngine,
  geminiImageSize,
  nearestAspectRatio,
  type GeminiConfig,
} from './nano-banana.js';
import type { HostedEngineDeps } from './hosted-call.js';

const KEY = 'AIzaSy-test-key-1234567890abcdef';
const MODEL = 'gemini-3.1-flash-image';
const PRO = 'gemini-3-pro-image';
const OLD = 'gemini-2.5-flash-image';

let standIn: GeminiStandIn;
let person: Buffer; // 1600×2400, portrait
let garment: Buffer; // 1800×1800 stored landscape with EXIF orientation 6
let logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }>;

const fast: HostedEngineDeps['retry'] = { baseMs: 5, maxMs: 20 };

function engine(deps: HostedEngineDeps = {}, cfg: Partial<GeminiConfig> = {}) {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'info', obj, msg }),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'warn', obj, msg }),
  };
  return createNanoBananaEngine(
    { apiKey: KEY, baseUrl: standIn.url, model: MODEL, ...cfg },
    { retry: fast, deadlineMs: 10_000, logger, ...deps },
  );
}

async function failure(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (err) {
    if (isEngineError(err)) return err;
    throw err;
  }
  throw new Error('expected the try-on to fail');
}

function sentParts() {
  const call = standIn.calls().at(-1)!;
  const body = call.json as {
    contents: Array<{ role: string; parts: Array<{ text?: string; inlineData?: { mimeType: string; data: string } }> }>;
    generationConfig: { responseModalities: string[]; imageConfig: { aspectRatio: string; imageSize?: string } };
  };
  return { call, body, parts: body.contents[0]!.parts };
}

beforeAll(async () => {
  // serves the two current models and the older 2.5 one (not the retired previews)
  standIn = await startGeminiStandIn({ apiKey: KEY, model: [MODEL, PRO, OLD] });
  person = await syntheticPhoto(1600, 2400, { seed: 1 });
  garment = await syntheticPhoto(1800, 1200, { seed: 2, orientation: 6 });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  logs = [];
});

describe('nano-banana request', () => {
  it('sends both reduced photos, the instruction and the image settings to generateContent', async () => {
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });

    const { call, body, parts } = sentParts();
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(call.headers['x-goog-api-key']).toBe(KEY);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.url).not.toContain(KEY);
    expect(body.contents[0]!.role).toBe('user');
    expect(parts).toHaveLength(3);
    expect(parts[0]!.text).toContain('upper body');
    expect(body.generationConfig).toEqual({
      responseModalities: ['IMAGE'],
      imageConfig: { aspectRatio: '2:3', imageSize: '1K' },
    });
    expect(Object.keys(body)).toEqual(['contents', 'generationConfig']);

    const [p, g] = await Promise.all(
      parts.slice(1).map((part) => sharp(Buffer.from(part.inlineData!.data, 'base64')).metadata()),
    );
    expect(parts[1]!.inlineData!.mimeType).toBe('image/jpeg');
    expect(parts[2]!.inlineData!.mimeType).toBe('image/jpeg');
    expect([p!.format, p!.width, p!.height]).toEqual(['jpeg', 683, 1024]);
    // the garment was stored 1800×1200 with orientation 6: it arrives upright (1200×1800 → 683×1024)
    expect([g!.format, g!.width, g!.height]).toEqual(['jpeg', 683, 1024]);
    for (const m of [p!, g!]) {
      expect(Math.max(m.width, m.height)).toBeLessThanOrEqual(1536);
      expect(Math.max(m.width, m.height)).toBeGreaterThanOrEqual(1024);
      expect(m.exif).toBeUndefined();
      expect(m.orientation).toBeUndefined();
    }

    // 2:3 answer (832×1248) for a 2:3 photo: passed through untouched. The answer carried
    // a thought text and a 64×64 thought image before it: neither is the result.
    expect(out.mimeType).toBe('image/png');
    const r = await sharp(out.image).metadata();
    expect([r.width, r.height]).toEqual([832, 1248]);
  });

  it('asks gemini-3-pro-image for a 2K image and gemini-2.5-flash-image for no size at all', async () => {
    const pro = await engine({}, { model: PRO }).tryOn({ person, garment, category: 'upper_body' });
    expect(standIn.calls().at(-1)!.url).toBe(`/v1beta/models/${PRO}:generateContent`);
    expect(sentParts().body.generationConfig.imageConfig).toEqual({ aspectRatio: '2:3', imageSize: '2K' });
    const p = await sharp(pro.image).metadata();
    expect([p.width, p.height]).toEqual([1664, 2496]);

    await engine({}, { model: `models/${OLD}` }).tryOn({ person, garment, category: 'upper_body' });
    expect(standIn.calls().at(-1)!.url).toBe(`/v1beta/models/${OLD}:generateContent`);
    expect(sentParts().body.generationConfig.imageConfig).toEqual({ aspectRatio: '2:3' });

    expect([
      geminiImageSize('gemini-3.1-flash-image'),
      geminiImageSize('gemini-3-pro-image'),
      geminiImageSize('gemini-2.5-flash-image'),
    ]).toEqual(['1K', '2K', undefined]);
  });

  it('declares the small input it wants: 1024 px at JPEG quality 90', () => {
    expect(engine().input).toEqual({ minSide: 1024, maxSide: 1024, jpegQuality: 90 });
  });

  it('names the category in the instruction and asks to keep the person', () => {
    expect(buildTryOnInstruction('upper_body')).toContain('upper body');
    expect(buildTryOnInstruction('lower_body')).toContain('lower body');
    expect(buildTryOnInstruction('dresses')).toContain('full outfit');
    for (const c of ['upper_body', 'lower_body', 'dresses'] as const) {
      const text = buildTryOnInstruction(c);
      for (const kept of ['identity', 'face', 'hair', 'skin tone', 'pose', 'body shape', 'background'])
        expect(text).toContain(kept);
    }
    expect(buildTryOnInstruction('lower_body')).not.toContain('upper body (');
  });

  it('sends the category chosen by the shopper', async () => {
    await engine().tryOn({ person, garment, category: 'lower_body' });
    expect(sentParts().parts[0]!.text).toContain('lower body');
    await engine().tryOn({ person, garment, category: 'dresses' });
    expect(sentParts().parts[0]!.text).toContain('full outfit');
  });

  it('asks for the supported aspect ratio nearest the person photo', () => {
    expect(nearestAspectRatio(1024, 1536)).toBe('2:3');
    expect(nearestAspectRatio(1000, 1000)).toBe('1:1');
    expect(nearestAspectRatio(1080, 1920)).toBe('9:16');
    expect(nearestAspectRatio(1536, 1152)).toBe('4:3');
    expect(nearestAspectRatio(1200, 1500)).toBe('4:5');
    expect(nearestAspectRatio(3000, 1000)).toBe('21:9');
  });

  it("crops the answer back to the person photo's own proportions", async () => {
    const odd = await syntheticPhoto(1300, 2000, { seed: 3 }); // 0.65, nearest ratio 2:3
    const out = await engine().tryOn({ person: odd, garment, category: 'upper_body' });
    expect(sentParts().body.generationConfig.imageConfig.aspectRatio).toBe('2:3');
    const r = await sharp(out.image).metadata();
    expect(out.mimeType).toBe('image/jpeg');
    expect(r.height).toBe(1248);
    expect(r.width / r.height).toBeCloseTo(0.65, 2);
  });
});

// How Gemini's failures become engine errors: hosted-failures.test.ts.

describe('nano-banana logs and health', () => {
  it("logs the provider's response id", async () => {
    await engine().tryOn({ person, garment, category: 'upper_body' });
    const ok = logs.find((l) => l.msg === 'hosted try-on succeeded');
    expect(ok?.obj.requestId).toBe(standIn.lastResponseId);
    expect(ok?.obj.engine).toBe('nano-banana');
  });

  it('reports success and failure times and the error rate without calling the provider', async () => {
    let clock = Date.parse('2026-01-01T10:00:00Z');
    const e = engine({ now: () => clock });
    expect(e.health()).toMatchObject({
      status: 'ok',
      configured: true,
      lastSuccessAt: null,
      lastFailureAt: null,
      errorRate: 0,
    });
    await e.tryOn({ person, garment, category: 'upper_body' });
    clock += 60_000;
    standIn.enqueue({ kind: 'malformed' }, { kind: 'malformed' });
    await failure(e.tryOn({ person, garment, category: 'upper_body' }));
    await failure(e.tryOn({ person, garment, category: 'upper_body' }));
    const calls = standIn.calls().length;
    const h = e.health();
    expect(standIn.calls().length).toBe(calls);
    expect(h).toMatchObject({
      status: 'degraded',
      configured: true,
      lastSuccessAt: '2026-01-01T10:00:00.000Z',
      lastFailureAt: '2026-01-01T10:01:00.000Z',
      errorRate: 0.667,
    });
    // a refusal (safety) is the service working: it does not count as an error
    standIn.enqueue({ kind: 'finish', reason: 'IMAGE_SAFETY' });
    await failure(e.tryOn({ person, garment, category: 'upper_body' }));
    expect(e.health().errorRate).toBe(0.5);
  });
});
