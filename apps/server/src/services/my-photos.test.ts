/**
 * Kept person photos (My photos) beyond their routes, on SQLite and PostgreSQL: gone with the
 * account (checked in the store), moving with the anonymous → email merge (within the limit),
 * deleted after KEPT_PHOTO_DAYS unused, sealed again after a PHOTO_KEY rotation, and read by a
 * queue worker for a try-on.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import {
  EmailVerifyResponseSchema,
  KeepPhotoResponseSchema,
  ListPhotosResponseSchema,
  MAX_KEPT_PHOTOS,
  TryOnResponseSchema,
  type KeptPhoto,
} from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { sessionCookieOf, signIn, testApps, type TestApp } from '../test/app.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { startSmtpStandIn, type SmtpStandIn } from '../test/stand-ins/smtp-stand-in.js';
import { verifyByEmail } from '../test/email-sign-in.js';
import { expectApiError } from '../test/api-error.js';
import { createEngineDouble, doubleAnalysisOf } from '../test/engine-double.js';
import { redisServerAvailable, startRedis, type TestRedis } from '../test/redis.js';
import { findPhoto, photoFiles } from '../repositories/kept-photos.js';
import { runRetention } from './retention.js';
import { runWorker, type WorkerProcess } from '../tryon/worker.js';

const REDIS = redisServerAvailable();
const KEY_A = 'a'.repeat(40);
const KEY_B = 'b'.repeat(40);

let PHOTOS: Buffer[];
let GARMENT: Buffer;
let smtp: SmtpStandIn;
let redis: TestRedis | undefined;
beforeAll(async () => {
  PHOTOS = await Promise.all(['#c08060', '#608040', '#406080', '#806040'].map((c) => jpeg(480, 640, c)));
  GARMENT = await png(300, 300, '#2040ff');
  smtp = await startSmtpStandIn();
  if (REDIS) redis = await startRedis();
});
afterAll(async () => {
  await smtp.close();
  await redis?.stop();
});

let mailSeq = 0;
const newEmail = () => `keeper.${process.pid}.${++mailSeq}.${Math.random().toString(36).slice(2, 8)}@example.com`;

async function keep(app: FastifyInstance, cookie: string, photo: Buffer): Promise<KeptPhoto> {
  const res = await postMultipart(app, '/api/photos', { photo: { data: photo } }, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return KeepPhotoResponseSchema.parse(res.json()).photo;
}

async function list(app: FastifyInstance, cookie: string) {
  const res = await app.inject({ method: 'GET', url: '/api/photos', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ListPhotosResponseSchema.parse(res.json()).photos;
}

/** Every stored file of the photos' rows, by photo id (read before they go). */
async function filesOf(app: FastifyInstance, ids: string[]): Promise<string[]> {
  const rows = await Promise.all(ids.map((id) => findPhoto(app.db, id)));
  return rows.flatMap((r) => (r ? photoFiles(r) : []));
}

async function stored(app: FastifyInstance, keys: string[]): Promise<string[]> {
  const present = await Promise.all(keys.map(async (k) => ((await app.storage.get(k)) ? k : null)));
  return present.filter((k): k is string => k !== null);
}

function tryOnKept(app: FastifyInstance, cookie: string, userId: string, personPhotoId: string) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      personPhotoId,
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
    },
    cookie,
  );
}

function retention(t: TestApp, rotating = false) {
  return runRetention({
    db: t.app.db,
    storage: t.app.storage,
    clock: () => t.clock.now,
    photos: { vault: t.app.photoVault, keptPhotoDays: t.config.photos.keptPhotoDays, rotating },
  });
}

describe.each(DATABASE_KINDS)('kept photos on %s', (kind) => {
  const build = testApps(kind, () => ({ env: { SMTP_URL: smtp.url } }));

  it('go with the account: rows and sealed files, checked in the store', async () => {
    const { app } = await build();
    const { cookie } = await signIn(app);
    const photos = [await keep(app, cookie, PHOTOS[0]!), await keep(app, cookie, PHOTOS[1]!)];
    const files = await filesOf(
      app,
      photos.map((p) => p.id),
    );
    expect(files).toHaveLength(6);
    expect(await stored(app, files)).toEqual(files);
    const res = await app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(app, files)).toEqual([]);
    expect(await app.db.selectFrom('person_photos').selectAll().execute()).toEqual([]);
  });

  it('move with the merge at email sign-in, the least recently used going past the limit', async () => {
    const { app, clock } = await build();
    const email = newEmail();
    // The account, on one device, keeps three photos.
    const first = await signIn(app);
    const signedIn = await verifyByEmail(app, smtp, email, { cookie: first.cookie });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const accountCookie = sessionCookieOf(signedIn);
    const accountPhotos: KeptPhoto[] = [];
    for (const photo of PHOTOS.slice(0, MAX_KEPT_PHOTOS)) {
      clock.advance(1_000);
      accountPhotos.push(await keep(app, accountCookie, photo));
    }
    // Another device, anonymous, keeps one, then signs in to the same email.
    clock.advance(1_000);
    const second = await signIn(app);
    const newest = await keep(app, second.cookie, PHOTOS[3]!);
    const oldest = accountPhotos[0]!;
    const oldestFiles = await filesOf(app, [oldest.id]);
    const merged = await verifyByEmail(app, smtp, email, { cookie: second.cookie });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(EmailVerifyResponseSchema.parse(merged.json()).merged).toBe(true);
    const cookie = sessionCookieOf(merged);

    // Every device of the account sees the same three: the newest in, the least recently used out.
    const expected = [newest.id, accountPhotos[2]!.id, accountPhotos[1]!.id];
    expect((await list(app, cookie)).map((p) => p.id)).toEqual(expected);
    expect((await list(app, accountCookie)).map((p) => p.id)).toEqual(expected);
    expect(await stored(app, oldestFiles)).toEqual([]);
  });

  it('are deleted after KEPT_PHOTO_DAYS unused; a use keeps them longer', async () => {
    const t = await build({ env: { KEPT_PHOTO_DAYS: '10' } });
    const { app, clock } = t;
    const { cookie, user } = await signIn(app);
    const unused = await keep(app, cookie, PHOTOS[0]!);
    const used = await keep(app, cookie, PHOTOS[1]!);
    const unusedFiles = await filesOf(app, [unused.id]);
    clock.advance(9 * 86_400_000);
    expect((await tryOnKept(app, cookie, user.id, used.id)).statusCode).toBe(200);
    clock.advance(2 * 86_400_000);
    const report = await retention(t);
    expect(report.personPhotosDeleted).toBe(1);
    expect((await list(app, cookie)).map((p) => p.id)).toEqual([used.id]);
    expect(await stored(app, unusedFiles)).toEqual([]);
    // Nothing more to do on a second run.
    expect((await retention(t)).personPhotosDeleted).toBe(0);
  });

  it('are sealed again with a new PHOTO_KEY put first, then open without the old one', async () => {
    const first = await build({ env: { PHOTO_KEY: KEY_A } });
    const { cookie, user } = await signIn(first.app);
    const photo = await keep(first.app, cookie, PHOTOS[0]!);
    const files = await filesOf(first.app, [photo.id]);
    const before = await Promise.all(files.map(async (k) => (await first.app.storage.get(k))!.body));
    const same = { dataDir: first.config.dataDir, databaseUrl: first.config.databaseUrl ?? '' };
    const reuse = (PHOTO_KEY: string) =>
      build({
        dataDir: same.dataDir,
        ...(same.databaseUrl ? { databaseUrl: same.databaseUrl } : {}),
        env: { PHOTO_KEY },
      });

    // Without the key it was sealed with, nothing opens it.
    const stranger = await reuse(KEY_B);
    const lost = await stranger.app.inject({ method: 'GET', url: photo.thumbnailUrl, headers: { cookie } });
    expectApiError(lost, 404, 'NOT_FOUND');
    // (That forgot the photo: keep it again under A for the rotation.)
    const again = await keep(first.app, cookie, PHOTOS[0]!);
    const againFiles = await filesOf(first.app, [again.id]);

    const rotating = await reuse(`${KEY_B},${KEY_A}`);
    const thumb = await rotating.app.inject({ method: 'GET', url: again.thumbnailUrl, headers: { cookie } });
    expect(thumb.statusCode).toBe(200);
    const report = await retention(rotating, true);
    expect(report.personPhotosResealed).toBe(1);
    for (const [i, key] of againFiles.entries()) {
      const now = (await rotating.app.storage.get(key))!.body;
      expect(now.equals(before[i]!)).toBe(false);
    }
    expect((await retention(rotating, true)).personPhotosResealed).toBe(0);

    const onlyB = await reuse(KEY_B);
    const after = await onlyB.app.inject({ method: 'GET', url: again.thumbnailUrl, headers: { cookie } });
    expect(after.statusCode).toBe(200);
    expect((await tryOnKept(onlyB.app, cookie, user.id, again.id)).statusCode).toBe(200);
  });
});

describe.skipIf(!REDIS).each(DATABASE_KINDS)('a kept photo through the queue on %s', (kind) => {
  const build = testApps(kind, {}, { closeAfter: 'each' });
  const workers: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
  });
  let redisDb = 8;

  it('the worker reads the sealed photo and its analysis by its id', async () => {
    const url = `${redis!.url}/${++redisDb % 16}`;
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    await client.flushdb();
    await client.quit();
    const engine = createEngineDouble();
    const t = await build({ engine, env: { REDIS_URL: url } });
    workers.push(await runWorker(t.config, { engines: { [engine.id]: engine } }));
    const { cookie, user } = await signIn(t.app);
    const photo = await keep(t.app, cookie, PHOTOS[0]!);
    const res = await tryOnKept(t.app, cookie, user.id, photo.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(TryOnResponseSchema.parse(res.json()).tryOnsUsed).toBe(1);
    const call = engine.calls.at(-1)!;
    expect(Buffer.from(call.person).equals(Buffer.from(engine.analyses[0]!))).toBe(true);
    expect(call.keptPerson?.key).toBe(photo.id);
    expect(Buffer.from(call.keptPerson!.analysis!).equals(Buffer.from(doubleAnalysisOf(engine.analyses[0]!)))).toBe(
      true,
    );
  });
});
