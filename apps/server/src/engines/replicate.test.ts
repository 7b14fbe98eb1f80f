import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTED_ENGINE_MESSAGES, MESSAGES, REPLICATE_DATA_URI_MAX, TRYON_CATEGORY_VALUES } from '@aidressup/contract';
import type { EngineError } from '@aidressup/engine';
import {
  IDM_VTON_VERSION,
  startReplicateStandIn,
  type ReplicateStandIn,
} from '../test/stand-ins/replicate-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import type { HostedEngineDeps } from './hosted-call.js';
import { createReplicateEngine, type ReplicateEngineConfig } from './replicate.js';

const TOKEN = 'r8_stand-in-token-0123456789abcdef';
let standIn: ReplicateStandIn;
let person: Buffer;
let garment: Buffer;
let bottom: Buffer;

function engine(over: Partial<ReplicateEngineConfig> = {}, deps: HostedEngineDeps = {}) {
  return createReplicateEngine(
    {
      token: TOKEN,
      baseUrl: standIn.url,
      model: 'prunaai/p-image-try-on',
      version: undefined,
      preset: 'p-image-try-on',
      ...over,
    },
    {
      retry: { baseMs: 5, maxMs: 20 },
      pollIntervalMs: 10,
      maxPollIntervalMs: 30,
      deadlineMs: 10_000,
      // The delivery CDN's stand-in is on another port of 127.0.0.1: trusted as an operator's mirror would be.
      outputOrigins: [new URL(standIn.cdnUrl).origin],
      ...deps,
    },
  );
}
const idmVton = () => engine({ model: undefined, version: IDM_VTON_VERSION, preset: 'idm-vton' });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('should fail'),
    (e: EngineError) => e,
  );
const decode = (uri: string) => Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');

beforeAll(async () => {
  standIn = await startReplicateStandIn({ token: TOKEN });
  [person, garment, bottom] = await Promise.all([
    syntheticPhoto(3000, 4000, { seed: 51 }),
    syntheticPhoto(1500, 1500, { seed: 52 }),
    syntheticPhoto(1000, 1400, { seed: 53 }),
  ]);
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => standIn.reset());

describe('replicate request', () => {
  it("runs the official model with Prefer: wait and Cancel-After, Pruna's input names, data URIs under 1 MB, and reads the output file without the token", async () => {
    const out = await engine().tryOn({ person, garment, category: 'upper_body' });
    const [call] = standIn.createCalls();
    expect(call!.url).toBe('/v1/models/prunaai/p-image-try-on/predictions');
    expect(call!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers.prefer).toMatch(/^wait=(9|10)$/);
    expect(call!.headers['cancel-after']).toMatch(/^(9|10)s$/);
    const body = call!.json as { input: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['input']);
    const input = body.input as { person_image: string; garment_images: string[] } & Record<string, unknown>;
    expect({ ...input, person_image: 'P', garment_images: input.garment_images.map(() => 'G') }).toEqual({
      output_format: 'jpg',
      output_quality: 95,
      preserve_input_size: true,
      person_image: 'P',
      garment_images: ['G'],
    });
    for (const uri of [input.person_image, ...input.garment_images]) {
      expect(uri).toMatch(/^data:image\/jpeg;base64,/);
      expect(uri.length).toBeLessThanOrEqual(REPLICATE_DATA_URI_MAX);
    }
    const p = await sharp(decode(input.person_image)).metadata();
    expect(Math.max(p.width!, p.height!)).toBeLessThanOrEqual(1280);
    // Done within the wait: nothing polled; the file came from the CDN origin, no token sent there.
    expect(standIn.getCalls()).toHaveLength(0);
    expect(standIn.fileCalls()).toHaveLength(1);
    expect(standIn.fileCalls()[0]!.headers.authorization).toBeUndefined();
    const r = await sharp(out.image).metadata();
    expect(r.width! / r.height!).toBeCloseTo(3 / 4, 2);
  });

  it('dresses a whole outfit in one call: both garments in garment_images, shoes and accessories offered', async () => {
    const e = engine();
    expect(e.outfit).toBe(true);
    expect(e.categories).toEqual(TRYON_CATEGORY_VALUES);
    await e.tryOn({ person, garment, lowerGarment: bottom, category: 'upper_body' });
    expect(standIn.createCalls()).toHaveLength(1);
    expect(
      (standIn.createCalls()[0]!.json as { input: { garment_images: string[] } }).input.garment_images,
    ).toHaveLength(2);
  });

  it('runs IDM-VTON by version with its own input names and our category', async () => {
    const e = idmVton();
    expect(e.outfit).toBe(false);
    expect(e.categories).toEqual(['upper_body', 'lower_body', 'dresses']);
    await e.tryOn({ person, garment, category: 'lower_body' });
    const call = standIn.createCalls()[0]!;
    expect(call.url).toBe('/v1/predictions');
    const body = call.json as { version: string; input: Record<string, unknown> };
    expect(body.version).toBe(IDM_VTON_VERSION);
    expect({ ...body.input, human_img: 'P', garm_img: 'G' }).toEqual({
      garment_des: '',
      crop: false,
      steps: 30,
      human_img: 'P',
      garm_img: 'G',
      category: 'lower_body',
    });
  });

  it('polls urls.get with the token while the prediction is starting or processing', async () => {
    standIn.enqueue({ kind: 'accept', outcome: { kind: 'succeeded', polls: 3, output: 'list' } });
    await engine().tryOn({ person, garment, category: 'dresses' });
    const polls = standIn.getCalls();
    expect(polls).toHaveLength(3);
    const id = standIn.predictionIds.at(-1);
    expect(polls.every((r) => r.url === `/v1/predictions/${id}` && r.headers.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    );
  });
});

describe('replicate answers', () => {
  it("a prediction Replicate's safety checker stopped (E005, flagged as sensitive) is a content refusal; any other failure is not", async () => {
    standIn.enqueue(
      {
        kind: 'accept',
        outcome: {
          kind: 'failed',
          error: 'The input or output was flagged as sensitive. Please try again with different inputs. (E005)',
        },
      },
      { kind: 'accept', outcome: { kind: 'failed', polls: 1, error: 'CUDA out of memory' } },
    );
    const blocked = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([blocked.code, blocked.message]).toEqual(['CONTENT_BLOCKED', MESSAGES.contentBlocked]);
    const failed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([failed.code, failed.message]).toEqual(['ENGINE_FAILED', MESSAGES.engineFailed]);
    expect(failed.detail).toContain('CUDA out of memory');
  });

  it('retries 429 and 5xx on create, then succeeds; a lasting 429 is busy, a lasting 503 a failure', async () => {
    standIn.enqueue({ kind: 'http', status: 429 }, { kind: 'http', status: 502 });
    await engine().tryOn({ person, garment, category: 'upper_body' });
    expect(standIn.createCalls()).toHaveLength(3);
    standIn.fallback = { kind: 'http', status: 429 };
    const busy = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([busy.code, busy.message]).toEqual(['ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy]);
    standIn.fallback = { kind: 'http', status: 503 };
    const down = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([down.code, down.message]).toEqual(['ENGINE_FAILED', MESSAGES.engineFailed]);
  });

  it('a prediction still running at the deadline times out and is cancelled; a hang times out; a malformed answer fails', async () => {
    standIn.enqueue(
      { kind: 'accept', outcome: { kind: 'processing-forever' } },
      { kind: 'hang' },
      { kind: 'malformed' },
    );
    const stuck = await failure(engine({}, { deadlineMs: 1_500 }).tryOn({ person, garment, category: 'upper_body' }));
    expect(stuck.code).toBe('ENGINE_TIMEOUT');
    await expect.poll(() => standIn.cancelCalls().length).toBe(1);
    const hung = await failure(engine({}, { deadlineMs: 1_500 }).tryOn({ person, garment, category: 'upper_body' }));
    expect(hung.code).toBe('ENGINE_TIMEOUT');
    const malformed = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect(malformed.code).toBe('ENGINE_FAILED');
    expect(malformed.detail).toContain('not JSON');
  });

  it('an output file larger than an upload may be, one that is not an image, or none at all fails', async () => {
    standIn.enqueue(
      { kind: 'accept', outcome: { kind: 'succeeded', output: 'too-large' } },
      { kind: 'accept', outcome: { kind: 'succeeded', output: 'not-image' } },
      { kind: 'accept', outcome: { kind: 'succeeded', output: 'none' } },
    );
    const big = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([big.code, big.detail]).toEqual(['ENGINE_FAILED', expect.stringContaining('larger than an upload may be')]);
    const page = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([page.code, page.detail]).toEqual(['ENGINE_FAILED', expect.stringContaining('is not an image')]);
    const none = await failure(engine().tryOn({ person, garment, category: 'upper_body' }));
    expect([none.code, none.message]).toEqual(['ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.noImage]);
  });

  it('a wrong token fails without the token in the error', async () => {
    const err = await failure(
      engine({ token: 'r8_wrong-token-value-9999' }).tryOn({ person, garment, category: 'upper_body' }),
    );
    expect(err.code).toBe('ENGINE_FAILED');
    expect(err.detail).toContain('HTTP 401');
    expect(`${err.message} ${err.detail}`).not.toContain('r8_wrong-token-value-9999');
  });
});
