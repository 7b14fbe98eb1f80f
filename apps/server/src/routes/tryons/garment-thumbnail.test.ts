/**
 * GET /api/tryons/:id/garment on SQLite and PostgreSQL: a small picture of the garment a quick
 * preview was made from, read from its sealed copy, for the preview's owner only and only while its
 * photos are kept (the list names it then, and not after); the engine double stands in for the
 * built-in engine and Gemini's stand-in is the hosted engine that makes previews keep their photos.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_PHOTOS_KEPT_MINUTES, TryOnListResponseSchema, TryOnResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../../test/databases.js';
import { signIn, testApps, type TestApp } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { jpeg, png, postMultipart } from '../../test/images.js';
import { expectApiError } from '../../test/api-error.js';
import { startGeminiStandIn, type GeminiStandIn } from '../../test/stand-ins/gemini-stand-in.js';
import { createNanoBananaEngine } from '../../engines/nano-banana.js';
import { findTryOn, previewPhotosOf } from '../../repositories/tryons.js';
import { GARMENT_THUMBNAIL_PX } from '../../services/gallery.js';

const GEMINI_KEY = 'AIza-garment-thumb-key-000111222';
const MINUTE_MS = 60_000;

let gemini: GeminiStandIn;
let PERSON: Buffer;
let GARMENT: Buffer;

beforeAll(async () => {
  gemini = await startGeminiStandIn({ apiKey: GEMINI_KEY });
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(600, 400, '#2040ff');
});
afterAll(async () => {
  await gemini?.close();
});

function engines(hosted: boolean) {
  const local = createEngineDouble({ id: 'local' });
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

async function preview(app: FastifyInstance) {
  const { cookie, user } = await signIn(app);
  const res = await postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'item.png', contentType: 'image/png' },
      userId: user.id,
      category: 'upper_body',
      api: 'local',
    },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return { cookie, id: TryOnResponseSchema.parse(res.json()).tryonId! };
}

async function listed(app: FastifyInstance, cookie: string, id: string) {
  const page = TryOnListResponseSchema.parse(
    (await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
  );
  return page.items.find((i) => i.id === id);
}

const garment = (app: FastifyInstance, id: string, cookie?: string) =>
  app.inject({ method: 'GET', url: `/api/tryons/${id}/garment`, ...(cookie ? { headers: { cookie } } : {}) });

describe.each(DATABASE_KINDS)('a preview’s garment thumbnail on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;

  beforeAll(async () => {
    t = await make(engines(true));
  });

  it('is listed with the preview and served small to its owner, never cached', async () => {
    const { cookie, id } = await preview(t.app);
    const item = await listed(t.app, cookie, id);
    expect(item).toMatchObject({ preview: true, garmentUrl: `/api/tryons/${id}/garment` });
    const res = await garment(t.app, id, cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(GARMENT_THUMBNAIL_PX);
    // The garment's own colour, not the result's.
    const { data } = await sharp(res.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const mid = Math.floor(data.length / 6) * 3;
    expect(data[mid + 2]).toBeGreaterThan(200);
    expect(data[mid]).toBeLessThan(80);
    // Its stored copy is sealed: the bytes in storage are no image at all.
    const key = previewPhotosOf((await findTryOn(t.app.db, id))!)!.garment;
    const stored = await t.app.storage.get(key);
    expect(stored).not.toBeNull();
    await expect(sharp(stored!.body).metadata()).rejects.toThrow();
  });

  it('is not found for another user, without a session, or for an unknown id', async () => {
    const { id } = await preview(t.app);
    const other = await signIn(t.app);
    expectApiError(await garment(t.app, id, other.cookie), 404, 'NOT_FOUND');
    expect((await garment(t.app, id)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await garment(t.app, id)).statusCode).toBeLessThan(500);
    expectApiError(await garment(t.app, 'no-such-tryon-id', other.cookie), 404, 'NOT_FOUND');
    expectApiError(await garment(t.app, 'bad id!', other.cookie), 404, 'NOT_FOUND');
  });

  it('is gone from the list and the route once the photos’ time is over', async () => {
    const { cookie, id } = await preview(t.app);
    expect((await garment(t.app, id, cookie)).statusCode).toBe(200);
    t.clock.advance(PREVIEW_PHOTOS_KEPT_MINUTES * MINUTE_MS + 1);
    expect(await listed(t.app, cookie, id)).toMatchObject({ photosKeptUntil: null, garmentUrl: null });
    expectApiError(await garment(t.app, id, cookie), 404, 'NOT_FOUND');
  });

  it('is not found when the sealed copy went missing', async () => {
    const { cookie, id } = await preview(t.app);
    const key = previewPhotosOf((await findTryOn(t.app.db, id))!)!.garment;
    await t.app.storage.delete(key);
    expectApiError(await garment(t.app, id, cookie), 404, 'NOT_FOUND');
  });

  it('is never listed when no hosted engine makes previews keep their photos', async () => {
    const { app } = await make(engines(false));
    const { cookie, id } = await preview(app);
    expect(await listed(app, cookie, id)).toMatchObject({ preview: true, garmentUrl: null });
    expectApiError(await garment(app, id, cookie), 404, 'NOT_FOUND');
  });
});
