import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTED_ENGINE_MESSAGES, MESSAGES } from '@aidressup/contract';
import type { EngineError } from '@aidressup/engine';
import { startVertexStandIn, type VertexStandIn } from '../test/stand-ins/vertex-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import type { HostedEngineDeps } from './hosted-call.js';
import { createVertexEngine, type VertexEngineConfig } from './vertex-tryon.js';

let standIn: VertexStandIn;
let person: Buffer;
let garment: Buffer;
let logs: string[];

function config(over: Partial<VertexEngineConfig> = {}): VertexEngineConfig {
  return {
    project: standIn.project,
    location: standIn.location,
    model: standIn.model,
    baseUrl: standIn.url,
    credentials: standIn.key,
    safetySetting: 'block_medium_and_above',
    personGeneration: 'allow_adult',
    ...over,
  };
}

function engine(over: Partial<VertexEngineConfig> = {}, deps: HostedEngineDeps = {}) {
  const logger = {
    info: (obj: Record<string, unknown>, msg?: string) => logs.push(`${msg} ${JSON.stringify(obj)}`),
    warn: (obj: Record<string, unknown>, msg?: string) => logs.push(`${msg} ${JSON.stringify(obj)}`),
  };
  return createVertexEngine(config(over), { retry: { baseMs: 5, maxMs: 20 }, deadlineMs: 10_000, logger, ...deps });
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('should fail'),
    (e: EngineError) => e,
  );

beforeAll(async () => {
  standIn = await startVertexStandIn();
  // A 12 MP phone photo and a garment photo.
  [person, garment] = await Promise.all([
    syntheticPhoto(3000, 4000, { seed: 41 }),
    syntheticPhoto(1200, 1200, { seed: 42 }),
  ]);
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  logs = [];
});

describe('vertex-tryon request', () => {
  it("asks the key's token_uri for a token by the JWT flow, then posts the documented predict body with it", async () => {
    const e = engine();
    const out = await e.tryOn({ person, garment, category: 'upper_body' });

    // The service account's assertion, signed with its key and checked by the stand-in.
    expect(standIn.tokenCalls()).toHaveLength(1);
    const form = new URLSearchParams(standIn.tokenCalls()[0]!.body.toString('utf8'));
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(standIn.assertions[0]).toMatchObject({
      iss: standIn.key.client_email,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });

    const [call] = standIn.predictCalls();
    expect(call!.url).toBe(
      `/v1/projects/${standIn.project}/locations/us-central1/publishers/google/models/virtual-try-on-001:predict`,
    );
    expect(call!.headers.authorization).toMatch(/^Bearer ya29\.stand-in-/);
    expect(call!.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = call!.json as {
      instances: Array<{
        personImage: { image: { bytesBase64Encoded: string } };
        productImages: Array<{ image: { bytesBase64Encoded: string } }>;
      }>;
      parameters: Record<string, unknown>;
    };
    expect(Object.keys(body)).toEqual(['instances', 'parameters']);
    expect(body.parameters).toEqual({
      sampleCount: 1,
      safetySetting: 'block_medium_and_above',
      personGeneration: 'allow_adult',
    });
    expect(Object.keys(body.instances[0]!)).toEqual(['personImage', 'productImages']);
    const sent = [
      body.instances[0]!.personImage.image.bytesBase64Encoded,
      body.instances[0]!.productImages[0]!.image.bytesBase64Encoded,
    ].map((b) => Buffer.from(b, 'base64'));
    // Each photo far under Google's 10 MB per image, the whole body too.
    for (const img of sent) expect(img.length).toBeLessThan(2 * 1024 * 1024);
    expect(call!.body.length).toBeLessThan(5 * 1024 * 1024);
    const [p, g] = await Promise.all(sent.map((b) => sharp(b).metadata()));
    expect([p!.format, p!.width, p!.height, p!.exif]).toEqual(['jpeg', 1152, 1536, undefined]);
    expect([g!.width, g!.height]).toEqual([1200, 1200]);

    // The result keeps the person photo's proportions.
    const r = await sharp(out.image).metadata();
    expect(r.width! / r.height!).toBeCloseTo(3 / 4, 2);

    // A second try-on reuses the cached token.
    await e.tryOn({ person, garment, category: 'dresses' });
    expect(standIn.tokenCalls()).toHaveLength(1);
    expect(standIn.predictCalls()).toHaveLength(2);
  });

  it('sends the safety and person-generation settings and the steps configuration names', async () => {
    await engine({ safetySetting: 'block_only_high', personGeneration: 'allow_all', baseSteps: 48 }).tryOn({
      person,
      garment,
      category: 'lower_body',
    });
    expect((standIn.predictCalls()[0]!.json as { parameters: unknown }).parameters).toEqual({
      sampleCount: 1,
      safetySetting: 'block_only_high',
      personGeneration: 'allow_all',
      baseSteps: 48,
    });
  });

  it('offers clothing only: shoes and accessories are refused before anything is sent', async () => {
    const e = engine();
    expect(e.categories).toEqual(['upper_body', 'lower_body', 'dresses']);
    const err = await failure(e.tryOn({ person, garment, category: 'accessories' }));
    expect(err.message).toBe(MESSAGES.categoryNotOffered);
    expect(standIn.predictCalls()).toHaveLength(0);
  });
});

describe('vertex-tryon answers', () => {
  it('an image the Responsible AI filters withheld, or no prediction at all, is a content refusal', async () => {
    standIn.enqueue(
      { kind: 'filtered', reason: 'Your current safety filter threshold filtered out the generated image.' },
      { kind: 'no-predictions' },
    );
    for (const detail of ['filtered out the generated image', 'no prediction returned']) {
      const err = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
      expect([err.code, err.message]).toEqual(['CONTENT_BLOCKED', MESSAGES.contentBlocked]);
      expect(err.detail).toContain(detail);
    }
  });

  it('retries 429 (quota) and 503, then succeeds; a lasting 429 is a busy failure, a lasting 500 a failure', async () => {
    standIn.enqueue({ kind: 'http', status: 429 }, { kind: 'http', status: 503 });
    await engine().tryOn({ person, garment, category: 'upper_body' });
    expect(standIn.predictCalls()).toHaveLength(3);

    standIn.fallback = { kind: 'http', status: 429 };
    const busy = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([busy.code, busy.message]).toEqual(['ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy]);
    expect(busy.detail).toContain('RESOURCE_EXHAUSTED');

    standIn.fallback = { kind: 'http', status: 500 };
    const failed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([failed.code, failed.message]).toEqual(['ENGINE_FAILED', MESSAGES.engineFailed]);
  });

  it('a hang times out at the deadline; a malformed answer fails; a model that is not served is unavailable', async () => {
    standIn.enqueue({ kind: 'hang' }, { kind: 'malformed' });
    const timeout = await failure(engine({}, { deadlineMs: 1_500 }).tryOn({ person, garment, category: 'upper_body' }));
    expect(timeout.code).toBe('ENGINE_TIMEOUT');
    await expect.poll(() => standIn.predictCalls()[0]?.abortedByClient).toBe(true);
    const malformed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect(malformed.code).toBe('ENGINE_FAILED');
    expect(malformed.detail).toContain('not JSON');
    const gone = await failure(
      engine({ model: 'virtual-try-on-preview-08-04' }).tryOn({ person, garment, category: 'upper_body' }),
    );
    expect([gone.code, gone.message]).toEqual(['ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable]);
  });

  it('a key that gets no token makes the engine down, and its private key is never in an error or a log line', async () => {
    standIn.refuseTokens = true;
    const e = engine();
    await e.warm!();
    expect(e.health().status).toBe('down');
    expect(e.health().reasons?.[0]).toContain('no access token');
    const err = await failure(e.tryOn({ person, garment, category: 'upper_body' }));
    expect([err.code, err.message]).toEqual(['ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable]);
    expect(standIn.predictCalls()).toHaveLength(0);
    const keyBody = standIn.key.private_key.split('\n')[1]!;
    expect(`${err.message} ${err.detail} ${logs.join(' ')}`).not.toContain(keyBody);
  });
});
