/** Migration 009_product_photo_refusals: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // The shop widget: refusals of a shop's own garment photos (worn, not separable, not a usable
  // image), counted per merchant, garment image (SHA-256 of its bytes), reason and UTC day, with
  // the image's address in the shop's page when the widget gives it, so the merchant learns which
  // product photos fail (GET /api/merchant/usage, the console's merchant page). No shopper data.
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('product_photo_refusals')
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('garment_sha256', 'text', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('garment_url', 'text')
      .addColumn('refusals', 'integer', (c) => c.notNull())
      .addColumn('last_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_photo_refusals_pk', ['merchant_id', 'garment_sha256', 'code', 'day'])
      .execute();
    await db.schema
      .createIndex('product_photo_refusals_merchant_day_idx')
      .on('product_photo_refusals')
      .columns(['merchant_id', 'day'])
      .execute();
  },
};
