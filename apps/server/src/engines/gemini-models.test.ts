/**
 * nano-banana's model discovery and fallback, and its one-request outfit, against the Gemini
 * stand-in (which answers `GET /v1beta/models` with a paginated list, and 404 NOT_FOUND for a
 * model it does not serve).
 */
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOSTED_ENGINE_MESSAGES } from '@aidressup/contract';
import { isEngineError } from '@aidressup/engine';
import { startGeminiStandIn, type GeminiListedModel, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import type { HostedEngineDeps } from './hosted-call.js';
import { isImageModel, isMarkedDeprecated, pickFallback, type ListedGeminiModel } from './gemini-models.js';
import { createNanoBananaEngine, type GeminiConfig } from './nano-banana.js';

const KEY = 'AIzaSy-models-test-key-0987654321';
const FLASH = 'gemini-3.1-flash-image';
const PRO = 'gemini-3-pro-image';
const RETIRED = 'gemini-2.5-flash-image';

let standIn: GeminiStandIn;
let person: Buffer;
let garment: Buffer;
let lower: Buffer;
let logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }>;

const image = (id: string, extra: Partial<GeminiListedModel> = {}): GeminiListedModel => ({
  name: `models/${id}`,
  displayName: id,
  description: 'Image generation and editing model.',
  supportedGenerationMethods: ['generateContent', 'countTokens'],
  ...extra,
});
const text = (id: string): GeminiListedModel => ({
  name: `models/${id}`,
  displayName: id,
  description: 'Fast multimodal model for text answers.',
  supportedGenerationMethods: ['generateContent', 'countTokens'],
});

function engine(cfg: Partial<GeminiConfig> = {}, deps: HostedEngineDeps = {}) {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'info', obj, msg }),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ level: 'warn', obj, msg }),
  };
  return createNanoBananaEngine(
    { apiKey: KEY, baseUrl: standIn.url, model: FLASH, ...cfg },
    { retry: { baseMs: 5, maxMs: 20 }, deadlineMs: 10_000, logger, ...deps },
  );
}

const warnings = () => logs.filter((l) => l.level === 'warn').map((l) => l.msg ?? '');
const models = () => standIn.calls().map((c) => /models\/([^:]+):/.exec(c.url)?.[1]);

beforeAll(async () => {
  standIn = await startGeminiStandIn({ apiKey: KEY, model: [FLASH, PRO] });
  [person, garment, lower] = await Promise.all([
    syntheticPhoto(1200, 1800, { seed: 41 }),
    syntheticPhoto(900, 900, { seed: 42 }),
    syntheticPhoto(900, 1200, { seed: 43 }),
  ]);
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  logs = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('choosing a replacement model', () => {
  const listed = (ms: GeminiListedModel[]): ListedGeminiModel[] =>
    ms.map((m) => ({
      id: m.name.replace(/^models\//, ''),
      displayName: m.displayName ?? '',
      description: m.description ?? '',
      methods: m.supportedGenerationMethods ?? [],
    }));

  it('takes image models only: generateContent plus an image id or an image description', () => {
    const [a, b, c, d] = listed([
      image(FLASH),
      text('gemini-3.5-flash'),
      { ...image('imagen-4.0-generate'), supportedGenerationMethods: ['predict'] },
      { ...text('gemini-x-studio'), description: 'Generates and edits images from text and photos.' },
    ]);
    expect([a, b, c, d].map((m) => isImageModel(m!))).toEqual([true, false, false, true]);
  });

  it('prefers the operator list, then the newest stable image model of the same tier', () => {
    const all = listed([
      image(PRO),
      image(FLASH),
      image('gemini-3.5-flash-image-preview'),
      image('gemini-3.1-pro-image'),
      image('gemini-3.1-flash-lite-image'),
      text('gemini-3.6-flash'),
      image('gemini-3.2-flash-image', { description: 'Deprecated: shuts down soon. Image generation.' }),
    ]);
    expect(isMarkedDeprecated(all.at(-1)!)).toBe(true);
    // newest stable (3.1; the 3.2 one is deprecated, the 3.5 one a preview), same tier as the old flash
    expect(pickFallback(all, 'gemini-2.5-flash-image', [])).toBe(FLASH);
    expect(pickFallback(all, 'gemini-3-pro-image-old', [])).toBe('gemini-3.1-pro-image');
    // the operator's order wins, skipping what is not listed
    expect(pickFallback(all, RETIRED, ['gemini-9-image', PRO])).toBe(PRO);
    expect(pickFallback(all, FLASH, [], [FLASH, 'gemini-3.1-pro-image', 'gemini-3.1-flash-lite-image'])).toBe(PRO);
  });
});

describe('nano-banana model discovery', () => {
  it('lists every page at start; a listing without the configured model degrades health with the reason', async () => {
    standIn.maxPageSize = 2;
    standIn.listing = [text('gemini-3.5-flash'), image(PRO), text('gemini-3.1-pro'), image(FLASH), image('x-image')];
    const e = engine({ model: RETIRED });
    await e.warm?.();
    expect(standIn.listCalls().map((c) => c.url)).toEqual([
      '/v1beta/models?pageSize=1000',
      '/v1beta/models?pageSize=1000&pageToken=2',
      '/v1beta/models?pageSize=1000&pageToken=4',
    ]);
    expect(standIn.listCalls()[0]!.headers['x-goog-api-key']).toBe(KEY);
    const reason = `the Gemini model "${RETIRED}" is not in the Gemini API model list (retired or unknown): set GEMINI_MODEL to "${FLASH}" (or list it first in GEMINI_FALLBACK_MODELS)`;
    expect(e.health()).toMatchObject({ status: 'degraded', reasons: [reason] });
    expect(warnings()).toEqual([`nano-banana: ${reason}`]);
    // the same finding at the next listing is not logged again
    await e.refreshModels();
    expect(warnings()).toHaveLength(1);
    await e.close?.();
  });

  it('a model marked deprecated is reported too; a current one is not', async () => {
    standIn.listing = [image(FLASH, { description: 'Deprecated. Image generation.' }), image(PRO)];
    const e = engine();
    await e.refreshModels();
    expect(e.health().status).toBe('degraded');
    expect(e.health().reasons?.[0]).toContain('is marked deprecated');
    standIn.listing = [image(FLASH), image(PRO)];
    await e.refreshModels();
    expect(e.health()).toMatchObject({ status: 'ok' });
    expect(e.health().reasons).toBeUndefined();
  });

  it('a failed listing keeps what was known and is logged', async () => {
    const e = engine({ apiKey: 'wrong-key' });
    await e.refreshModels();
    expect(warnings()).toEqual(['nano-banana: could not read the Gemini model list; keeping the current model']);
    expect(e.health().status).toBe('ok');
  });

  it('reads the list again every hour', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const e = engine();
    await e.warm?.();
    expect(standIn.listCalls()).toHaveLength(1);
    standIn.listing = [image(PRO)];
    vi.advanceTimersByTime(60 * 60 * 1000);
    await vi.waitFor(() => expect(e.health().status).toBe('degraded'));
    expect(standIn.listCalls()).toHaveLength(2);
    await e.close?.();
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(standIn.listCalls()).toHaveLength(2);
  });
});

describe('nano-banana fallback when the model is gone', () => {
  it('a 404 for a retired model is retried once on the best listed replacement, kept until the next listing', async () => {
    const e = engine({ model: RETIRED });
    const out = await e.tryOn({ person, garment, category: 'upper_body' });
    expect(out.image.length).toBeGreaterThan(0);
    // the listing was read inside the try-on, then the replacement answered
    expect(models()).toEqual([RETIRED, FLASH]);
    expect(standIn.listCalls()).toHaveLength(1);
    expect(e.activeModel()).toBe(FLASH);
    const warn = logs.find((l) => l.level === 'warn' && l.obj.replacement);
    expect(warn?.obj).toMatchObject({ model: RETIRED, replacement: FLASH, status: 404 });
    expect(e.health()).toMatchObject({ status: 'degraded', recentCalls: 1, errorRate: 0 });
    expect(e.health().reasons?.[0]).toContain(`try-ons use "${FLASH}" until the next model listing`);

    // the next try-on goes straight to the replacement
    await e.tryOn({ person, garment, category: 'upper_body' });
    expect(models()).toEqual([RETIRED, FLASH, FLASH]);
    // a new listing starts again from GEMINI_MODEL (the operator may have fixed it)
    standIn.listing = [image(FLASH), image(PRO), image(RETIRED)];
    standIn.serve([FLASH, PRO, RETIRED]);
    await e.refreshModels();
    expect(e.activeModel()).toBe(RETIRED);
    expect(e.health().status).toBe('ok');
  });

  it('GEMINI_FALLBACK_MODELS comes first, skipping models that are not listed', async () => {
    const e = engine({ model: RETIRED, fallbackModels: ['gemini-9-image', PRO] });
    await e.warm?.();
    expect(e.health().reasons?.[0]).toContain(`set GEMINI_MODEL to "${PRO}"`);
    await e.tryOn({ person, garment, category: 'upper_body' });
    expect(models()).toEqual([RETIRED, PRO]);
    // Pro answers at 2K
    const body = standIn.calls().at(-1)!.json as { generationConfig: { imageConfig: { imageSize?: string } } };
    expect(body.generationConfig.imageConfig.imageSize).toBe('2K');
    await e.close?.();
  });

  it('retries once only: a replacement that fails too ends the try-on', async () => {
    const e = engine({ model: RETIRED });
    standIn.enqueue({ kind: 'http', status: 500 }, { kind: 'http', status: 500 }, { kind: 'http', status: 500 });
    standIn.enqueue({ kind: 'http', status: 500 });
    let err: unknown;
    try {
      await e.tryOn({ person, garment, category: 'upper_body' });
    } catch (caught) {
      err = caught;
    }
    expect(isEngineError(err) && err.code).toBe('ENGINE_FAILED');
    expect(new Set(models())).toEqual(new Set([RETIRED, FLASH]));
    expect(models().filter((m) => m === RETIRED)).toHaveLength(1);
  });
});

describe('nano-banana outfit', () => {
  it('sends the person and both garments in one request', async () => {
    const e = engine();
    expect(e.outfit).toBe(true);
    const out = await e.tryOn({ person, garment, lowerGarment: lower, category: 'upper_body' });
    expect(standIn.calls()).toHaveLength(1);
    const body = standIn.calls()[0]!.json as {
      contents: Array<{ parts: Array<{ text?: string; inlineData?: { data: string } }> }>;
    };
    const parts = body.contents[0]!.parts;
    expect(parts).toHaveLength(4);
    expect(parts[0]!.text).toContain('The third image shows a lower-body garment');
    const sizes = await Promise.all(
      parts.slice(1).map(async (p) => {
        const m = await sharp(Buffer.from(p.inlineData!.data, 'base64')).metadata();
        return [m.width, m.height];
      }),
    );
    // person, top, bottom in that order, each at Gemini's 1024 px
    expect(sizes).toEqual([
      [683, 1024],
      [1024, 1024],
      [768, 1024],
    ]);
    const meta = await sharp(out.image).metadata();
    expect(meta.width / meta.height).toBeCloseTo(2 / 3, 2);
  });

  it('falls back to two requests, bottom then top, when the one-request answer has no image', async () => {
    const e = engine();
    standIn.enqueue({ kind: 'text-only', text: 'I can only change one garment at a time.' });
    const out = await e.tryOn({ person, garment, lowerGarment: lower, category: 'upper_body' });
    expect(out.image.length).toBeGreaterThan(0);
    const texts = standIn
      .calls()
      .map((c) => (c.json as { contents: Array<{ parts: Array<{ text?: string }> }> }).contents[0]!.parts[0]!.text);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('whole outfit');
    expect(texts[1]).toContain('category: lower body');
    expect(texts[2]).toContain('category: upper body');
    expect(e.health()).toMatchObject({ recentCalls: 1, errorRate: 0 });
  });

  it('a safety refusal of the one-request outfit is not retried as two requests', async () => {
    const e = engine();
    standIn.enqueue({ kind: 'finish', reason: 'IMAGE_SAFETY' });
    let err: unknown;
    try {
      await e.tryOn({ person, garment, lowerGarment: lower, category: 'upper_body' });
    } catch (caught) {
      err = caught;
    }
    expect(isEngineError(err) && err.code).toBe('CONTENT_BLOCKED');
    expect(standIn.calls()).toHaveLength(1);
    expect(HOSTED_ENGINE_MESSAGES.noImage).not.toBe((err as Error).message);
  });
});
