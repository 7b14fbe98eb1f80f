/**
 * The message for a file that is not a JPEG, PNG or WEBP, on every route that takes a photo
 * (`POST /api/process-image`, `POST /api/garments/classify`, `POST /api/embed/tryon`), on SQLite
 * and PostgreSQL: a type that is not allowed, by MIME type or by extension (a `text/plain` file, a
 * `.txt`, a `.gif`), gets the specification's 'Unsupported format. Use JPG, PNG or WEBP.'; a file
 * that claims an allowed type and is not one (a PDF renamed `holiday.jpg`) gets 'This file is not
 * a photo we can read…'. Whether a file is taken stays the bytes' decision: a real JPEG sent as
 * `application/octet-stream` without an extension is taken. Nothing is charged for a refusal.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DATABASE_KINDS } from '../test/databases.js';
import { getUser, signIn, testApps, type TestApp } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';
import { gif, jpeg, png, postMultipart, type FilePart } from '../test/images.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';
import { merchantWithToken, postEmbedTryOn } from '../test/merchant.js';

const SPEC_MESSAGE = 'Unsupported format. Use JPG, PNG or WEBP.';
const NOT_A_PHOTO = 'This file is not a photo we can read. Use JPG, PNG or WEBP.';

let PERSON: Buffer;
let GARMENT: Buffer;
let GIF: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  GARMENT = await png(300, 300, '#2040ff');
  GIF = await gif();
});

const TEXT = Buffer.from('Shopping list: a linen shirt, blue jeans.\n');
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');

/** Files of a type that is not allowed: the specification's message, whatever the route. */
const NOT_ALLOWED: { label: string; part: () => FilePart }[] = [
  { label: 'a text/plain file', part: () => ({ data: TEXT, filename: 'notes.txt', contentType: 'text/plain' }) },
  { label: 'text/plain named .jpg', part: () => ({ data: TEXT, filename: 'me.jpg', contentType: 'text/plain' }) },
  { label: 'a .txt typed as a JPEG', part: () => ({ data: TEXT, filename: 'notes.txt', contentType: 'image/jpeg' }) },
  { label: 'a GIF', part: () => ({ data: GIF, filename: 'shirt.gif', contentType: 'image/gif' }) },
  { label: 'a PDF', part: () => ({ data: PDF, filename: 'cv.pdf', contentType: 'application/pdf' }) },
];
const RENAMED_PDF = (): FilePart => ({ data: PDF, filename: 'holiday.jpg', contentType: 'image/jpeg' });

describe.each(DATABASE_KINDS)('the message for a file that is not a photo, on every upload route, on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;
  let shopper: { cookie: string; userId: string };
  let operatorCookie: string;
  const operatorEmail = newEmail('operator');
  beforeAll(async () => {
    const mailer = memoryMailer();
    t = await make({ mailer, env: { ADMIN_EMAILS: operatorEmail } });
    const s = await signIn(t.app);
    shopper = { cookie: s.cookie, userId: s.user.id };
    operatorCookie = (await signInByEmail(t.app, mailer, operatorEmail)).cookie;
  });

  const tryOn = (app: FastifyInstance, userImage: FilePart, clothingImage: FilePart) =>
    postMultipart(
      app,
      '/api/process-image',
      { userImage, clothingImage, category: 'upper_body', userId: shopper.userId },
      shopper.cookie,
    );
  const classify = (app: FastifyInstance, clothingImage: FilePart) =>
    postMultipart(app, '/api/garments/classify', { clothingImage }, shopper.cookie);

  it('POST /api/process-image: the specification’s message for a type not allowed, by MIME type or extension', async () => {
    const garment = { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' };
    for (const { label, part } of NOT_ALLOWED) {
      expectApiError(await tryOn(t.app, part(), garment), 415, 'UNSUPPORTED_FORMAT', {
        message: SPEC_MESSAGE,
        extra: { field: 'userImage' },
        label,
      });
      expectApiError(await tryOn(t.app, { data: PERSON }, part()), 415, 'UNSUPPORTED_FORMAT', {
        message: SPEC_MESSAGE,
        extra: { field: 'clothingImage' },
        label,
      });
    }
    expectApiError(await tryOn(t.app, RENAMED_PDF(), garment), 415, 'UNSUPPORTED_FORMAT', {
      message: NOT_A_PHOTO,
      extra: { field: 'userImage' },
    });
    expect(t.engine.calls).toHaveLength(0);
    const user = await getUser(t.app, shopper.cookie, shopper.userId);
    expect([user.free_trials_used, user.credits]).toEqual([0, 0]);

    // The bytes decide what is taken: a JPEG sent without a type or extension is a photo.
    const unnamed = await tryOn(
      t.app,
      { data: PERSON, filename: 'blob', contentType: 'application/octet-stream' },
      garment,
    );
    expect(unnamed.statusCode, unnamed.body).toBe(200);
  });

  it('POST /api/garments/classify: the same two messages', async () => {
    for (const { label, part } of NOT_ALLOWED) {
      expectApiError(await classify(t.app, part()), 415, 'UNSUPPORTED_FORMAT', {
        message: SPEC_MESSAGE,
        extra: { field: 'clothingImage' },
        label,
      });
    }
    expectApiError(await classify(t.app, RENAMED_PDF()), 415, 'UNSUPPORTED_FORMAT', {
      message: NOT_A_PHOTO,
      extra: { field: 'clothingImage' },
    });
    const ok = await classify(t.app, { data: GARMENT, filename: 'shirt.png', contentType: 'image/png' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('POST /api/embed/tryon: the same two messages for the shopper’s photo; nothing charged to the shop', async () => {
    const shop = await merchantWithToken(t.app, operatorCookie, 2);
    const garment = { data: GARMENT, filename: 'garment', contentType: 'image/png' };
    for (const { label, part } of NOT_ALLOWED) {
      expectApiError(
        await postEmbedTryOn(t.app, shop.token, { userImage: part(), clothingImage: garment }),
        415,
        'UNSUPPORTED_FORMAT',
        { message: SPEC_MESSAGE, extra: { field: 'userImage' }, label },
      );
    }
    expectApiError(
      await postEmbedTryOn(t.app, shop.token, { userImage: RENAMED_PDF(), clothingImage: garment }),
      415,
      'UNSUPPORTED_FORMAT',
      { message: NOT_A_PHOTO, extra: { field: 'userImage' } },
    );
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/merchants/${shop.id}`,
      headers: { cookie: operatorCookie },
    });
    expect(detail.json<{ merchant: { credits: number } }>().merchant.credits).toBe(2);
  });
});
