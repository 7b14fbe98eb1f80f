/** Migration 002_accounts: never edit it once shipped (databases that ran it keep what it did). */
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

function sqlCheck(expr: string) {
  return sql.raw(expr);
}

export const migration: Migration = {
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
};
