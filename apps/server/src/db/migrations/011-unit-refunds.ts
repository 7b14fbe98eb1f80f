/** Migration 011_unit_refunds: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // When each try-on unit's cost was given back (a failure's refund or a report's), set by the
  // same guarded update that checks the unit may be refunded: no unit is refunded twice.
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tryons').addColumn('refunded_at', 'text').execute();
  },
};
