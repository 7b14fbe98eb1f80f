/**
 * The shop widget's refused product photos (docs/embed.md): how often each of a merchant's garment
 * images (by the SHA-256 of its bytes) was refused, for which reason, per UTC day.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** One more refusal of a garment image (created, or counted on its day's row; concurrent ones both count). */
export async function countProductPhotoRefusal(
  db: Db,
  input: {
    merchantId: string;
    garmentSha256: string;
    code: string;
    day: string;
    garmentUrl: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('product_photo_refusals')
    .values({
      merchant_id: input.merchantId,
      garment_sha256: input.garmentSha256,
      code: input.code,
      day: input.day,
      garment_url: input.garmentUrl,
      refusals: 1,
      last_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['merchant_id', 'garment_sha256', 'code', 'day']).doUpdateSet({
        refusals: (eb) => eb('product_photo_refusals.refusals', '+', 1),
        last_at: (eb) => eb.ref('excluded.last_at'),
        // The latest address the widget gave; a refusal without one keeps the one known.
        garment_url: sql<string | null>`coalesce(excluded.garment_url, product_photo_refusals.garment_url)`,
      }),
    )
    .execute();
}

export interface ProductPhotoRefusalRow {
  garmentSha256: string;
  garmentUrl: string | null;
  code: string;
  refusals: number;
  lastRefusedAt: string;
}

/**
 * A merchant's refused garment images from `fromDay` on, one row per image and reason, the most
 * refused first (then the latest), at most `limit`.
 */
export async function productPhotoRefusals(
  db: Db,
  merchantId: string,
  fromDay: string,
  limit: number,
): Promise<ProductPhotoRefusalRow[]> {
  const rows = await db
    .selectFrom('product_photo_refusals')
    .select((eb) => [
      'garment_sha256',
      'code',
      eb.fn.sum<number | string>('refusals').as('total'),
      eb.fn.max('last_at').as('latest'),
      eb.fn.max('garment_url').as('url'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('day', '>=', fromDay)
    .groupBy(['garment_sha256', 'code'])
    .orderBy('total', 'desc')
    .orderBy('latest', 'desc')
    .orderBy('garment_sha256')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    garmentSha256: r.garment_sha256,
    garmentUrl: r.url ?? null,
    code: r.code,
    refusals: Number(r.total),
    lastRefusedAt: r.latest,
  }));
}
