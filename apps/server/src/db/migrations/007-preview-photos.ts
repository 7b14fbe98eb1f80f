/** Migration 007_preview_photos: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // "Make it photo-real": a quick preview's photos, kept privately in storage for its owner
  // until `photos_until` (30 minutes), so that it can be re-run on a hosted engine. JSON text of
  // the storage keys; both columns are cleared when the photos are deleted.
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tryons').addColumn('kept_photos', 'text').execute();
    await db.schema.alterTable('tryons').addColumn('photos_until', 'text').execute();
    await db.schema.createIndex('tryons_photos_until_idx').on('tryons').column('photos_until').execute();
  },
};
