/**
 * The photo checks before anything is charged: a photo too small for a try-on, a file that is no
 * photo at all (a PDF renamed .jpg), and the engine's refusal of a garment someone is wearing. None
 * of them spends a free trial or a credit, on SQLite and on PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { MESSAGES, MIN_GARMENT_PHOTO_SIDE, MIN_PERSON_PHOTO_SIDE, TryOnResponseSchema } from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../../test/databases.js';
import { getUser, postJson, signIn, testApps } from '../../test/app.js';
import { createEngineDouble } from '../../test/engine-double.js';
import { expectApiError } from '../../test/api-error.js';
import { jpeg, png, postMultipart, type FilePart } from '../../test/images.js';

/** The first bytes of a real PDF, named and typed as a JPEG photo. */
const RENAMED_PDF: FilePart = {
  data: Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n', 'latin1'),
  filename: 'holiday.jpg',
  contentType: 'image/jpeg',
};

function post(
  app: FastifyInstance,
  cookie: string,
  userId: string,
  parts: { userImage: FilePart; clothingImage: FilePart },
) {
  return postMultipart(app, '/api/process-image', { ...parts, category: 'upper_body', userId }, cookie);
}

describe.each(DATABASE_KINDS)('photo checks before charging on %s', (kind) => {
  const make = testApps(kind);

  it('refuses a tiny person photo, a tiny garment photo and a renamed PDF: no trial spent, engine never called', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    const person = { data: await jpeg(480, 640) };
    const garment = { data: await png(300, 300), filename: 'shirt.png', contentType: 'image/png' };

    // The photo the issue was found with: 40 × 53 pixels.
    const tiny = await post(app, cookie, user.id, { userImage: { data: await jpeg(40, 53) }, clothingImage: garment });
    expectApiError(tiny, 422, 'IMAGE_TOO_SMALL', {
      message: MESSAGES.personPhotoTooSmall,
      extra: { field: 'userImage' },
    });

    const tinyGarment = await post(app, cookie, user.id, {
      userImage: person,
      clothingImage: { data: await png(120, 300), contentType: 'image/png' },
    });
    expectApiError(tinyGarment, 422, 'IMAGE_TOO_SMALL', {
      message: MESSAGES.clothingPhotoTooSmall,
      extra: { field: 'clothingImage' },
    });

    const pdf = await post(app, cookie, user.id, { userImage: RENAMED_PDF, clothingImage: garment });
    expectApiError(pdf, 415, 'UNSUPPORTED_FORMAT', { message: MESSAGES.notAPhoto, extra: { field: 'userImage' } });

    expect(engine.calls).toHaveLength(0);
    const after = await getUser(app, cookie, user.id);
    expect([after.free_trials_used, after.credits]).toEqual([0, 0]);
  });

  it('the limits are the shorter side, at the contract’s sizes: one pixel less is refused, the size itself runs', async () => {
    const { app, engine } = await make();
    const { cookie, user } = await signIn(app);
    const garment = { data: await png(MIN_GARMENT_PHOTO_SIDE, 400), contentType: 'image/png' };

    const below = await post(app, cookie, user.id, {
      userImage: { data: await jpeg(2000, MIN_PERSON_PHOTO_SIDE - 1) },
      clothingImage: garment,
    });
    expectApiError(below, 422, 'IMAGE_TOO_SMALL', {
      message: MESSAGES.personPhotoTooSmall,
      extra: { field: 'userImage' },
    });
    const garmentBelow = await post(app, cookie, user.id, {
      userImage: { data: await jpeg(MIN_PERSON_PHOTO_SIDE, 400) },
      clothingImage: { data: await png(400, MIN_GARMENT_PHOTO_SIDE - 1), contentType: 'image/png' },
    });
    expect(garmentBelow.json()).toMatchObject({ code: 'IMAGE_TOO_SMALL', field: 'clothingImage' });
    expect(engine.calls).toHaveLength(0);

    const atLimit = await post(app, cookie, user.id, {
      userImage: { data: await jpeg(MIN_PERSON_PHOTO_SIDE, 400) },
      clothingImage: garment,
    });
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    expect(TryOnResponseSchema.parse(atLimit.json()).usedFreeTrial).toBe(true);
    expect(engine.calls).toHaveLength(1);
  });

  it('a customer with credits keeps every credit when a photo is refused', async () => {
    const engine = createEngineDouble({ failWith: new EngineError('GARMENT_WORN') });
    const { app } = await make({ engine, env: { FREE_TRIALS_LIMIT: '0' } });
    const { cookie, user } = await signIn(app);
    expect((await postJson(app, '/api/billing/demo/checkout', { planId: 'weekly' }, cookie)).statusCode).toBe(200);
    const before = await getUser(app, cookie, user.id);
    expect(before.credits).toBe(20);
    const garment = { data: await png(300, 300), contentType: 'image/png' };

    const tiny = await post(app, cookie, user.id, { userImage: { data: await jpeg(40, 53) }, clothingImage: garment });
    expect(tiny.json()).toMatchObject({ code: 'IMAGE_TOO_SMALL' });
    const pdf = await post(app, cookie, user.id, {
      userImage: { data: await jpeg(480, 640) },
      clothingImage: RENAMED_PDF,
    });
    expect(pdf.json()).toMatchObject({ code: 'UNSUPPORTED_FORMAT', error: MESSAGES.notAPhoto });
    expect(engine.calls).toHaveLength(0);

    // The engine's refusal of a studio photo (a garment worn by a model): answered with what to use instead, refunded.
    const worn = await post(app, cookie, user.id, {
      userImage: { data: await jpeg(480, 640) },
      clothingImage: garment,
    });
    expectApiError(worn, 422, 'GARMENT_WORN', MESSAGES.garmentWorn);
    expect(engine.calls).toHaveLength(1);

    const after = await getUser(app, cookie, user.id);
    expect([after.credits, after.free_trials_used]).toEqual([20, 0]);
  });
});
