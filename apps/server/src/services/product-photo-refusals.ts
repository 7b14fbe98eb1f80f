/**
 * Refusals of a shop's own garment photos in the widget (docs/embed.md). The shopper cannot take
 * another photo of the shop's product, so such a refusal says that the product cannot be previewed
 * there (never what photo to take), and it is counted for the merchant by garment image (the
 * SHA-256 of its bytes, with its address in the shop's page when the widget gives it): the shop
 * learns which product photos fail from `GET /api/merchant/usage` and the operator's merchant page.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  GARMENT_REFUSAL_CODES,
  GarmentUrlSchema,
  MESSAGES,
  PRODUCT_PHOTO_REFUSALS_LISTED,
  UPLOAD_REFUSAL_CODES,
  type ProductPhotoRefusal,
  type ProductPhotoRefusalCode,
} from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { iso } from '../db/ids.js';
import { AppError, isAppError } from '../errors.js';
import { utcDay } from '../ledger/ledger.js';
import type { LogSink } from '../logging.js';
import { countProductPhotoRefusal, productPhotoRefusals } from '../repositories/product-photo-refusals.js';

export interface ProductPhotoDeps {
  db: Kysely<Database>;
  clock: () => Date;
  /** Where a failure to count goes (the shopper still gets the refusal). */
  log?: Pick<LogSink, 'warn'>;
}

/** The shop's garment image as the widget sent it: its bytes' SHA-256 (hex) and its address, if given. */
export interface GarmentImageRef {
  sha256: string;
  url: string | null;
}

/** The form field of the shop's garment image. */
const GARMENT_FIELD = 'clothingImage';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The garment image's reference; an address that is not an http(s) URL (or too long) is left out. */
export function garmentImageRef(bytes: Buffer, url: string | undefined): GarmentImageRef {
  const parsed = GarmentUrlSchema.safeParse(url);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), url: parsed.success ? parsed.data : null };
}

/** The reason to count when `err` refuses the shop's garment photo itself; null for any other error. */
function productPhotoRefusalCode(err: unknown): ProductPhotoRefusalCode | null {
  if (!isAppError(err)) return null;
  const code = err.code as ProductPhotoRefusalCode;
  if ((GARMENT_REFUSAL_CODES as readonly string[]).includes(code)) return code;
  const aboutGarment = err.extra?.field === GARMENT_FIELD;
  return aboutGarment && (UPLOAD_REFUSAL_CODES as readonly string[]).includes(code) ? code : null;
}

/**
 * What the widget's try-on answers for `err`: a refusal of the shop's garment photo is counted for
 * the merchant and answered with its code, the shop-side message and `field: clothingImage`; any
 * other error is answered as it is. A failure to count is logged; the shopper gets the refusal.
 */
export async function asProductPhotoRefusal(
  deps: ProductPhotoDeps,
  input: { merchantId: string; garment: GarmentImageRef },
  err: unknown,
): Promise<unknown> {
  const code = productPhotoRefusalCode(err);
  if (code === null) return err;
  const now = deps.clock();
  try {
    await countProductPhotoRefusal(deps.db, {
      merchantId: input.merchantId,
      garmentSha256: input.garment.sha256,
      code,
      day: utcDay(now),
      garmentUrl: input.garment.url,
      now: iso(now),
    });
  } catch (countErr) {
    deps.log?.warn({ err: countErr, merchantId: input.merchantId, code }, 'a refused product photo was not counted');
  }
  return new AppError(code, MESSAGES.productNotPreviewable, { field: GARMENT_FIELD });
}

/** The merchant's refused product photos over the last `days` UTC days (today included), the most refused first. */
export async function refusedProductPhotos(
  deps: ProductPhotoDeps,
  merchantId: string,
  days: number,
): Promise<ProductPhotoRefusal[]> {
  const fromDay = utcDay(new Date(deps.clock().getTime() - (days - 1) * DAY_MS));
  const rows = await productPhotoRefusals(deps.db, merchantId, fromDay, PRODUCT_PHOTO_REFUSALS_LISTED);
  return rows.map((r) => ({ ...r, code: r.code as ProductPhotoRefusalCode }));
}
