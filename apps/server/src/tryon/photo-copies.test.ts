/**
 * No person photo is ever stored in the clear, and a kept photo (My photos) leaves no copy behind
 * when it is deleted. The whole store is scanned after keep → try-on (a quick preview, whose photos
 * are kept for "Make it photo-real" because a hosted engine is enabled) → delete: on local disk
 * (SQLite and PostgreSQL) and on S3 (the s3rver stand-in). Every stored object that is not a result
 * must fail to decode as an image, and after the deletion nothing of the kept photo remains.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeepPhotoResponseSchema, TryOnResponseSchema } from '@aidressup/contract';
import { DATABASE_KINDS } from '../test/databases.js';
import { postJson, signIn, testApps, type TestApp } from '../test/app.js';
import { createEngineDouble } from '../test/engine-double.js';
import { jpeg, png, postMultipart } from '../test/images.js';
import { expectApiError } from '../test/api-error.js';
import { startS3StandIn, type S3StandIn } from '../test/stand-ins/s3-stand-in.js';
import { findTryOn } from '../repositories/tryons.js';

let PERSON: Buffer;
let GARMENT: Buffer;
let s3: S3StandIn;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  s3 = await startS3StandIn({ bucket: 'aidressup-photo-copies' });
});
afterAll(async () => {
  await s3.close();
});

/** The built-in engine (the double as `local`) and a hosted one (another double), so previews keep their photos. */
const engines = () => ({
  engines: { local: createEngineDouble({ id: 'local' }), 'nano-banana': createEngineDouble({ id: 'nano-banana' }) },
});

function walk(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** Every key in the store, by the way the store itself lists them (its folder, or the bucket). */
function storedKeys(t: TestApp, onS3: boolean): string[] {
  return onS3 ? s3.keys() : walk(path.join(t.config.dataDir, 'files'));
}

/** The stored objects outside `results/` that decode as an image: none may. */
async function readableImagesOutsideResults(t: TestApp, onS3: boolean): Promise<string[]> {
  const readable: string[] = [];
  for (const key of storedKeys(t, onS3).filter((k) => !k.startsWith('results/'))) {
    const object = await t.app.storage.get(key);
    if (!object) continue;
    const decodes = await sharp(object.body)
      .metadata()
      .then((m) => Boolean(m.width))
      .catch(() => false);
    if (decodes || object.body.includes(PERSON.subarray(0, 64))) readable.push(key);
  }
  return readable;
}

function tryOn(app: FastifyInstance, cookie: string, userId: string, person: Record<string, unknown>) {
  return postMultipart(
    app,
    '/api/process-image',
    {
      ...person,
      clothingImage: { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' },
      category: 'upper_body',
      userId,
      api: 'local',
    },
    cookie,
  );
}

const stores = [
  ...DATABASE_KINDS.map((kind) => ({ name: `local disk on ${kind}`, kind, onS3: false })),
  { name: 'S3 on sqlite', kind: 'sqlite' as const, onS3: true },
];

describe.each(stores)('photo copies in storage, $name', ({ kind, onS3 }) => {
  const build = testApps(kind, () => ({ ...engines(), env: onS3 ? s3.env : {} }));

  it('keeps previews’ photos sealed, copies no kept photo, and leaves nothing of it once deleted', async () => {
    const t = await build();
    const { app } = t;
    const shopper = await signIn(app);
    expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'weekly' }, shopper.cookie)).statusCode).toBe(
      200,
    );
    const keep = await postMultipart(app, '/api/photos', { photo: { data: PERSON } }, shopper.cookie);
    expect(keep.statusCode, keep.body).toBe(200);
    const photo = KeepPhotoResponseSchema.parse(keep.json()).photo;

    // A preview from the kept photo, and one from an uploaded photo: both keep their photos 30 minutes.
    const fromKept = await tryOn(app, shopper.cookie, shopper.user.id, { personPhotoId: photo.id });
    expect(fromKept.statusCode, fromKept.body).toBe(200);
    const keptPreview = TryOnResponseSchema.parse(fromKept.json());
    const keptId = keptPreview.tryonId ?? '';
    expect(keptPreview.photosKeptUntil).toBeTruthy();
    const fromUpload = await tryOn(app, shopper.cookie, shopper.user.id, { userImage: { data: PERSON } });
    expect(fromUpload.statusCode, fromUpload.body).toBe(200);
    const uploadPreview = TryOnResponseSchema.parse(fromUpload.json());
    const uploadId = uploadPreview.tryonId ?? '';
    expect([keptId, uploadId].every((id) => id.length > 0)).toBe(true);
    expect(uploadPreview.photosKeptUntil).toBeTruthy();

    // The kept photo's preview names it; it holds no copy of it.
    const row = await findTryOn(app.db, keptId);
    expect(JSON.parse(row!.kept_photos!)).toMatchObject({ personPhotoId: photo.id });
    expect(JSON.parse(row!.kept_photos!)).not.toHaveProperty('person');

    const keys = storedKeys(t, onS3);
    expect(keys.some((k) => k.startsWith('photos/'))).toBe(true);
    expect(keys.filter((k) => k.startsWith('uploads/preview-'))).toHaveLength(3); // 2 garments, 1 person
    expect(await readableImagesOutsideResults(t, onS3)).toEqual([]);

    // Both are made photo-real from what was kept.
    for (const id of [keptId, uploadId]) {
      const real = await postJson(app, `/api/tryons/${id}/rerun`, { api: 'nano-banana' }, shopper.cookie);
      expect(real.statusCode, real.body).toBe(200);
    }
    expect(await readableImagesOutsideResults(t, onS3)).toEqual([]);

    // Deleting the kept photo takes every copy of it at once, and the preview that named it ends.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/photos/${photo.id}`,
      headers: { cookie: shopper.cookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = storedKeys(t, onS3);
    expect(after.filter((k) => k.startsWith('photos/'))).toEqual([]);
    expect(after.filter((k) => k.startsWith('uploads/preview-'))).toHaveLength(2); // the uploaded preview's
    expect((await findTryOn(app.db, keptId))?.kept_photos).toBeNull();
    expectApiError(
      await postJson(app, `/api/tryons/${keptId}/rerun`, { api: 'nano-banana' }, shopper.cookie),
      410,
      'PHOTOS_GONE',
    );
    expect(await readableImagesOutsideResults(t, onS3)).toEqual([]);

    // The account's deletion takes the rest.
    const gone = await app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie: shopper.cookie } });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(storedKeys(t, onS3).filter((k) => !k.startsWith('.'))).toEqual([]);
  });
});
