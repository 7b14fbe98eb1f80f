import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FashnMode } from '@aidressup/contract';
import { startFalStandIn, type FalStandIn } from '../test/stand-ins/fal-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { createFalEngine, falError, falInput } from './fal.js';
import type { HostedEngineDeps } from './hosted-call.js';

const KEY = 'fal-key-id:fal-key-secret-abcdef123456';
const MODEL = 'fal-ai/fashn/tryon/v1.6';

let standIn: FalStandIn;
let person: Buffer;
let garment: Buffer;
let logs: Array<{ obj: Record<string, unknown>; msg?: string }>;

function engine(deps: HostedEngineDeps = {}, key = KEY, fashnMode?: FashnMode) {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg }),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push({ obj, msg }),
  };
  return createFalEngine(
    { key, baseUrl: standIn.url, model: MODEL, ...(fashnMode ? { fashnMode } : {}) },
    { retry: { baseMs: 5, maxMs: 20 }, pollIntervalMs: 10, maxPollIntervalMs: 30, deadlineMs: 10_000, logger, ...deps },
  );
}

type SubmitBody = { model_image: string; garment_image: string; category: string } & Record<string, unknown>;
const lastSubmit = () => standIn.submitCalls().at(-1)!.json as SubmitBody;

beforeAll(async () => {
  standIn = await startFalStandIn({ key: KEY, model: MODEL });
  person = await syntheticPhoto(1600, 2400, { seed: 21 });
  garment = await syntheticPhoto(1000, 1000, { seed: 22 });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  logs = [];
});

describe('fal request', () => {
  it("queues the model with FASHN's photo size and settings, a start deadline and a short output lifecycle, polls status_url and reads the data URI at response_url", async () => {
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });

    const submit = standIn.submitCalls();
    expect(submit).toHaveLength(1);
    expect(submit[0]!.url).toBe(`/${MODEL}`);
    expect(submit[0]!.headers.authorization).toBe(`Key ${KEY}`);
    expect(submit[0]!.headers['content-type']).toBe('application/json');
    // the deadline is 10 s: fal may spend at most the seconds left before a runner starts
    expect(Number(submit[0]!.headers['x-fal-request-timeout'])).toBeGreaterThanOrEqual(8);
    expect(Number(submit[0]!.headers['x-fal-request-timeout'])).toBeLessThanOrEqual(10);
    expect(JSON.parse(String(submit[0]!.headers['x-fal-object-lifecycle-preference']))).toEqual({
      expiration_duration_seconds: 3600,
    });
    const body = lastSubmit();
    expect({ ...body, model_image: 'person', garment_image: 'garment' }).toEqual({
      model_image: 'person',
      garment_image: 'garment',
      category: 'tops',
      mode: 'balanced',
      garment_photo_type: 'auto',
      moderation_level: 'permissive',
      segmentation_free: true,
      num_samples: 1,
      output_format: 'jpeg',
      sync_mode: true,
    });
    const images = [body.model_image, body.garment_image];
    for (const url of images) expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const [p, g] = await Promise.all(
      images.map((u) => sharp(Buffer.from(u.slice(u.indexOf(',') + 1), 'base64')).metadata()),
    );
    // 1600×2400 → 1333×2000, FASHN's recommended maximum
    expect([p!.width, p!.height]).toEqual([1333, 2000]);
    expect(engine().input).toEqual({ minSide: 1024, maxSide: 2000, jpegQuality: 95 });
    // a 1000 px garment is brought up to the 1024 px floor
    expect([g!.width, g!.height]).toEqual([1024, 1024]);

    const id = standIn.requestIds.at(-1)!;
    const polls = standIn.statusCalls();
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(
      polls.every((r) => r.url === `/fal-ai/fashn/requests/${id}/status` && r.headers.authorization === `Key ${KEY}`),
    ).toBe(true);
    const result = standIn.resultCalls();
    expect(result.map((r) => r.url)).toEqual([`/fal-ai/fashn/requests/${id}`]);
    expect(result[0]!.headers.authorization).toBe(`Key ${KEY}`);
    // sync_mode: the image came inline, nothing is downloaded from fal's CDN
    expect(standIn.mediaCalls()).toHaveLength(0);

    expect(out.mimeType).toBe('image/jpeg');
    const r = await sharp(out.image).metadata();
    expect([r.width, r.height]).toEqual([864, 1296]);
  });

  it('sends the mode FASHN_MODE names', async () => {
    await engine({}, KEY, 'performance').tryOn({ person, garment, category: 'upper_body' });
    expect(lastSubmit().mode).toBe('performance');
  });

  it('maps the categories and knows the Kolors input shape', async () => {
    await engine().tryOn({ person, garment, category: 'lower_body' });
    expect(lastSubmit().category).toBe('bottoms');
    await engine().tryOn({ person, garment, category: 'dresses' });
    expect(lastSubmit().category).toBe('one-pieces');
    expect(falInput('fal-ai/kling/v1-5/kolors-virtual-try-on', 'P', 'G', 'dresses')).toEqual({
      human_image_url: 'P',
      garment_image_url: 'G',
    });
    expect(
      createFalEngine({ key: KEY, baseUrl: standIn.url, model: 'fal-ai/kling/v1-5/kolors-virtual-try-on' }).input,
    ).toEqual({ minSide: 1024, maxSide: 1024, jpegQuality: 90 });
  });

  it('reads image.url and data URIs too', async () => {
    standIn.enqueueSubmit(
      { kind: 'accept', outcome: { kind: 'completed', output: 'image' } },
      { kind: 'accept', outcome: { kind: 'completed', output: 'data-uri' } },
    );
    const a = await engine().tryOn({ person, garment, category: 'upper_body' });
    const b = await engine().tryOn({ person, garment, category: 'upper_body' });
    // a CDN link is downloaded without the key
    expect(standIn.mediaCalls()).toHaveLength(1);
    expect(standIn.mediaCalls()[0]!.headers.authorization).toBeUndefined();
    for (const out of [a, b]) expect((await sharp(out.image).metadata()).height).toBe(1296);
  });

  it('never sends the key to a status URL on another origin', async () => {
    const seen: string[] = [];
    const rewriting: typeof fetch = async (input, init) => {
      const url = String(input);
      seen.push(url);
      const res = await fetch(input, init);
      if (init?.method === 'POST') {
        const json = (await res.json()) as Record<string, string>;
        const foreign = {
          ...json,
          status_url: 'https://collector.example/status',
          response_url: 'https://collector.example/result',
        };
        return new Response(JSON.stringify(foreign), {
          status: res.status,
          headers: { 'content-type': 'application/json' },
        });
      }
      return res;
    };
    await engine({ fetch: rewriting }).tryOn({ person, garment, category: 'upper_body' });
    expect(seen.some((u) => u.includes('collector.example'))).toBe(false);
    expect(standIn.statusCalls().length).toBeGreaterThan(0);
  });
});

// How fal's failures become engine errors, against the stand-in: hosted-failures.test.ts.
describe('falError', () => {
  it('a 504 for our x-fal-request-timeout (no runner started in time) is a timeout', () => {
    const e = falError(
      504,
      Buffer.from('{"detail":"Request timed out"}'),
      'r-1',
      'result',
      new Headers({ 'x-fal-request-timeout-type': 'user' }),
    );
    expect(e.code).toBe('ENGINE_TIMEOUT');
    expect(falError(504, Buffer.from('{"detail":"Gateway timeout"}'), 'r-1', 'result').code).toBe('ENGINE_FAILED');
  });
});

describe('each supported fal endpoint gets the inputs its schema names', () => {
  const ENDPOINTS: Array<{ model: string; inputs: Record<string, unknown>; person: string; size: number }> = [
    {
      model: 'fal-ai/image-apps-v2/virtual-try-on',
      inputs: { person_image_url: 'P', clothing_image_url: 'G', preserve_pose: true },
      person: 'person_image_url',
      size: 1024,
    },
    {
      model: 'fal-ai/flux-pro/v1/vto',
      inputs: {
        prompt:
          'The person of image 1, maintaining exactly their face and pose, wearing the trousers or skirt of image 2.',
        human_image_url: 'P',
        garment_image_url: 'G',
      },
      person: 'human_image_url',
      size: 1024,
    },
    {
      model: 'fal-ai/leffa/virtual-tryon',
      inputs: { human_image_url: 'P', garment_image_url: 'G', garment_type: 'lower_body' },
      person: 'human_image_url',
      size: 1024,
    },
    {
      model: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
      inputs: { human_image_url: 'P', garment_image_url: 'G' },
      person: 'human_image_url',
      size: 1024,
    },
  ];

  it.each(ENDPOINTS)('$model', async ({ model, inputs, person: personField, size }) => {
    const own = await startFalStandIn({ key: KEY, model });
    try {
      const e = createFalEngine(
        { key: KEY, baseUrl: own.url, model },
        { retry: { baseMs: 5, maxMs: 20 }, pollIntervalMs: 10, maxPollIntervalMs: 30, deadlineMs: 10_000 },
      );
      const out = await e.tryOn({ person, garment, category: 'lower_body' });
      expect(out.image.length).toBeGreaterThan(0);
      const call = own.submitCalls().at(-1)!;
      expect(call.url).toBe(`/${model}`);
      const body = call.json as Record<string, string>;
      const photos = Object.entries(body).filter(([, v]) => typeof v === 'string' && v.startsWith('data:image/jpeg'));
      expect(
        Object.fromEntries(Object.keys(body).map((k) => [k, photos.some(([p]) => p === k) ? '' : body[k]])),
      ).toEqual(Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v === 'P' || v === 'G' ? '' : v])));
      const meta = await sharp(Buffer.from(body[personField]!.split(',')[1]!, 'base64')).metadata();
      expect(Math.max(meta.width, meta.height)).toBe(size);
    } finally {
      await own.close();
    }
  });

  it('FASHN on fal gets FASHN v1.6 inputs from the same settings as FASHN itself', () => {
    expect(
      falInput('fal-ai/fashn/tryon/v1.6', 'P', 'G', 'upper_body', {
        mode: 'quality',
        moderation: 'none',
        segmentationFree: false,
        seed: 9,
      }),
    ).toEqual({
      model_image: 'P',
      garment_image: 'G',
      category: 'tops',
      mode: 'quality',
      garment_photo_type: 'auto',
      moderation_level: 'none',
      segmentation_free: false,
      seed: 9,
      num_samples: 1,
      output_format: 'jpeg',
      sync_mode: true,
    });
  });

  it("a result flagged by the endpoint's safety checker is a content block", async () => {
    const own = await startFalStandIn({ key: KEY, model: 'fal-ai/leffa/virtual-tryon' });
    try {
      const seen: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        if (String(input).endsWith('/requests/' + String(input).split('/').pop()) && init?.method === 'GET') {
          const json = (await res.json()) as Record<string, unknown>;
          if (json.image)
            return new Response(JSON.stringify({ ...json, has_nsfw_concepts: true }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            });
          return new Response(JSON.stringify(json), { status: res.status, headers: res.headers });
        }
        return res;
      };
      const e = createFalEngine(
        { key: KEY, baseUrl: own.url, model: 'fal-ai/leffa/virtual-tryon' },
        { fetch: seen, retry: { baseMs: 5, maxMs: 20 }, pollIntervalMs: 10, deadlineMs: 10_000 },
      );
      await expect(e.tryOn({ person, garment, category: 'upper_body' })).rejects.toMatchObject({
        code: 'CONTENT_BLOCKED',
      });
    } finally {
      await own.close();
    }
  });

  it('refuses an endpoint it does not know the inputs of', () => {
    expect(() => createFalEngine({ key: KEY, baseUrl: standIn.url, model: 'fal-ai/some/other-tryon' })).toThrow(
      /unsupported FAL_MODEL fal-ai\/some\/other-tryon \(supported: fal-ai\/fashn\/tryon\/v1\.6, /,
    );
  });
});
