/**
 * A garment refused as worn by the built-in engine (GARMENT_WORN), on SQLite and PostgreSQL: with a
 * hosted engine that dresses from such photos enabled and up (Gemini, on its stand-in), the refusal
 * names it (`alternativeEngine`), and the same try-on on it succeeds, charged once; the refused one
 * was not charged. Without such an engine, or for another refusal, nothing is named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { GarmentWornResponseSchema, MESSAGES, TryOnResponseSchema } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../../test/databases.js';
import { getUser, signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { expectApiError } from '../../test/api-error.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { startGeminiStandIn, type GeminiStandIn } from '../../test/stand-ins/gemini-stand-in.js';
import { createNanoBananaEngine } from '../../engines/nano-banana.js';
import { wornGarmentAlternative } from '../../tryon/alternatives.js';

const GEMINI_KEY = 'AIza-worn-garment-test-0001112';

let gemini: GeminiStandIn;
let PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY });
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
});
afterAll(async () => {
  await gemini?.close();
});

/** The built-in engine (the double, as `local`) refusing a worn garment, and Gemini on its stand-in unless `hosted` is false. */
function engines(hosted = true) {
  const local = createEngineDouble({ id: 'local', failWith: new EngineError('GARMENT_WORN') });
  return {
    engine: local,
    engines: {
      local,
      ...(hosted
        ? {
            'nano-banana': createNanoBananaEngine(
              { apiKey: GEMINI_KEY, baseUrl: gemini.url, model: 'gemini-3.1-flash-image' },
              { deadlineMs: 10_000 },
            ),
          }
        : {}),
    },
  };
}

function tryOn(app: FastifyInstance, cookie: string, userId: string, api: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
      api,
    },
    cookie,
  );
}

describe.each(DATABASE_KINDS)('a garment refused as worn on %s', (kind) => {
  const make = testApps(kind);

  it('names the hosted engine that takes it; the same try-on there succeeds, charged once', async () => {
    const { app, engine } = await make(engines());
    const { cookie, user } = await signIn(app);

    const refused = await tryOn(app, cookie, user.id, 'local');
    expectApiError(refused, 422, 'GARMENT_WORN', {
      message: MESSAGES.garmentWorn,
      extra: { alternativeEngine: { id: 'nano-banana', label: 'Nano Banana (Gemini)' } },
    });
    expect(GarmentWornResponseSchema.parse(refused.json()).alternativeEngine?.id).toBe('nano-banana');
    expect(engine.calls).toHaveLength(1);
    expect((await getUser(app, cookie, user.id)).free_trials_used).toBe(0);

    const callsBefore = gemini.calls().length;
    const hosted = await tryOn(app, cookie, user.id, 'nano-banana');
    expect(hosted.statusCode, hosted.body).toBe(200);
    expect(TryOnResponseSchema.parse(hosted.json())).toMatchObject({ usedFreeTrial: true, tryOnsUsed: 1 });
    expect(gemini.calls().length).toBe(callsBefore + 1);
    expect((await getUser(app, cookie, user.id)).free_trials_used).toBe(1);
  });

  it('names nothing without such an engine, or for another refusal', async () => {
    const alone = await make(engines(false));
    const a = await signIn(alone.app);
    expectApiError(await tryOn(alone.app, a.cookie, a.user.id, 'local'), 422, 'GARMENT_WORN', MESSAGES.garmentWorn);

    const both = await make(engines());
    both.engine.failWith = new EngineError('PERSON_NOT_FOUND');
    const b = await signIn(both.app);
    expectApiError(
      await tryOn(both.app, b.cookie, b.user.id, 'local'),
      422,
      'PERSON_NOT_FOUND',
      MESSAGES.personNotFound,
    );
  });
});

describe('wornGarmentAlternative', () => {
  const listing = (id: string, takesWornGarments: boolean) => ({ id, label: id, categories: [], takesWornGarments });
  const registry = (statuses: Record<string, 'ok' | 'degraded' | 'down'>) => ({
    list: () => [listing('local', false), listing('fal', false), listing('fashn', true), listing('nano-banana', true)],
    status: () =>
      Object.fromEntries(Object.entries(statuses).map(([id, status]) => [id, { status, warmed: status !== 'down' }])),
  });

  it('is the first other engine that takes worn garments and is not down', () => {
    expect(wornGarmentAlternative(registry({ fashn: 'ok', 'nano-banana': 'ok' }), 'local')).toEqual({
      id: 'fashn',
      label: 'fashn',
    });
    // Degraded still answers; down does not.
    expect(wornGarmentAlternative(registry({ fashn: 'down', 'nano-banana': 'degraded' }), 'local')?.id).toBe(
      'nano-banana',
    );
    expect(wornGarmentAlternative(registry({ fashn: 'down', 'nano-banana': 'down' }), 'local')).toBeUndefined();
    // Never the engine that refused.
    expect(wornGarmentAlternative(registry({ fashn: 'down', 'nano-banana': 'ok' }), 'nano-banana')).toBeUndefined();
  });
});
