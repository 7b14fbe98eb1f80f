/**
 * Migrations, kept in code so the built server needs no migration files on disk.
 * The same migrations run on SQLite and PostgreSQL: every column type is portable
 * (text, integer), timestamps are ISO-8601 text.
 */
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { FIRST_MIGRATIONS } from './migrations-first.js';
import { personPhotosMigration } from './migrations-person-photos.js';

const migrations: Record<string, Migration> = {
  ...FIRST_MIGRATIONS,
  '006_operator_console': {
    // The operator console (docs/operations.md): when a session's email sign-in happened (operator
    // routes need a recent one), blocked accounts, who made a manual credit change, shoppers'
    // reports of bad results, and the append-only audit log of operator actions. Indexes keep the
    // console's search and daily statistics fast on large tables.
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema.alterTable('sessions').addColumn('email_signed_in_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('blocked_at', 'text').execute();
      await db.schema.alterTable('credit_events').addColumn('actor_id', 'text').execute();

      await db.schema
        .createTable('tryon_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tryon_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        /** JSON text: each unit's charge and grant, kept so a refund works after the try-on is deleted. */
        .addColumn('units', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decision_note', 'text')
        .execute();
      await db.schema
        .createIndex('tryon_reports_user_idx')
        .on('tryon_reports')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('tryon_reports_status_idx')
        .on('tryon_reports')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema.createIndex('tryon_reports_created_idx').on('tryon_reports').column('created_at').execute();
      await db.schema.createIndex('tryon_reports_decided_idx').on('tryon_reports').column('decided_at').execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('target_user_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('audit_log_target_user_idx').on('audit_log').column('target_user_id').execute();
      await db.schema.createIndex('audit_log_actor_idx').on('audit_log').column('actor_id').execute();

      // Statistics of closed days, computed once (the operator console's daily series).
      await db.schema
        .createTable('admin_daily_stats')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('computed_at', 'text', (c) => c.notNull())
        .execute();

      // Statistics by day: try-ons, new users and payments by their creation time.
      await db.schema.createIndex('tryons_created_idx').on('tryons').column('created_at').execute();
      await db.schema.createIndex('users_created_idx').on('users').column('created_at').execute();
      await db.schema
        .createIndex('credit_grants_created_idx')
        .on('credit_grants')
        .columns(['created_at', 'source'])
        .execute();
      if (postgres) {
        // Search by part of an email or an id prefix (trigram and text-pattern indexes).
        // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension; where it cannot be
        // created, search still works, only slower. A savepoint keeps the migration's transaction.
        await sql`savepoint trgm`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
          await sql`release savepoint trgm`.execute(db);
        } catch {
          await sql`rollback to savepoint trgm`.execute(db);
        }
        const trgm = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
        if ((trgm.rows[0]?.n ?? 0) > 0)
          await sql`create index users_email_trgm_idx on users using gin (email gin_trgm_ops)`.execute(db);
        await sql`create index users_id_pattern_idx on users (id text_pattern_ops)`.execute(db);
      }
    },
  },
  '007_preview_photos': {
    // "Make it photo-real": a quick preview's photos, kept privately in storage for its owner
    // until `photos_until` (30 minutes), so that it can be re-run on a hosted engine. JSON text of
    // the storage keys; both columns are cleared when the photos are deleted.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tryons').addColumn('kept_photos', 'text').execute();
      await db.schema.alterTable('tryons').addColumn('photos_until', 'text').execute();
      await db.schema.createIndex('tryons_photos_until_idx').on('tryons').column('photos_until').execute();
    },
  },
  '008_merchants': {
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
  },
  '009_product_photo_refusals': {
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
  },
  '010_engine_costs': {
    // Failover between engines and what each try-on costs: the engine a try-on was asked of when
    // another made it (the operator's statistics count failovers), and the engine's price for it.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tryons').addColumn('requested_engine', 'text').execute();
      await db.schema.alterTable('tryons').addColumn('cost_micros', 'integer').execute();
    },
  },
  '011_unit_refunds': {
    // When each try-on unit's cost was given back (a failure's refund or a report's), set by the
    // same guarded update that checks the unit may be refunded: no unit is refunded twice.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tryons').addColumn('refunded_at', 'text').execute();
    },
  },
  // My photos (db/migrations-person-photos.ts).
  '012_person_photos': personPhotosMigration,
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * Brings the database to the latest schema; throws with the failing migration's error. The
 * migrator works below the typed schema: migrations create the tables the types describe.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
