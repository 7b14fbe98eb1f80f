/**
 * The shop widget's refusals of the shop's own garment photo, on SQLite and PostgreSQL
 * (docs/embed.md): the engine refuses it (GARMENT_WORN, GARMENT_NOT_SEPARABLE) or the upload checks
 * do (not a JPEG, PNG or WEBP; too small). The shopper is told that this product cannot be
 * previewed here (no photo advice), the merchant's credit comes back, and the refusal is counted by
 * garment image (the SHA-256 of its bytes, with its address when the widget gives one) in
 * `GET /api/merchant/usage` and the operator's merchant page. Refusals of the shopper's own photo
 * keep their message and are not counted.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AdminMerchantDetailResponseSchema,
  MESSAGES,
  MerchantUsageResponseSchema,
  type EngineErrorCode,
  type ProductPhotoRefusal,
} from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import { DATABASE_KINDS } from '../test/databases.js';
import { testApps, type TestApp } from '../test/app.js';
import { expectApiError } from '../test/api-error.js';
import { jpeg, png, type FilePart } from '../test/images.js';
import { memoryMailer, newEmail, signInByEmail } from '../test/operator.js';
import { merchantWithToken, postEmbedTryOn } from '../test/merchant.js';

const SHOP_MESSAGE =
  'Sorry, this product cannot be previewed here: its photo cannot be used for a try-on. Nothing was charged.';
const PRODUCT_URL = 'https://shop.example/images/linen-shirt.jpg';

let PERSON: Buffer;
let SHIRT: Buffer;
let DRESS: Buffer;
beforeAll(async () => {
  PERSON = await jpeg(480, 640, '#c08060');
  SHIRT = await png(300, 300, '#2040ff');
  DRESS = await png(320, 480, '#aa3366');
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DATABASE_KINDS)('refused product photos in the shop widget on %s', (kind) => {
  const make = testApps(kind);
  let t: TestApp;
  let operatorCookie: string;
  const operatorEmail = newEmail('operator');
  beforeAll(async () => {
    const mailer = memoryMailer();
    t = await make({ mailer, env: { ADMIN_EMAILS: operatorEmail } });
    operatorCookie = (await signInByEmail(t.app, mailer, operatorEmail)).cookie;
  });

  const detail = async (id: string, days?: number) =>
    AdminMerchantDetailResponseSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/admin/merchants/${id}${days ? `?days=${days}` : ''}`,
          headers: { cookie: operatorCookie },
        })
      ).json(),
    );
  const usage = async (secretKey: string, days?: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/merchant/usage${days ? `?days=${days}` : ''}`,
      headers: { authorization: `Bearer ${secretKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return MerchantUsageResponseSchema.parse(res.json());
  };
  const garment = (data: Buffer): FilePart => ({ data, filename: 'garment', contentType: 'image/png' });

  it('says the product cannot be previewed, refunds, and counts the refusal by garment image and address', async () => {
    const shop = await merchantWithToken(t.app, operatorCookie, 5);
    const refuse = async (error: EngineErrorCode, clothing: Buffer, garmentUrl?: string) => {
      t.engine.failWith = new EngineError(error);
      try {
        return await postEmbedTryOn(t.app, shop.token, {
          userImage: { data: PERSON },
          clothingImage: garment(clothing),
          ...(garmentUrl !== undefined ? { garmentUrl } : {}),
        });
      } finally {
        t.engine.failWith = undefined;
      }
    };

    expectApiError(await refuse('GARMENT_WORN', SHIRT, PRODUCT_URL), 422, 'GARMENT_WORN', {
      message: SHOP_MESSAGE,
      extra: { field: 'clothingImage' },
    });
    // The same image again (without its address this time), and another product not separable.
    expect((await refuse('GARMENT_WORN', SHIRT)).json()).toMatchObject({ code: 'GARMENT_WORN', error: SHOP_MESSAGE });
    expectApiError(await refuse('GARMENT_NOT_SEPARABLE', DRESS, 'javascript:alert(1)'), 422, 'GARMENT_NOT_SEPARABLE', {
      message: SHOP_MESSAGE,
      extra: { field: 'clothingImage' },
    });
    // The shopper's photo refused: its own message, not counted for the shop.
    const person = await refuse('PERSON_NOT_FOUND', SHIRT, PRODUCT_URL);
    expectApiError(person, 422, 'PERSON_NOT_FOUND', MESSAGES.personNotFound);
    const smallPerson = await postEmbedTryOn(t.app, shop.token, {
      userImage: { data: await jpeg(100, 120) },
      clothingImage: garment(SHIRT),
    });
    expect(smallPerson.json()).toMatchObject({ code: 'IMAGE_TOO_SMALL', error: MESSAGES.personPhotoTooSmall });

    const seen = await detail(shop.id);
    // Every refused try-on was refunded: the five credits are all there.
    expect(seen.merchant.credits).toBe(5);
    const expected: ProductPhotoRefusal[] = [
      {
        garmentSha256: sha256(SHIRT),
        garmentUrl: PRODUCT_URL,
        code: 'GARMENT_WORN',
        refusals: 2,
        lastRefusedAt: t.clock.now.toISOString(),
      },
      {
        garmentSha256: sha256(DRESS),
        // Not an http(s) address: not recorded.
        garmentUrl: null,
        code: 'GARMENT_NOT_SEPARABLE',
        refusals: 1,
        lastRefusedAt: t.clock.now.toISOString(),
      },
    ];
    expect(seen.refusedProductPhotos).toEqual(expected);
    expect((await usage(shop.secretKey)).refusedProductPhotos).toEqual(expected);
  });

  it('counts the upload checks’ refusals of the shop’s image too, and reads them over the days asked for', async () => {
    const shop = await merchantWithToken(t.app, operatorCookie, 3);
    const other = await merchantWithToken(t.app, operatorCookie, 1);
    const calls = t.engine.calls.length;
    const text = Buffer.from('<html>Not found</html>');
    const notImage = await postEmbedTryOn(t.app, shop.token, {
      userImage: { data: PERSON },
      clothingImage: { data: text, filename: 'garment', contentType: 'text/html' },
      garmentUrl: PRODUCT_URL,
    });
    expectApiError(notImage, 415, 'UNSUPPORTED_FORMAT', { message: SHOP_MESSAGE, extra: { field: 'clothingImage' } });
    t.clock.advance(60_000);
    const tiny = await png(100, 100);
    const small = await postEmbedTryOn(t.app, shop.token, {
      userImage: { data: PERSON },
      clothingImage: garment(tiny),
    });
    expectApiError(small, 422, 'IMAGE_TOO_SMALL', { message: SHOP_MESSAGE, extra: { field: 'clothingImage' } });
    expect(t.engine.calls.length).toBe(calls);

    // The latest first (each was refused once).
    const today = (await usage(shop.secretKey)).refusedProductPhotos;
    expect(today.map((r) => [r.code, r.garmentSha256, r.garmentUrl, r.refusals])).toEqual([
      ['IMAGE_TOO_SMALL', sha256(tiny), null, 1],
      ['UNSUPPORTED_FORMAT', sha256(text), PRODUCT_URL, 1],
    ]);

    // Two days later: the last day alone has none, the last three days have both.
    t.clock.advance(2 * 24 * 60 * 60_000);
    expect((await usage(shop.secretKey, 1)).refusedProductPhotos).toEqual([]);
    expect((await usage(shop.secretKey, 3)).refusedProductPhotos).toHaveLength(2);
    // Another merchant sees none of them.
    expect((await usage(other.secretKey)).refusedProductPhotos).toEqual([]);
  });
});
