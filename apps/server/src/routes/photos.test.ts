/**
 * My photos on SQLite and PostgreSQL: keeping a person photo (checked once, sealed in storage),
 * listing, its thumbnail, deleting it, the limit of three, someone else's id, and a try-on by
 * `personPhotoId` (charged once, stored, given the kept analysis). Deletion with the account, the
 * merge at sign-in and retention are `services/my-photos.test.ts`.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KeepPhotoResponseSchema,
  ListPhotosResponseSchema,
  MESSAGES,
  TryOnListResponseSchema,
  TryOnResponseSchema,
  type KeptPhoto,
} from '@aidressup/contract';
import { EngineError, type TryOnInput } from '@aidressup/engine';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, signIn, testApps } from '../test/app.js';
import { jpeg, png, postMultipart, type FilePart } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { createEngineDouble, doubleAnalysisOf } from '../test/engine-double.js';
import { findKeptPhoto, photoFiles } from '../repositories/kept-photos.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';

let PERSON: Buffer;
let OTHER_PERSON: Buffer;
let GARMENT: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  OTHER_PERSON = await jpeg(500, 700, '#608040');
  GARMENT = await png(300, 300, '#2040ff');
});

async function keep(app: FastifyInstance, cookie: string, photo: Buffer = PERSON) {
  return postMultipart(app, '/api/photos', { photo: { data: photo } }, cookie);
}

async function kept(app: FastifyInstance, cookie: string, photo?: Buffer): Promise<KeptPhoto> {
  const res = await keep(app, cookie, photo);
  expect(res.statusCode, res.body).toBe(200);
  return KeepPhotoResponseSchema.parse(res.json()).photo;
}

async function list(app: FastifyInstance, cookie: string) {
  const res = await app.inject({ method: 'GET', url: '/api/photos', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ListPhotosResponseSchema.parse(res.json()).photos;
}

function tryOnWith(app: FastifyInstance, cookie: string, userId: string, fields: Record<string, string | FilePart>) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      ...fields,
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

/** What the engine was told of a kept photo, its analysis as a Buffer (to compare bytes). */
function keptOf(call: TryOnInput) {
  const k = call.keptPerson;
  return k && { key: k.key, ...(k.analysis ? { analysis: Buffer.from(k.analysis) } : {}) };
}

describe.each(DATABASE_KINDS)('My photos on %s', (kind) => {
  const build = testApps(kind);

  it('keeps a photo sealed: listed with its thumbnail, and the stored bytes are not the photo’s', async () => {
    const { app, engine } = await build();
    const { cookie, user } = await signIn(app);
    expect(await list(app, cookie)).toEqual([]);
    const photo = await kept(app, cookie);
    expect(photo).toMatchObject({ thumbnailUrl: `/api/photos/${photo.id}/thumbnail` });
    expect(photo.lastUsedAt).toBe(photo.createdAt);
    // Checked once, by the engine that analyses person photos.
    expect(engine.analyses).toHaveLength(1);
    expect(await list(app, cookie)).toEqual([photo]);

    const thumb = await app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: { cookie } });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['cache-control']).toBe('private, no-store');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(512);

    // In the store: three sealed files, none of which holds the photo, the thumbnail or the analysis.
    const row = (await findKeptPhoto(app.db, user.id, photo.id))!;
    const files = photoFiles(row);
    expect(files).toHaveLength(3);
    const normalised = engine.analyses[0]!;
    for (const key of files) {
      const stored = await app.storage.get(key);
      expect(stored, key).not.toBeNull();
      const bytes = stored!.body;
      expect(bytes.subarray(0, 5).toString()).toBe('AIDS1');
      expect(bytes.includes(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);
      expect(bytes.includes(Buffer.from(normalised.subarray(100, 164)))).toBe(false);
      expect(bytes.includes(Buffer.from(thumb.rawPayload.subarray(100, 164)))).toBe(false);
      expect(bytes.includes(Buffer.from('analysis of'))).toBe(false);
    }
    // The vault opens them: the photo is the normalised photo the engine checked.
    expect((await app.photoVault.get(row.photo_key))!.body.equals(Buffer.from(normalised))).toBe(true);
    // Sealed to its own key: the photo's bytes stored under another name do not open.
    const sealed = (await app.storage.get(row.photo_key))!.body;
    await app.storage.put('photos/copied.photo', sealed, 'application/octet-stream');
    expect(await app.photoVault.get('photos/copied.photo')).toBeNull();
  });

  it('refuses a photo in which the engine finds no single person: nothing is kept', async () => {
    const engine = createEngineDouble({ refusePerson: new EngineError('PERSON_NOT_FOUND') });
    const { app } = await build({ engine });
    const { cookie } = await signIn(app);
    expectApiError(await keep(app, cookie), 422, 'PERSON_NOT_FOUND', { message: MESSAGES.personNotFound });
    engine.refusePerson = new EngineError('MULTIPLE_PEOPLE');
    expectApiError(await keep(app, cookie), 422, 'MULTIPLE_PEOPLE', { message: MESSAGES.multiplePeople });
    expect(await list(app, cookie)).toEqual([]);
    const rows = await app.db.selectFrom('person_photos').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('refuses what is not a photo, or none at all, with the upload’s own errors', async () => {
    const { app, engine } = await build();
    const { cookie } = await signIn(app);
    expectApiError(await keep(app, cookie, Buffer.from('not an image at all')), 415, 'UNSUPPORTED_FORMAT');
    expectApiError(await keep(app, cookie, await jpeg(200, 200)), 422, 'IMAGE_TOO_SMALL');
    expectApiError(await postMultipart(app, '/api/photos', { note: 'no file' }, cookie), 400, 'MISSING_FILE', {
      message: MESSAGES.missingKeptPhoto,
    });
    expectApiError(await postMultipart(app, '/api/photos', { photo: { data: PERSON } }), 401, 'UNAUTHORIZED');
    expect(engine.analyses).toHaveLength(0);
  });

  it('keeps at most three, even when several are kept at once', async () => {
    const { app } = await build();
    const { cookie } = await signIn(app);
    await kept(app, cookie);
    await kept(app, cookie, OTHER_PERSON);
    // Two at once for the last place: one is kept, the other refused.
    const [a, b] = await Promise.all([keep(app, cookie), keep(app, cookie, OTHER_PERSON)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expectApiError(refused, 409, 'PHOTO_LIMIT', { message: MESSAGES.photoLimit });
    expectApiError(await keep(app, cookie), 409, 'PHOTO_LIMIT', { message: MESSAGES.photoLimit });
    expect(await list(app, cookie)).toHaveLength(3);
  });

  it('deletes a kept photo and its files; someone else’s or an unknown id is not found', async () => {
    const { app } = await build();
    const owner = await signIn(app);
    const stranger = await signIn(app);
    const photo = await kept(app, owner.cookie);
    const files = photoFiles((await findKeptPhoto(app.db, owner.user.id, photo.id))!);

    for (const [method, url] of [
      ['DELETE', `/api/photos/${photo.id}`],
      ['GET', photo.thumbnailUrl],
      ['DELETE', '/api/photos/unknown-id'],
      ['DELETE', '/api/photos/not%20an%20id'],
    ] as const) {
      expectApiError(await app.inject({ method, url, headers: { cookie: stranger.cookie } }), 404, 'NOT_FOUND');
    }
    expect(await list(app, owner.cookie)).toHaveLength(1);

    const res = await app.inject({
      method: 'DELETE',
      url: `/api/photos/${photo.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await list(app, owner.cookie)).toEqual([]);
    for (const key of files) expect(await app.storage.get(key), key).toBeNull();
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/photos/${photo.id}`,
      headers: { cookie: owner.cookie },
    });
    expectApiError(again, 404, 'NOT_FOUND');
    expectApiError(
      await app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: { cookie: owner.cookie } }),
      404,
      'NOT_FOUND',
    );
  });

  it('tries on with a kept photo instead of an upload: charged once, stored, the kept analysis given', async () => {
    const { app, engine, clock } = await build();
    const { cookie, user } = await signIn(app);
    const photo = await kept(app, cookie);
    clock.advance(60_000);
    const res = await tryOnWith(app, cookie, user.id, { personPhotoId: photo.id });
    expect(res.statusCode, res.body).toBe(200);
    const body = TryOnResponseSchema.parse(res.json());
    expect(body).toMatchObject({ usedFreeTrial: true, tryOnsUsed: 1, freeTrialsUsed: 1 });
    expect((await getUser(app, cookie, user.id)).free_trials_used).toBe(1);
    expect((await app.inject({ method: 'GET', url: body.imageUrl })).statusCode).toBe(200);
    const gallery = TryOnListResponseSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/tryons', headers: { cookie } })).json(),
    );
    expect(gallery.items.map((i) => i.id)).toEqual([body.tryonId]);

    // The engine got the kept photo (the normalised one it checked) and the analysis made then.
    const call = engine.calls.at(-1)!;
    expect(Buffer.from(call.person).equals(Buffer.from(engine.analyses[0]!))).toBe(true);
    expect(keptOf(call)).toEqual({ key: photo.id, analysis: Buffer.from(doubleAnalysisOf(engine.analyses[0]!)) });
    // Used now: it stays kept another KEPT_PHOTO_DAYS.
    expect((await list(app, cookie))[0]!.lastUsedAt).toBe(clock.now.toISOString());
  });

  it('makes the analysis again when it is missing, and keeps the new one', async () => {
    const { app, engine } = await build();
    const { cookie, user } = await signIn(app);
    const photo = await kept(app, cookie);
    const row = (await findKeptPhoto(app.db, user.id, photo.id))!;
    await app.storage.delete(row.analysis_key!);
    expect((await tryOnWith(app, cookie, user.id, { personPhotoId: photo.id })).statusCode).toBe(200);
    expect(keptOf(engine.calls.at(-1)!)).toEqual({ key: photo.id });
    const made = doubleAnalysisOf(engine.calls.at(-1)!.person);
    expect((await app.photoVault.get(row.analysis_key!))!.body.equals(Buffer.from(made))).toBe(true);
    expect((await tryOnWith(app, cookie, user.id, { personPhotoId: photo.id })).statusCode).toBe(200);
    expect(keptOf(engine.calls.at(-1)!)).toEqual({ key: photo.id, analysis: Buffer.from(made) });
  });

  it('refuses both a photo and a kept photo (400), and someone else’s or an unknown kept photo (404), uncharged', async () => {
    const { app, engine } = await build();
    const owner = await signIn(app);
    const stranger = await signIn(app);
    const photo = await kept(app, owner.cookie);
    const both = await tryOnWith(app, owner.cookie, owner.user.id, {
      personPhotoId: photo.id,
      userImage: { data: PERSON },
    });
    expectApiError(both, 400, 'VALIDATION_ERROR', { message: MESSAGES.personPhotoTwice });
    for (const id of [photo.id, 'no-such-photo']) {
      const res = await tryOnWith(app, stranger.cookie, stranger.user.id, { personPhotoId: id });
      expectApiError(res, 404, 'NOT_FOUND', { message: MESSAGES.keptPhotoNotFound });
    }
    expectApiError(await tryOnWith(app, owner.cookie, owner.user.id, {}), 400, 'MISSING_FILE', {
      message: MESSAGES.missingPersonImage,
    });
    expect(engine.calls).toHaveLength(0);
    expect((await getUser(app, owner.cookie, owner.user.id)).free_trials_used).toBe(0);
    expect((await getUser(app, stranger.cookie, stranger.user.id)).free_trials_used).toBe(0);
  });

  it('a kept photo whose files are gone is forgotten: 404, and no longer listed', async () => {
    const { app } = await build();
    const { cookie, user } = await signIn(app);
    const photo = await kept(app, cookie);
    const row = (await findKeptPhoto(app.db, user.id, photo.id))!;
    await app.storage.delete(row.photo_key);
    const res = await tryOnWith(app, cookie, user.id, { personPhotoId: photo.id });
    expectApiError(res, 404, 'NOT_FOUND', { message: MESSAGES.keptPhotoNotFound });
    expect(await list(app, cookie)).toEqual([]);
    expect(await app.storage.get(row.thumbnail_key)).toBeNull();
  });

  it('are never shown to operators: no operator route serves or names a kept photo', async () => {
    const mailer = memoryMailer();
    const operatorEmail = newEmail('operator');
    const { app } = await build({ mailer, env: { ADMIN_EMAILS: operatorEmail } });
    const shopper = await signIn(app);
    const photo = await kept(app, shopper.cookie);
    const row = (await findKeptPhoto(app.db, shopper.user.id, photo.id))!;
    const operator = await signInByEmail(app, mailer, operatorEmail);
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/admin') && /photo/i.test(p))).toEqual([]);
    const account = await app.inject({
      method: 'GET',
      url: `/api/admin/users/${shopper.user.id}`,
      headers: { cookie: operator.cookie },
    });
    expect(account.statusCode, account.body).toBe(200);
    for (const secret of [photo.id, row.photo_key, row.thumbnail_key, 'thumbnail'])
      expect(account.body).not.toContain(secret);
    // The operator's own session does not reach the shopper's photo either.
    const thumb = await app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: { cookie: operator.cookie } });
    expectApiError(thumb, 404, 'NOT_FOUND');
  });
});
