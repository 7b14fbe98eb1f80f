import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FashnMode } from '@aidressup/contract';
import { startFashnStandIn, type FashnStandIn } from '../test/stand-ins/fashn-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { FASHN_CATEGORIES, createFashnEngine } from './fashn.js';
import type { HostedEngineDeps } from './hosted-call.js';

const KEY = 'fa-test-secret-key-0123456789';

let standIn: FashnStandIn;
let person: Buffer;
let garment: Buffer;
let logs: Array<{ obj: Record<string, unknown>; msg?: string }>;

function engine(deps: HostedEngineDeps = {}, apiKey = KEY, mode?: FashnMode) {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg }),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg }),
  };
  return createFashnEngine(
    { apiKey, baseUrl: standIn.url, ...(mode ? { mode } : {}) },
    { retry: { baseMs: 5, maxMs: 20 }, pollIntervalMs: 10, maxPollIntervalMs: 30, deadlineMs: 10_000, logger, ...deps },
  );
}

type RunBody = {
  model_name: string;
  inputs: { model_image: string; garment_image: string; category: string } & Record<string, unknown>;
};
const lastRun = () => standIn.runCalls().at(-1)!.json as RunBody;

beforeAll(async () => {
  standIn = await startFashnStandIn({ apiKey: KEY });
  person = await syntheticPhoto(1600, 2400, { seed: 11 });
  garment = await syntheticPhoto(2000, 1600, { seed: 12 });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  logs = [];
});

describe('fashn request', () => {
  it('starts a tryon-v1.6 prediction with both photos at up to 2000 px, the best settings, polls its status and reads the base64 output', async () => {
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });

    const run = standIn.runCalls();
    expect(run).toHaveLength(1);
    expect(run[0]!.method).toBe('POST');
    expect(run[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run[0]!.headers['content-type']).toBe('application/json');
    const body = lastRun();
    expect(Object.keys(body)).toEqual(['model_name', 'inputs']);
    expect(body.model_name).toBe('tryon-v1.6');
    expect({ ...body.inputs, model_image: 'person', garment_image: 'garment' }).toEqual({
      model_image: 'person',
      garment_image: 'garment',
      category: 'tops',
      mode: 'balanced',
      garment_photo_type: 'auto',
      moderation_level: 'permissive',
      segmentation_free: true,
      num_samples: 1,
      output_format: 'jpeg',
      return_base64: true,
    });
    const images = [body.inputs.model_image, body.inputs.garment_image];
    for (const url of images) expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const [p, g] = await Promise.all(
      images.map((u) => sharp(Buffer.from(u.slice(u.indexOf(',') + 1), 'base64')).metadata()),
    );
    // 1600×2400 and 2000×1600 photos go at their own size, below FASHN's 2000 px: no upscaling at FASHN's 864×1296
    expect([p!.width, p!.height]).toEqual([1600, 2400].map((v) => Math.round((v * 2000) / 2400)));
    expect([g!.width, g!.height]).toEqual([2000, 1600]);
    expect(p!.exif).toBeUndefined();
    expect(engine().input).toEqual({ minSide: 1024, maxSide: 2000, jpegQuality: 95 });

    const id = standIn.predictionIds.at(-1)!;
    const polls = standIn.statusCalls();
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((r) => r.url === `/v1/status/${id}` && r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // the output came back as base64 in the status answer: nothing is downloaded
    expect(standIn.outputCalls()).toHaveLength(0);

    expect(out.mimeType).toBe('image/jpeg');
    const r = await sharp(out.image).metadata();
    expect([r.width, r.height]).toEqual([864, 1296]);
    // the credits FASHN reports are logged with the prediction id
    expect(logs.find((l) => l.msg === 'fashn credits used')?.obj).toMatchObject({
      engine: 'fashn',
      requestId: id,
      creditsUsed: 1,
      status: 'completed',
    });
  });

  it('sends the mode FASHN_MODE names', async () => {
    await engine({}, KEY, 'quality').tryOn({ person, garment, category: 'upper_body' });
    expect(lastRun().inputs.mode).toBe('quality');
    await engine({}, KEY, 'performance').tryOn({ person, garment, category: 'upper_body' });
    expect(lastRun().inputs.mode).toBe('performance');
  });

  it('still reads an output given as a CDN link, without the key', async () => {
    standIn.enqueueRun({ kind: 'accept', outcome: { kind: 'completed', output: 'url' } });
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });
    const cdn = standIn.outputCalls();
    expect(cdn).toHaveLength(1);
    expect(cdn[0]!.headers.authorization).toBeUndefined();
    expect((await sharp(out.image).metadata()).width).toBe(864);
  });

  it('maps the categories to tops, bottoms and one-pieces', async () => {
    expect(FASHN_CATEGORIES).toEqual({ upper_body: 'tops', lower_body: 'bottoms', dresses: 'one-pieces' });
    await engine().tryOn({ person, garment, category: 'lower_body' });
    expect(lastRun().inputs.category).toBe('bottoms');
    await engine().tryOn({ person, garment, category: 'dresses' });
    expect(lastRun().inputs.category).toBe('one-pieces');
  });

  it('crops the padding off a 2:3 answer for a square photo', async () => {
    const square = await syntheticPhoto(1400, 1400, { seed: 13 });
    const out = await engine().tryOn({ person: square, garment, category: 'upper_body' });
    const img = sharp(out.image);
    const meta = await img.metadata();
    expect([meta.width, meta.height]).toEqual([864, 864]);
    // the white padding FASHN adds above and below is gone
    const { data } = await img
      .extract({ left: 0, top: 0, width: 864, height: 4 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mean = data.reduce((s, v) => s + v, 0) / data.length;
    expect(mean).toBeLessThan(235);
  });
});

// How FASHN's failures become engine errors: hosted-failures.test.ts.

describe('fashn settings, retries, Try-On Max and the credit balance', () => {
  function configured(cfg: Partial<Parameters<typeof createFashnEngine>[0]>, deps: HostedEngineDeps = {}) {
    const logger = {
      info: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg }),
      warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg: `warn: ${msg}` }),
    };
    return createFashnEngine(
      { apiKey: KEY, baseUrl: standIn.url, ...cfg },
      {
        retry: { baseMs: 5, maxMs: 20 },
        pollIntervalMs: 10,
        maxPollIntervalMs: 30,
        deadlineMs: 10_000,
        logger,
        ...deps,
      },
    );
  }

  it('sends the configured moderation level, segmentation setting and seed, one sample', async () => {
    await configured({ moderation: 'conservative', segmentationFree: false, seed: 42 }).tryOn({
      person,
      garment,
      category: 'lower_body',
    });
    expect(lastRun().inputs).toMatchObject({
      category: 'bottoms',
      moderation_level: 'conservative',
      segmentation_free: false,
      seed: 42,
      num_samples: 1,
    });
  });

  it('a PipelineError is retried once with a new prediction, inside the same try-on', async () => {
    standIn.enqueueRun({ kind: 'accept', outcome: { kind: 'failed', name: 'PipelineError' } });
    const idsBefore = standIn.predictionIds.length;
    const e = configured({});
    const out = await e.tryOn({ person, garment, category: 'upper_body' });
    expect(out.image.length).toBeGreaterThan(0);
    expect(standIn.runCalls()).toHaveLength(2);
    expect(new Set(standIn.predictionIds.slice(idsBefore)).size).toBe(2);
    expect(logs.some((l) => l.msg === 'warn: fashn: PipelineError, starting the prediction once more')).toBe(true);
    expect(e.health()).toMatchObject({ recentCalls: 1, errorRate: 0 });
  });

  it('other failures are not retried', async () => {
    standIn.enqueueRun({ kind: 'accept', outcome: { kind: 'failed', name: 'InputValidationError' } });
    await expect(configured({}).tryOn({ person, garment, category: 'upper_body' })).rejects.toMatchObject({
      code: 'ENGINE_FAILED',
    });
    expect(standIn.runCalls()).toHaveLength(1);
  });

  it('tryon-max: its own inputs (product_image, base64 output) and a deadline raised to 150 s for it only', async () => {
    const max = configured({ model: 'tryon-max', seed: 7 }, { deadlineMs: 100_000 });
    expect(max.model).toBe('tryon-max');
    expect(max.deadlineMs).toBe(150_000);
    expect(configured({}, { deadlineMs: 100_000 }).deadlineMs).toBe(100_000);
    await max.tryOn({ person, garment, category: 'upper_body' });
    const body = lastRun() as unknown as { model_name: string; inputs: Record<string, unknown> };
    expect(body.model_name).toBe('tryon-max');
    expect(Object.keys(body.inputs).sort()).toEqual(
      ['model_image', 'output_format', 'product_image', 'return_base64', 'seed'].sort(),
    );
    expect(body.inputs).toMatchObject({ output_format: 'jpeg', return_base64: true, seed: 7 });
  });

  it('reads the credit balance at start and hourly; a low balance degrades health with the reason', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const e = configured({ lowCredits: 50 });
      await e.warm?.();
      expect(standIn.creditsCalls()).toHaveLength(1);
      expect(standIn.creditsCalls()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(e.health().status).toBe('ok');
      standIn.credits = 12;
      vi.advanceTimersByTime(60 * 60 * 1000);
      await vi.waitFor(() => expect(e.health().status).toBe('degraded'));
      const reason = 'the FASHN account has 12 credits left (below FASHN_LOW_CREDITS=50): top up the FASHN API balance';
      expect(e.health().reasons).toEqual([reason]);
      expect(logs.filter((l) => l.msg === `warn: fashn: ${reason}`)).toHaveLength(1);
      standIn.credits = 500;
      await e.checkCredits();
      expect(e.health().status).toBe('ok');
      await e.close?.();
    } finally {
      vi.useRealTimers();
    }
  });
});
