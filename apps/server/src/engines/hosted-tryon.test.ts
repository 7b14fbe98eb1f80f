/**
 * The hosted engines inside the whole product: enabled by configuration alone (the
 * registry loads them), called through POST /api/process-image against their stand-ins.
 * A success stores the result and spends a free trial; a refusal or a timeout costs nothing.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CATEGORY_VALUES,
  ENGINE_ESTIMATE_SECONDS,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  PublicConfigSchema,
  TryOnResponseSchema,
  type ErrorCode,
} from '@aidressup/contract';
import { signIn, testApps } from '../test/app.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';
import { postMultipart } from '../test/images.js';
import { startFalStandIn, type FalStandIn } from '../test/stand-ins/fal-stand-in.js';
import { startFashnStandIn, type FashnStandIn } from '../test/stand-ins/fashn-stand-in.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { syntheticPhoto } from '../test/stand-ins/test-photos.js';
import { expectApiError } from '../test/api-error.js';
import type { NanoBananaEngine } from './nano-banana.js';

const GEMINI_KEY = 'AIza-integration-key-000111222';
const FASHN_KEY = 'fa-integration-key-333444555';
const FAL_KEY = 'fal-integration:key-666777888';

let gemini: GeminiStandIn;
let fashn: FashnStandIn;
let fal: FalStandIn;
let app: FastifyInstance;
/** Apps on the hosted engines configuration enables (no engine double), closed after the file. */
const OPERATOR = newEmail('operator');
const mailer = memoryMailer();
const make = testApps('sqlite', {
  engines: 'configured',
  mailer,
  env: { ENGINE_DEADLINE_MS: '6000', ADMIN_EMAILS: OPERATOR },
});

/** The operator's health report (the public one says states only). */
async function operatorHealth(target: FastifyInstance) {
  const op = await signInByEmail(target, mailer, OPERATOR);
  return target.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: op.cookie } });
}
let person: Buffer;
let garment: Buffer;

type Trouble = 'blocked' | 'hang';

/** Each provider: how its stand-in refuses the next try-on for safety reasons, or hangs. */
const PROVIDERS: Array<{ id: string; answers: Record<Trouble, () => void> }> = [
  {
    id: 'nano-banana',
    answers: {
      blocked: () => gemini.enqueue({ kind: 'finish', reason: 'IMAGE_SAFETY' }),
      hang: () => gemini.enqueue({ kind: 'hang' }),
    },
  },
  {
    id: 'fashn',
    answers: {
      blocked: () => fashn.enqueueRun({ kind: 'accept', outcome: { kind: 'failed', name: 'ContentModerationError' } }),
      hang: () => fashn.enqueueRun({ kind: 'hang' }),
    },
  },
  {
    id: 'fal',
    answers: {
      blocked: () =>
        fal.enqueueSubmit({
          kind: 'accept',
          outcome: { kind: 'model-error', type: 'content_policy_violation', msg: 'flagged by a content checker' },
        }),
      hang: () => fal.enqueueSubmit({ kind: 'hang' }),
    },
  },
];

/** What each trouble comes to in the product, whichever the provider: the answer, and nothing spent. */
const TROUBLES: Array<{ trouble: Trouble; name: string; status: number; code: ErrorCode; message: string }> = [
  {
    trouble: 'blocked',
    name: 'a safety refusal answers with the safety message',
    status: 422,
    code: 'CONTENT_BLOCKED',
    message: MESSAGES.contentBlocked,
  },
  {
    trouble: 'hang',
    name: 'a provider that hangs past the deadline times out',
    status: 504,
    code: 'ENGINE_TIMEOUT',
    message: MESSAGES.engineTimeout,
  },
];

beforeAll(async () => {
  [gemini, fashn, fal] = await Promise.all([
    startGeminiStandIn({ apiKey: GEMINI_KEY }),
    startFashnStandIn({ apiKey: FASHN_KEY }),
    startFalStandIn({ key: FAL_KEY }),
  ]);
  [person, garment] = await Promise.all([
    syntheticPhoto(900, 1350, { seed: 31 }),
    syntheticPhoto(800, 800, { seed: 32 }),
  ]);
  ({ app } = await make({
    env: {
      GEMINI_API_KEY: GEMINI_KEY,
      GEMINI_BASE_URL: gemini.url,
      FASHN_API_KEY: FASHN_KEY,
      FASHN_BASE_URL: fashn.url,
      FAL_KEY,
      FAL_BASE_URL: fal.url,
    },
  }));
});

afterAll(async () => {
  await Promise.all([gemini?.close(), fashn?.close(), fal?.close()]);
});

function tryOn(cookie: string, userId: string, api: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
      clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
      category: 'upper_body',
      userId,
      api,
    },
    cookie,
  );
}

async function trialsUsed(cookie: string, userId: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/user/${userId}`, headers: { cookie } });
  return (res.json() as { user: { free_trials_used: number } }).user.free_trials_used;
}

describe('hosted engines through the try-on pipeline', () => {
  it('lists the configured hosted engines, nano-banana first as the default, without any key', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/config' });
    const cfg = PublicConfigSchema.parse(res.json());
    expect(cfg.defaultEngine).toBe('nano-banana');
    expect(cfg.engines).toEqual(
      expect.arrayContaining([
        {
          id: 'nano-banana',
          label: 'Nano Banana (Gemini)',
          kind: 'hosted',
          estimateSeconds: ENGINE_ESTIMATE_SECONDS.hosted,
          // Gemini is told which accessory to put on (the instruction names it).
          categories: [...CATEGORY_VALUES, 'accessories'],
          status: 'ok',
        },
        // FASHN's try-on v1.6 and the fal endpoints dress clothing only.
        {
          id: 'fashn',
          label: 'FASHN',
          kind: 'hosted',
          estimateSeconds: ENGINE_ESTIMATE_SECONDS.hosted,
          categories: CATEGORY_VALUES,
          status: 'ok',
        },
        {
          id: 'fal',
          label: 'fal.ai',
          kind: 'hosted',
          estimateSeconds: ENGINE_ESTIMATE_SECONDS.hosted,
          categories: CATEGORY_VALUES,
          status: 'ok',
        },
      ]),
    );
    for (const key of [GEMINI_KEY, FASHN_KEY, FAL_KEY]) expect(res.body).not.toContain(key);
  });

  it('refuses shoes & accessories on FASHN v1.6 and fal before anything is sent or charged', async () => {
    const { cookie, user } = await signIn(app);
    const calls = [fashn.runCalls().length, fal.requests.length];
    for (const api of ['fashn', 'fal']) {
      const res = await postMultipart(
        app,
        '/api/process-image',
        {
          userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
          clothingImage: { data: garment, filename: 'bag.jpg', contentType: 'image/jpeg' },
          category: 'accessories',
          userId: user.id,
          api,
        },
        cookie,
      );
      expectApiError(res, 400, 'CATEGORY_NOT_OFFERED', MESSAGES.categoryNotOffered);
    }
    expect([fashn.runCalls().length, fal.requests.length]).toEqual(calls);
    expect(await trialsUsed(cookie, user.id)).toBe(0);
  });

  describe.each(PROVIDERS)('$id', ({ id, answers }) => {
    it('a success stores the result and spends one free trial', async () => {
      const { cookie, user } = await signIn(app);
      const res = await tryOn(cookie, user.id, id);
      expect(res.statusCode).toBe(200);
      const body = TryOnResponseSchema.parse(res.json());
      expect(body.usedFreeTrial).toBe(true);
      expect(await trialsUsed(cookie, user.id)).toBe(1);

      const image = await app.inject({ method: 'GET', url: body.imageUrl });
      expect(image.statusCode).toBe(200);
      const meta = await sharp(image.rawPayload).metadata();
      // the stored result keeps the person photo's 2:3 proportions
      expect(meta.width / meta.height).toBeCloseTo(2 / 3, 2);
      const rows = await app.db
        .selectFrom('tryons')
        .select(['status', 'engine'])
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([{ status: 'succeeded', engine: id }]);
    });

    it.each(TROUBLES)('$name and costs nothing', async ({ trouble, status, code, message }) => {
      const { cookie, user } = await signIn(app);
      answers[trouble]();
      const res = await tryOn(cookie, user.id, id);
      expectApiError(res, status, code, message);
      expect(await trialsUsed(cookie, user.id)).toBe(0);
      const rows = await app.db.selectFrom('tryons').select('status').where('user_id', '=', user.id).execute();
      expect(rows).toEqual([{ status: 'failed' }]);
      for (const key of [GEMINI_KEY, FASHN_KEY, FAL_KEY]) expect(res.body).not.toContain(key);
    });

    it('reports its own recent successes and failures to operators, without calling the provider', async () => {
      const callsBefore = [gemini, fashn, fal].map((s) => s.requests.length);
      const res = await operatorHealth(app);
      const engine = (res.json() as { checks: { engines: Record<string, Record<string, unknown>> } }).checks.engines[
        id
      ]!;
      // the three try-ons above: a success, a safety refusal (the service worked) and a timeout
      expect(engine).toMatchObject({ configured: true, recentCalls: 3 });
      expect(engine.lastSuccessAt).toEqual(expect.any(String));
      expect(engine.lastFailureAt).toEqual(expect.any(String));
      expect(engine.errorRate).toBeCloseTo(1 / 3, 2);
      for (const key of [GEMINI_KEY, FASHN_KEY, FAL_KEY]) expect(res.body).not.toContain(key);
      const own = { 'nano-banana': gemini, fashn, fal }[id]!;
      expect(own.requests.length).toBeGreaterThan(0);
      expect([gemini, fashn, fal].map((s) => s.requests.length)).toEqual(callsBefore);
    });
  });
});

describe('a whole outfit on a hosted engine', () => {
  function outfit(cookie: string, userId: string, api: string) {
    return postMultipart(
      app,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
        lowerClothingImage: { data: bottom, filename: 'trousers.jpg', contentType: 'image/jpeg' },
        category: 'upper_body',
        userId,
        api,
      },
      cookie,
    );
  }
  let bottom: Buffer;
  beforeAll(async () => {
    bottom = await syntheticPhoto(700, 900, { seed: 33 });
  });

  it('FASHN: two runs in order, the bottom on the person, then the top on that result; two free trials', async () => {
    const { cookie, user } = await signIn(app);
    const before = fashn.runCalls().length;
    const res = await outfit(cookie, user.id, 'fashn');
    expect(res.statusCode).toBe(200);
    expect(TryOnResponseSchema.parse(res.json())).toMatchObject({
      usedFreeTrial: true,
      tryOnsUsed: 2,
      freeTrialsUsed: 2,
    });
    expect(await trialsUsed(cookie, user.id)).toBe(2);
    const runs = fashn
      .runCalls()
      .slice(before)
      .map((c) => (c.json as { inputs: { category: string; model_image: string; garment_image: string } }).inputs);
    expect(runs.map((r) => r.category)).toEqual(['bottoms', 'tops']);
    // The top goes on the first run's result, not on the original photo, and each run has its own garment.
    expect(runs[1]!.model_image).not.toBe(runs[0]!.model_image);
    expect(runs[1]!.garment_image).not.toBe(runs[0]!.garment_image);
  });

  it('Gemini: both garments in one generateContent call; a refusal gives both try-ons back', async () => {
    const { cookie, user } = await signIn(app);
    const before = gemini.calls().length;
    const res = await outfit(cookie, user.id, 'nano-banana');
    expect(res.statusCode).toBe(200);
    expect(gemini.calls().length - before).toBe(1);
    expect(TryOnResponseSchema.parse(res.json())).toMatchObject({ tryOnsUsed: 2, freeTrialsUsed: 2 });

    const other = await signIn(app);
    gemini.enqueue({ kind: 'finish', reason: 'IMAGE_SAFETY' });
    const refused = await outfit(other.cookie, other.user.id, 'nano-banana');
    expectApiError(refused, 422, 'CONTENT_BLOCKED');
    expect(await trialsUsed(other.cookie, other.user.id)).toBe(0);
  });

  it('Gemini: an answer without an image for the whole outfit falls back to two calls, charged as one outfit', async () => {
    const { cookie, user } = await signIn(app);
    const before = gemini.calls().length;
    gemini.enqueue({ kind: 'text-only' });
    const res = await outfit(cookie, user.id, 'nano-banana');
    expect(res.statusCode).toBe(200);
    expect(gemini.calls().length - before).toBe(3);
    expect(await trialsUsed(cookie, user.id)).toBe(2);
  });
});

describe('a retired Gemini model', () => {
  const RETIRED = 'gemini-2.5-flash-image';
  let retired: FastifyInstance;
  beforeAll(async () => {
    ({ app: retired } = await make({
      env: {
        GEMINI_API_KEY: GEMINI_KEY,
        GEMINI_BASE_URL: gemini.url,
        // shut down on 2 October 2026; the stand-in neither serves nor lists it
        GEMINI_MODEL: RETIRED,
      },
    }));
  });

  function tryOnRetired(cookie: string, userId: string) {
    return postMultipart(
      retired,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
        category: 'upper_body',
        userId,
        api: 'nano-banana',
      },
      cookie,
    );
  }

  it('the start-up listing reports it in health: nano-banana degraded, with the reason for operators', async () => {
    await retired.engines.warmAll();
    const publicAnswer = await retired.inject({ method: 'GET', url: '/api/health' });
    expect(publicAnswer.json()).toMatchObject({
      status: 'degraded',
      checks: { engines: { 'nano-banana': { status: 'degraded' } } },
    });
    expect(publicAnswer.body).not.toContain(RETIRED);
    const res = await operatorHealth(retired);
    const body = res.json() as { status: string; checks: { engines: Record<string, Record<string, unknown>> } };
    expect(body.status).toBe('degraded');
    expect(body.checks.engines['nano-banana']).toMatchObject({
      status: 'degraded',
      reasons: [
        `the Gemini model "${RETIRED}" is not in the Gemini API model list (retired or unknown): set GEMINI_MODEL to "gemini-3.1-flash-image" (or list it first in GEMINI_FALLBACK_MODELS)`,
      ],
    });
    expect(res.body).not.toContain(GEMINI_KEY);
  });

  it('a 404 is retried once on the listed replacement inside the same try-on: one success, charged once', async () => {
    const { cookie, user } = await signIn(retired);
    const before = gemini.calls().length;
    const res = await tryOnRetired(cookie, user.id);
    expect(res.statusCode).toBe(200);
    expect(
      gemini
        .calls()
        .slice(before)
        .map((c) => c.url),
    ).toEqual([`/v1beta/models/${RETIRED}:generateContent`, '/v1beta/models/gemini-3.1-flash-image:generateContent']);
    expect(TryOnResponseSchema.parse(res.json())).toMatchObject({ usedFreeTrial: true, tryOnsUsed: 1 });
    const me = await retired.inject({ method: 'GET', url: `/api/auth/user/${user.id}`, headers: { cookie } });
    expect((me.json() as { user: { free_trials_used: number } }).user.free_trials_used).toBe(1);
    const rows = await retired.db
      .selectFrom('tryons')
      .select(['status', 'engine'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toEqual([{ status: 'succeeded', engine: 'nano-banana' }]);
  });

  it('with no replacement listed it answers 502 with a clear message and costs nothing', async () => {
    const engine = (await retired.engines.get('nano-banana')) as NanoBananaEngine;
    gemini.listing = [];
    try {
      await engine.refreshModels();
      const { cookie, user } = await signIn(retired);
      const before = gemini.calls().length;
      const res = await tryOnRetired(cookie, user.id);
      expectApiError(res, 502, 'ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.unavailable);
      expect(gemini.calls().length - before).toBe(1);
      const me = await retired.inject({ method: 'GET', url: `/api/auth/user/${user.id}`, headers: { cookie } });
      expect((me.json() as { user: { free_trials_used: number } }).user.free_trials_used).toBe(0);
    } finally {
      gemini.reset();
    }
  });
});

describe('FASHN Try-On Max', () => {
  it('is selected by FASHN_MODEL; /api/config gives its own estimate, and its runs use tryon-max', async () => {
    const { app: max } = await make({
      env: { FASHN_API_KEY: FASHN_KEY, FASHN_BASE_URL: fashn.url, FASHN_MODEL: 'tryon-max' },
    });
    const cfg = PublicConfigSchema.parse((await max.inject({ method: 'GET', url: '/api/config' })).json());
    expect(cfg.engines.find((e) => e.id === 'fashn')).toEqual({
      id: 'fashn',
      label: 'FASHN',
      kind: 'hosted',
      estimateSeconds: { min: 50, max: 120 },
      // Try-On Max also dresses shoes, bags, hats and jewellery.
      categories: [...CATEGORY_VALUES, 'accessories'],
      status: 'ok',
    });
    const { cookie, user } = await signIn(max);
    const before = fashn.runCalls().length;
    const progressId = '0f3c1a52-7d4e-4b6a-9c2d-5e8f7a6b1c40';
    const res = await postMultipart(
      max,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shirt.jpg', contentType: 'image/jpeg' },
        category: 'upper_body',
        userId: user.id,
        api: 'fashn',
        progressId,
      },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    const runs = fashn.runCalls().slice(before);
    expect(runs.map((r) => (r.json as { model_name: string }).model_name)).toEqual(['tryon-max']);
    // Its live progress carries its own estimate, not the general hosted 30–60 s.
    const sub = max.tryOnProgress.subscribe(progressId, user.id, () => undefined);
    expect(sub.ok && sub.last).toMatchObject({ stage: 'done', estimateSeconds: { min: 50, max: 120 } });
    if (sub.ok) sub.unsubscribe();

    // Shoes & accessories on Try-On Max: the item goes as the product image, with no category.
    const shoes = await postMultipart(
      max,
      '/api/process-image',
      {
        userImage: { data: person, filename: 'me.jpg', contentType: 'image/jpeg' },
        clothingImage: { data: garment, filename: 'shoes.jpg', contentType: 'image/jpeg' },
        category: 'accessories',
        userId: user.id,
        api: 'fashn',
      },
      cookie,
    );
    expect(shoes.statusCode, shoes.body).toBe(200);
    const inputs = (fashn.runCalls().at(-1)!.json as { inputs: Record<string, unknown> }).inputs;
    expect(inputs.product_image).toEqual(expect.stringMatching(/^data:image\/jpeg;base64,/));
    expect(inputs).not.toHaveProperty('category');
  });
});
