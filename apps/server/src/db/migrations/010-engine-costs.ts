/** Migration 010_engine_costs: never edit it once shipped (databases that ran it keep what it did). */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  // Failover between engines and what each try-on costs: the engine a try-on was asked of when
  // another made it (the operator's statistics count failovers), and the engine's price for it.
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tryons').addColumn('requested_engine', 'text').execute();
    await db.schema.alterTable('tryons').addColumn('cost_micros', 'integer').execute();
  },
};
