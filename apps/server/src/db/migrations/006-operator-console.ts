/** Migration 006_operator_console: never edit it once shipped (databases that ran it keep what it did). */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
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
};
