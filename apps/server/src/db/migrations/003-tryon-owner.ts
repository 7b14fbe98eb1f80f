/** Migration 003_tryon_owner: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
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
};
