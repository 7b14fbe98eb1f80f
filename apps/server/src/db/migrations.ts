/**
 * Migrations, kept in code so the built server needs no migration files on disk.
 * The same migrations run on SQLite and PostgreSQL: every column type is portable
 * (text, integer), timestamps are ISO-8601 text.
 */
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { personPhotosMigration } from './migrations-person-photos.js';

const migrations: Record<string, Migration> = {
  '001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('device_id', 'text', (c) => c.notNull().unique())
        .addColumn('device_info', 'text', (c) => c.notNull())
        .addColumn('free_trials_used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('signup_ip_hash', 'text')
        .addColumn('subscription_id', 'text')
        .addColumn('subscription_status', 'text')
        .addColumn('subscription_plan_id', 'text')
        .addColumn('subscription_period_end', 'text')
        .addColumn('subscription_updated_at', 'text')
        .addCheckConstraint('users_free_trials_used_nonnegative', sqlCheck('free_trials_used >= 0'))
        .execute();
      await db.schema
        .createIndex('users_signup_ip_idx')
        .on('users')
        .columns(['signup_ip_hash', 'created_at'])
        .execute();
      await db.schema.createIndex('users_subscription_idx').on('users').column('subscription_id').execute();

      await db.schema
        .createTable('credit_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text')
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('remaining', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('external_ref', 'text', (c) => c.unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('credit_grants_remaining_range', sqlCheck('remaining >= 0 AND remaining <= amount'))
        .execute();
      await db.schema
        .createIndex('credit_grants_user_idx')
        .on('credit_grants')
        .columns(['user_id', 'expires_at'])
        .execute();

      await db.schema
        .createTable('tryons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('charge', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text', (c) => c.references('credit_grants.id'))
        .addColumn('result_name', 'text', (c) => c.unique())
        .addColumn('error_code', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tryons_user_idx').on('tryons').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('tryons_status_idx').on('tryons').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('tryons_expires_idx').on('tryons').column('expires_at').execute();

      await db.schema
        .createTable('credit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('grant_id', 'text', (c) => c.references('credit_grants.id'))
        .addColumn('tryon_id', 'text', (c) => c.references('tryons.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .execute();
      await db.schema
        .createIndex('credit_events_user_idx')
        .on('credit_events')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema.createIndex('credit_events_created_idx').on('credit_events').column('created_at').execute();

      await db.schema
        .createTable('billing_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull().unique())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('processed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('billing_events_created_idx').on('billing_events').column('created_at').execute();
    },
  },
  '002_accounts': {
    // A device id stops being a key: users.device_id is no longer unique (a device may have many
    // users), and the session cookie names a row of `sessions`. Free trials are counted per device
    // (`devices`) and new users per address and day (`ip_signups`), each in one counter row that
    // an atomic upsert updates, so the caps hold under concurrency. Users gain an email (email
    // sign-in), the account they were merged into, a deletion mark and their Paddle customer id.
    async up(db: Kysely<unknown>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      if (postgres) {
        await sql`alter table users drop constraint if exists users_device_id_key`.execute(db);
        await sql`alter table users alter column device_id drop not null`.execute(db);
        for (const column of ['email', 'free_trials_withheld', 'merged_into', 'deleted_at', 'paddle_customer_id']) {
          await db.schema.alterTable('users').addColumn(column, 'text').execute();
        }
      } else {
        // SQLite cannot drop a column's UNIQUE constraint: rebuild the table (no transaction runs
        // around SQLite migrations, so foreign keys can be switched off for the swap).
        await sql`pragma foreign_keys = off`.execute(db);
        await db.schema
          .createTable('users_002')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('device_id', 'text')
          .addColumn('device_info', 'text', (c) => c.notNull())
          .addColumn('free_trials_used', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_seen_at', 'text', (c) => c.notNull())
          .addColumn('signup_ip_hash', 'text')
          .addColumn('subscription_id', 'text')
          .addColumn('subscription_status', 'text')
          .addColumn('subscription_plan_id', 'text')
          .addColumn('subscription_period_end', 'text')
          .addColumn('subscription_updated_at', 'text')
          .addColumn('email', 'text')
          .addColumn('free_trials_withheld', 'text')
          .addColumn('merged_into', 'text')
          .addColumn('deleted_at', 'text')
          .addColumn('paddle_customer_id', 'text')
          .addCheckConstraint('users_free_trials_used_nonnegative', sqlCheck('free_trials_used >= 0'))
          .execute();
        await sql`insert into users_002 (id, device_id, device_info, free_trials_used, created_at, last_seen_at,
            signup_ip_hash, subscription_id, subscription_status, subscription_plan_id, subscription_period_end,
            subscription_updated_at)
          select id, device_id, device_info, free_trials_used, created_at, last_seen_at, signup_ip_hash,
            subscription_id, subscription_status, subscription_plan_id, subscription_period_end, subscription_updated_at
          from users`.execute(db);
        await sql`drop table users`.execute(db);
        await sql`alter table users_002 rename to users`.execute(db);
        await db.schema
          .createIndex('users_signup_ip_idx')
          .on('users')
          .columns(['signup_ip_hash', 'created_at'])
          .execute();
        await db.schema.createIndex('users_subscription_idx').on('users').column('subscription_id').execute();
        await sql`pragma foreign_keys = on`.execute(db);
      }
      await db.schema.createIndex('users_email_idx').on('users').column('email').unique().execute();
      await db.schema.createIndex('users_device_idx').on('users').column('device_id').execute();
      await db.schema.createIndex('users_paddle_customer_idx').on('users').column('paddle_customer_id').execute();

      await db.schema
        .createTable('devices')
        .addColumn('device_id', 'text', (c) => c.primaryKey())
        .addColumn('free_trials_used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('devices_free_trials_used_nonnegative', sqlCheck('free_trials_used >= 0'))
        .execute();
      await sql`insert into devices (device_id, free_trials_used, created_at)
        select device_id, max(free_trials_used), min(created_at) from users where device_id is not null group by device_id`.execute(
        db,
      );

      await db.schema
        .createTable('ip_signups')
        .addColumn('ip_hash', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ip_signups_pk', ['ip_hash', 'day'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

      await db.schema
        .createTable('email_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('email_codes_email_idx').on('email_codes').columns(['email', 'created_at']).execute();

      await db.schema.alterTable('credit_grants').addColumn('amount_paid', 'text').execute();
      await db.schema.alterTable('credit_grants').addColumn('currency', 'text').execute();
    },
  },
  '003_tryon_owner': {
    // Crash recovery: the process that owns each try-on, and the processes alive (heartbeats).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('processes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('heartbeat_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('tryons').addColumn('owner_id', 'text').execute();
      await db.schema.alterTable('tryons').addColumn('staged_result', 'text').execute();
      await db.schema.createIndex('tryons_owner_idx').on('tryons').columns(['owner_id', 'status']).execute();
    },
  },
  '004_outfits_and_sharing': {
    // A whole outfit charges two units: the second is a companion row (`bundle_of` the main one)
    // that settles with it. A shared result has an unguessable public token.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tryons').addColumn('bundle_of', 'text').execute();
      await db.schema.alterTable('tryons').addColumn('share_token', 'text').execute();
      await db.schema.alterTable('tryons').addColumn('shared_at', 'text').execute();
      await db.schema.createIndex('tryons_bundle_of_idx').on('tryons').column('bundle_of').execute();
      await db.schema.createIndex('tryons_share_token_idx').unique().on('tryons').column('share_token').execute();
    },
  },
  '005_sign_in_abuse': {
    // The cookie name a session was issued under (over https only `__Host-` names count); who
    // asked for a sign-in code, and its tries from there and from elsewhere; the address without
    // its +tag; wrong codes per client address and per email address.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('cookie_name', 'text').execute();
      await db.schema.alterTable('email_codes').addColumn('requester', 'text').execute();
      await db.schema.alterTable('email_codes').addColumn('mailbox', 'text').execute();
      await db.schema
        .alterTable('email_codes')
        .addColumn('stranger_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('email_codes_mailbox_idx')
        .on('email_codes')
        .columns(['mailbox', 'created_at'])
        .execute();
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('stranger', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_failures_client_idx')
        .on('sign_in_failures')
        .columns(['client', 'created_at'])
        .execute();
      await db.schema
        .createIndex('sign_in_failures_email_idx')
        .on('sign_in_failures')
        .columns(['email', 'created_at'])
        .execute();
      await db.schema.createIndex('sign_in_failures_created_idx').on('sign_in_failures').column('created_at').execute();
    },
  },
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
  // My photos (db/migrations-person-photos.ts).
  '011_person_photos': personPhotosMigration,
};

function sqlCheck(expr: string) {
  return sql.raw(expr);
}

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
