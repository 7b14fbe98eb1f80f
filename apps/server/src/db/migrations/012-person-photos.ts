/**
 * Migration 012_person_photos: My photos. Person photos a shopper keeps
 * for later try-ons, sealed in storage: the photo, a thumbnail and the built-in engine's analysis
 * of it. `status` is 'pending' while the files are written (retention removes a pending row a crash
 * left, with its files), then 'kept'. `key_id` names the encryption key that sealed the files (key
 * rotation). Never edit it once shipped.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('person_photos')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('photo_key', 'text', (c) => c.notNull())
      .addColumn('thumbnail_key', 'text', (c) => c.notNull())
      .addColumn('analysis_key', 'text')
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('person_photos_user_idx')
      .on('person_photos')
      .columns(['user_id', 'last_used_at'])
      .execute();
    await db.schema.createIndex('person_photos_last_used_idx').on('person_photos').column('last_used_at').execute();
    await db.schema.createIndex('person_photos_key_id_idx').on('person_photos').column('key_id').execute();
  },
};
