import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTED_ENGINE_MESSAGES, MESSAGES } from '@aidressup/contract';
import type { EngineError } from '@aidressup/engine';
import { PRESET_INPUTS, type CogConfig } from '../config/hosted-engines.js';
import { startCogStandIn, type CogStandIn } from '../test/stand-ins/cog-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { createCogEngine } from './cog.js';
import type { HostedEngineDeps } from './hosted-call.js';

let standIn: CogStandIn;
let person: Buffer;
let garment: Buffer;

function engine(over: Partial<CogConfig> = {}, deps: HostedEngineDeps = {}, url = standIn.url) {
  return createCogEngine(
    { url, preset: 'p-image-try-on', inputs: PRESET_INPUTS['p-image-try-on'], ...over },
    { retry: { baseMs: 5, maxMs: 20 }, deadlineMs: 10_000, ...deps },
  );
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('should fail'),
    (e: EngineError) => e,
  );

beforeAll(async () => {
  standIn = await startCogStandIn();
  [person, garment] = await Promise.all([
    syntheticPhoto(1200, 1800, { seed: 61 }),
    syntheticPhoto(900, 900, { seed: 62 }),
  ]);
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => standIn.reset());

describe('cog request', () => {
  it("makes one idempotent PUT /predictions/{id} with the preset's inputs and no credentials, and decodes the data URI", async () => {
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });
    const [call] = standIn.predictionCalls();
    expect(call!.method).toBe('PUT');
    const id = /^\/predictions\/([a-z2-7]{26})$/.exec(call!.url)?.[1];
    expect(id).toBeDefined();
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.headers['content-type']).toBe('application/json');
    const body = call!.json as { id: string; input: Record<string, unknown> };
    expect(body.id).toBe(id);
    expect(Object.keys(body.input).sort()).toEqual(
      ['garment_images', 'output_format', 'output_quality', 'person_image', 'preserve_input_size'].sort(),
    );
    expect(out.image.length).toBeGreaterThan(100);
  });

  it('uses the input names COG_INPUTS gives (a model that is none of the presets), category in its words', async () => {
    const own = await startCogStandIn({
      person: 'model_image',
      garment: 'garment_image',
      list: false,
      category: 'category',
    });
    try {
      const e = engine(
        {
          preset: undefined,
          inputs: {
            person: 'model_image',
            garment: 'garment_image',
            garmentList: false,
            category: 'category',
            categories: { upper_body: 'tops', lower_body: 'bottoms', dresses: 'one-pieces' },
            extra: { seed: 42 },
          },
        },
        {},
        own.url,
      );
      expect(e.categories).toEqual(['upper_body', 'lower_body', 'dresses']);
      await e.tryOn({ person, garment, category: 'dresses' });
      const input = (own.predictionCalls()[0]!.json as { input: Record<string, unknown> }).input;
      expect({ ...input, model_image: 'P', garment_image: 'G' }).toEqual({
        seed: 42,
        model_image: 'P',
        garment_image: 'G',
        category: 'one-pieces',
      });
    } finally {
      await own.close();
    }
  });
});

describe('cog health and answers', () => {
  it('is up while its health check says READY or BUSY, down while it is still starting, failed its setup, or does not answer', async () => {
    const e = engine();
    await e.checkHealth();
    expect(e.health().status).toBe('ok');
    standIn.healthStatus = 'BUSY';
    await e.checkHealth();
    expect(e.health().status).toBe('ok');
    standIn.healthStatus = 'SETUP_FAILED';
    await e.checkHealth();
    expect(e.health()).toMatchObject({ status: 'down', reasons: [expect.stringContaining('SETUP_FAILED')] });
    standIn.healthStatus = 'READY';
    await e.checkHealth();
    expect(e.health().status).toBe('ok');
    const gone = engine({}, {}, 'http://127.0.0.1:9');
    await gone.checkHealth();
    expect(gone.health()).toMatchObject({ status: 'down', reasons: [expect.stringContaining('does not answer')] });
    expect(standIn.healthCalls().length).toBe(4);
  });

  it('retries while every slot is busy (409) with the same prediction id, then succeeds', async () => {
    standIn.enqueue({ kind: 'http', status: 409 }, { kind: 'http', status: 409 });
    await engine().tryOn({ person, garment, category: 'upper_body' });
    const urls = standIn.predictionCalls().map((r) => r.url);
    expect(urls).toHaveLength(3);
    expect(new Set(urls).size).toBe(1);
  });

  it('a safety refusal is a content block; a failed prediction, a 500, a malformed answer, no image or a non-image fail', async () => {
    standIn.enqueue(
      { kind: 'failed', error: 'NSFW content detected in the output' },
      { kind: 'failed', error: 'RuntimeError: CUDA error' },
      { kind: 'http', status: 500 },
      { kind: 'http', status: 500 },
      { kind: 'http', status: 500 },
      { kind: 'http', status: 500 },
      { kind: 'malformed' },
      { kind: 'ok', output: 'none' },
      { kind: 'ok', output: 'not-image' },
    );
    const blocked = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([blocked.code, blocked.message]).toEqual(['CONTENT_BLOCKED', MESSAGES.contentBlocked]);
    const failed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([failed.code, failed.detail]).toEqual(['ENGINE_FAILED', expect.stringContaining('CUDA error')]);
    const error = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([error.code, error.detail]).toEqual(['ENGINE_FAILED', expect.stringContaining('HTTP 500')]);
    const malformed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect(malformed.detail).toContain('not JSON');
    const none = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect(none.message).toBe(HOSTED_ENGINE_MESSAGES.noImage);
    const text = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([text.code, text.detail]).toEqual(['ENGINE_FAILED', expect.stringContaining('not a JPEG, PNG or WEBP')]);
  });

  it('a prediction that hangs past the deadline times out and is cancelled on the server', async () => {
    standIn.enqueue({ kind: 'hang' });
    const err = await failure(engine({}, { deadlineMs: 1_500 }).tryOn({ person, garment, category: 'upper_body' }));
    expect(err.code).toBe('ENGINE_TIMEOUT');
    await expect.poll(() => standIn.cancelCalls().length).toBe(1);
  });
});
