/** Migration 001_initial: never edit it once shipped (databases that ran it keep what it did). */
import { sql, type Kysely, type Migration } from 'kysely';

function sqlCheck(expr: string) {
  return sql.raw(expr);
}

export const migration: Migration = {
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
    await db.schema.createIndex('users_signup_ip_idx').on('users').columns(['signup_ip_hash', 'created_at']).execute();
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
};
