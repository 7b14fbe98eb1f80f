/**
 * Shoes & accessories and "Make it photo-real", on SQLite and PostgreSQL, with the built-in
 * engine's place taken by the engine double (id `local`) and Gemini's by its stand-in:
 * - accessories are offered per engine, accepted by a hosted engine (the instruction names the
 *   accessory) and refused by the built-in one before anything is charged;
 * - a preview's photos are kept 30 minutes (only with a hosted engine to use them); the rerun is
 *   charged once as a new try-on with its own progress, refused for another user, for a hosted
 *   result, with api=local, and once the photos are gone (time passing and the retention sweep,
 *   deleting the result, deleting the account).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORY_VALUES,
  ERROR_MESSAGES,
  MESSAGES,
  PREVIEW_PHOTOS_KEPT_MINUTES,
  PublicConfigSchema,
  TryOnListResponseSchema,
  TryOnResponseSchema,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, postJson, signIn, testApps, type TestApp } from '../test/app.js';
import { createEngineDouble } from '../test/engine-double.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { startGeminiStandIn, type GeminiStandIn } from '../test/stand-ins/gemini-stand-in.js';
import { createNanoBananaEngine } from '../engines/nano-banana.js';
import { grantCredits } from '../ledger/ledger.js';
import { findTryOn, previewPhotoKeyList, previewPhotosOf } from '../repositories/tryons.js';
import { runRetention } from '../services/retention.js';

const GEMINI_KEY = 'AIza-rerun-test-key-000111222';
const MINUTE_MS = 60_000;

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

/** The built-in engine (the double, as `local`) and, unless `hosted` is false, Gemini on its stand-in. */
function engines(hosted = true) {
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

function tryOn(app: FastifyInstance, cookie: string, userId: string, fields: Record<string, string>) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      userImage: { data: PERSON },
      clothingImage: { data: GARMENT, filename: 'item.png', contentType: 'image/png' },
      userId,
      ...fields,
    },
    cookie,
  );
}

const rerun = (app: FastifyInstance, id: string, body: Record<string, unknown>, cookie?: string) =>
  postJson(app, `/api/tryons/${id}/rerun`, body, cookie);

async function keptFiles(app: FastifyInstance, id: string): Promise<string[]> {
  const row = await findTryOn(app.db, id);
  const keys = row ? previewPhotosOf(row) : undefined;
  return previewPhotoKeyList(keys);
}

async function exists(app: FastifyInstance, key: string): Promise<boolean> {
  return (await app.storage.get(key)) !== null;
}

async function eventsOf(app: FastifyInstance, userId: string) {
  return app.db.selectFrom('credit_events').select(['type', 'amount']).where('user_id', '=', userId).execute();
}

describe.each(DATABASE_KINDS)('shoes & accessories and "Make it photo-real" on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;

  beforeAll(async () => {
    t = await make(engines());
  });

  describe('accessories', () => {
    it('are listed only for the engines that can dress them, after the three seed categories', async () => {
      const cfg = PublicConfigSchema.parse((await t.app.inject({ method: 'GET', url: '/api/config' })).json());
      expect(cfg.engines.map((e) => [e.id, e.categories])).toEqual([
        ['local', CATEGORY_VALUES],
        ['nano-banana', [...CATEGORY_VALUES, 'accessories']],
      ]);
    });

    it('are refused by the built-in engine with a clear message, before anything is charged', async () => {
      const { cookie, user } = await signIn(t.app);
      const calls = t.engine.calls.length;
      const res = await tryOn(t.app, cookie, user.id, { category: 'accessories', api: 'local' });
      expectApiError(res, 400, 'CATEGORY_NOT_OFFERED', MESSAGES.categoryNotOffered);
      expect(t.engine.calls.length).toBe(calls);
      expect((await getUser(t.app, cookie, user.id)).free_trials_used).toBe(0);
      expect(await eventsOf(t.app, user.id)).toEqual([]);
      expect(await t.app.db.selectFrom('tryons').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('are refused before charging even with nothing left to spend (the category comes first)', async () => {
      const { cookie, user } = await signIn(t.app);
      await t.app.db.updateTable('users').set({ free_trials_used: 99 }).where('id', '=', user.id).execute();
      const res = await tryOn(t.app, cookie, user.id, { category: 'accessories', api: 'local' });
      expectApiError(res, 400, 'CATEGORY_NOT_OFFERED');
    });

    it('are dressed by the hosted engine, which is told which accessory to put on, for one free trial', async () => {
      const { cookie, user } = await signIn(t.app);
      const before = gemini.calls().length;
      const res = await tryOn(t.app, cookie, user.id, { category: 'accessories', api: 'nano-banana' });
      expect(res.statusCode, res.body).toBe(200);
      expect(TryOnResponseSchema.parse(res.json()).usedFreeTrial).toBe(true);
      const sent = gemini.calls().slice(before);
      expect(sent).toHaveLength(1);
      const text = JSON.stringify(sent[0]!.json);
      expect(text).toContain('category: shoes and accessories');
      expect(text).toContain('shoes on the feet');
      expect((await getUser(t.app, cookie, user.id)).free_trials_used).toBe(1);
      // a hosted result keeps no photos
      const row = await findTryOn(t.app.db, TryOnResponseSchema.parse(res.json()).tryonId!);
      expect(row).toMatchObject({ category: 'accessories', engine: 'nano-banana', kept_photos: null });
    });
  });

  describe('make it photo-real', () => {
    /** A quick preview of a new user's, paid with a credit (free trials used up; 4 credits left); its id. */
    async function preview(app = t.app) {
      const { cookie, user } = await signIn(app);
      await app.db.updateTable('users').set({ free_trials_used: 99 }).where('id', '=', user.id).execute();
      await grantCredits(app.db, {
        userId: user.id,
        source: 'admin',
        planId: null,
        amount: 5,
        expiresAt: null,
        externalRef: null,
        now: t.clock.now,
      });
      const res = await tryOn(app, cookie, user.id, { category: 'upper_body', api: 'local' });
      expect(res.statusCode, res.body).toBe(200);
      const body = TryOnResponseSchema.parse(res.json());
      return { cookie, user, id: body.tryonId!, first: body };
    }

    it('keeps the preview’s photos 30 minutes, privately, and says so in the answer and the gallery', async () => {
      const { cookie, id, first } = await preview();
      const row = (await findTryOn(t.app.db, id))!;
      expect(first.photosKeptUntil).toBe(row.photos_until);
      expect(row.photos_until).toBe(
        new Date(t.clock.now.getTime() + PREVIEW_PHOTOS_KEPT_MINUTES * MINUTE_MS).toISOString(),
      );
      const files = await keptFiles(t.app, id);
      expect(files).toHaveLength(2);
      for (const key of files) {
        expect(key).toMatch(/^uploads\//);
        expect(await exists(t.app, key)).toBe(true);
      }
      const page = TryOnListResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
      );
      expect(page.items[0]).toMatchObject({ id, engine: 'local', preview: true, photosKeptUntil: row.photos_until });
      // the list names none of their storage keys
      const body = JSON.stringify(page);
      for (const key of files) expect(body).not.toContain(key.slice('uploads/'.length));
    });

    it('re-runs the same try-on on the hosted engine, charged once as a new try-on, with its own progress', async () => {
      const { cookie, user, id, first } = await preview();
      const progressId = '5b0a7a3e-2c55-4a39-9d0e-2b1f1d7a6c01';
      const before = gemini.calls().length;
      const res = await rerun(t.app, id, { api: 'nano-banana', progressId }, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const body = TryOnResponseSchema.parse(res.json());
      expect(body.tryonId).not.toBe(id);
      expect(body.imageUrl).not.toBe(first.imageUrl);
      expect(body.creditsRemaining).toBe(first.creditsRemaining - 1);
      expect(body.tryOnsUsed).toBe(1);
      expect(body.photosKeptUntil).toBeUndefined();
      // the same photos went to the provider
      const sent = gemini.calls().slice(before);
      expect(sent).toHaveLength(1);
      expect(JSON.stringify(sent[0]!.json)).toContain('category: upper body');
      // one spend for the preview, one for the photo-real version: nothing else
      expect((await eventsOf(t.app, user.id)).filter((e) => e.type !== 'grant')).toEqual([
        { type: 'spend', amount: -1 },
        { type: 'spend', amount: -1 },
      ]);
      expect(await findTryOn(t.app.db, body.tryonId!)).toMatchObject({
        engine: 'nano-banana',
        status: 'succeeded',
        category: 'upper_body',
        kept_photos: null,
      });
      // its own progress: the stream's last event for that id is `done`, for its owner only
      const sub = t.app.tryOnProgress.subscribe(progressId, user.id, () => undefined);
      expect(sub.ok && sub.last?.stage).toBe('done');
      if (sub.ok) sub.unsubscribe();
      expect(t.app.tryOnProgress.subscribe(progressId, 'someone-else', () => undefined).ok).toBe(false);
      // the result is served
      expect((await t.app.inject({ method: 'GET', url: body.imageUrl, headers: { cookie } })).statusCode).toBe(200);
    });

    it('is refused for another user, for a hosted result, with api=local or an unknown engine, and charges nothing', async () => {
      const { cookie, user, id } = await preview();
      const other = await signIn(t.app);
      expectApiError(await rerun(t.app, id, { api: 'nano-banana' }, other.cookie), 404, 'NOT_FOUND');
      expectApiError(await rerun(t.app, id, { api: 'nano-banana' }), 401, 'UNAUTHORIZED');
      expectApiError(
        await rerun(t.app, id, { api: 'local' }, cookie),
        400,
        'ENGINE_UNAVAILABLE',
        MESSAGES.rerunNeedsHostedEngine,
      );
      expectApiError(await rerun(t.app, id, { api: 'fashn' }, cookie), 400, 'ENGINE_UNAVAILABLE');
      expectApiError(await rerun(t.app, 'no-such-id', { api: 'nano-banana' }, cookie), 404, 'NOT_FOUND');
      const hosted = TryOnResponseSchema.parse((await rerun(t.app, id, { api: 'nano-banana' }, cookie)).json());
      expectApiError(
        await rerun(t.app, hosted.tryonId!, { api: 'nano-banana' }, cookie),
        409,
        'NOT_RERUNNABLE',
        MESSAGES.notRerunnable,
      );
      expect(await getUser(t.app, other.cookie, other.user.id)).toMatchObject({ credits: 0, free_trials_used: 0 });
      const spends = (await eventsOf(t.app, user.id)).filter((e) => e.type === 'spend');
      expect(spends).toHaveLength(2);
    });

    it('is refused once the photos are gone: 30 minutes later, and after the retention sweep deleted them', async () => {
      const { cookie, user, id } = await preview();
      const files = await keptFiles(t.app, id);
      t.clock.advance(PREVIEW_PHOTOS_KEPT_MINUTES * MINUTE_MS + 1);
      // time alone: the row says they are no longer kept, even before the sweep ran
      expectApiError(await rerun(t.app, id, { api: 'nano-banana' }, cookie), 410, 'PHOTOS_GONE', MESSAGES.photosGone);
      const report = await runRetention({ db: t.app.db, storage: t.app.storage, clock: () => t.clock.now });
      expect(report.previewPhotosDeleted).toBeGreaterThanOrEqual(1);
      for (const key of files) expect(await exists(t.app, key)).toBe(false);
      expect(await findTryOn(t.app.db, id)).toMatchObject({ kept_photos: null, photos_until: null });
      expectApiError(await rerun(t.app, id, { api: 'nano-banana' }, cookie), 410, 'PHOTOS_GONE');
      const page = TryOnListResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
      );
      expect(page.items.find((i) => i.id === id)).toMatchObject({ preview: true, photosKeptUntil: null });
      expect((await eventsOf(t.app, user.id)).filter((e) => e.type === 'spend')).toHaveLength(1);
      expect(ERROR_MESSAGES.PHOTOS_GONE).toBe(MESSAGES.photosGone);
    });

    it('is refused when a kept file went missing before its time, and charges nothing', async () => {
      const { cookie, user, id } = await preview();
      const [person] = await keptFiles(t.app, id);
      await t.app.storage.delete(person!);
      expectApiError(await rerun(t.app, id, { api: 'nano-banana' }, cookie), 410, 'PHOTOS_GONE');
      expect((await eventsOf(t.app, user.id)).filter((e) => e.type === 'spend')).toHaveLength(1);
    });

    it('deletes the kept photos at once with the result, and with the account', async () => {
      const one = await preview();
      const oneFiles = await keptFiles(t.app, one.id);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/tryons/${one.id}`,
        headers: { cookie: one.cookie },
      });
      expect(del.statusCode, del.body).toBe(200);
      for (const key of oneFiles) expect(await exists(t.app, key)).toBe(false);

      const two = await preview();
      const twoFiles = await keptFiles(t.app, two.id);
      const gone = await t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: two.cookie } });
      expect(gone.statusCode, gone.body).toBe(200);
      for (const key of twoFiles) expect(await exists(t.app, key)).toBe(false);
    });

    it('keeps no photos when no hosted engine is configured', async () => {
      const { app } = await make(engines(false));
      const { cookie, user } = await signIn(app);
      const res = await tryOn(app, cookie, user.id, { category: 'upper_body' });
      expect(res.statusCode, res.body).toBe(200);
      const id = TryOnResponseSchema.parse(res.json()).tryonId!;
      expect(await findTryOn(app.db, id)).toMatchObject({ kept_photos: null, photos_until: null });
      const page = TryOnListResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
      );
      expect(page.items[0]).toMatchObject({ preview: true, photosKeptUntil: null });
      expectApiError(await rerun(app, id, { api: 'nano-banana' }, cookie), 400, 'ENGINE_UNAVAILABLE');
      // nothing was written under uploads/ for it
      const uploads = path.join(app.config.dataDir, 'files', 'uploads');
      expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
    });
  });
});
