/** Migration 004_outfits_and_sharing: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // A whole outfit charges two units: the second is a companion row (`bundle_of` the main one)
  // that settles with it. A shared result has an unguessable public token.
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tryons').addColumn('bundle_of', 'text').execute();
    await db.schema.alterTable('tryons').addColumn('share_token', 'text').execute();
    await db.schema.alterTable('tryons').addColumn('shared_at', 'text').execute();
    await db.schema.createIndex('tryons_bundle_of_idx').on('tryons').column('bundle_of').execute();
    await db.schema.createIndex('tryons_share_token_idx').unique().on('tryons').column('share_token').execute();
  },
};
