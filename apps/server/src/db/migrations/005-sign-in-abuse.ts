/** Migration 005_sign_in_abuse: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
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
};
