/** Migration 008_merchants: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // The "Try it on" widget of shops (docs/embed.md): merchants (each with a ledger account of its
  // own, `user_id`, that holds its credits), shoppers' short-lived embed sessions (token hashes
  // only) and which try-ons were made through which session, for the daily caps and usage.
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('merchants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().unique())
      .addColumn('publishable_key', 'text', (c) => c.notNull().unique())
      .addColumn('secret_key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('allowed_origins', 'text', (c) => c.notNull())
      .addColumn('billing', 'text', (c) => c.notNull())
      .addColumn('daily_limit', 'integer', (c) => c.notNull())
      .addColumn('shopper_daily_limit', 'integer', (c) => c.notNull())
      .addColumn('out_of_credits_at', 'text')
      .addColumn('refused_no_credits', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('keys_rotated_at', 'text')
      .execute();
    await db.schema
      .createTable('embed_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('shopper_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('embed_sessions_merchant_idx')
      .on('embed_sessions')
      .columns(['merchant_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('embed_tryons')
      .addColumn('tryon_id', 'text', (c) => c.primaryKey())
      .addColumn('merchant_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('shopper_hash', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('embed_tryons_merchant_day_idx')
      .on('embed_tryons')
      .columns(['merchant_id', 'day'])
      .execute();
    await db.schema
      .createIndex('embed_tryons_shopper_day_idx')
      .on('embed_tryons')
      .columns(['merchant_id', 'shopper_hash', 'day'])
      .execute();
    await db.schema.createIndex('embed_tryons_session_idx').on('embed_tryons').column('session_id').execute();
  },
};
