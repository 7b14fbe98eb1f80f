/**
 * Migrations, kept in code so the built server needs no migration files on disk: one file each in
 * `db/migrations/`, named by their number, run in that order. The same migrations run on SQLite and
 * PostgreSQL: every column type is portable (text, integer), timestamps are ISO-8601 text.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migration as m001 } from './migrations/001-initial.js';
import { migration as m002 } from './migrations/002-accounts.js';
import { migration as m003 } from './migrations/003-tryon-owner.js';
import { migration as m004 } from './migrations/004-outfits-and-sharing.js';
import { migration as m005 } from './migrations/005-sign-in-abuse.js';
import { migration as m006 } from './migrations/006-operator-console.js';
import { migration as m007 } from './migrations/007-preview-photos.js';
import { migration as m008 } from './migrations/008-merchants.js';
import { migration as m009 } from './migrations/009-product-photo-refusals.js';
import { migration as m010 } from './migrations/010-engine-costs.js';
import { migration as m011 } from './migrations/011-unit-refunds.js';
import { migration as m012 } from './migrations/012-person-photos.js';
import { migration as m013 } from './migrations/013-sign-in-binding.js';
import { migration as m014 } from './migrations/014-stats-without-merchants.js';

/** Every migration by its name; a new one is added at the end, never edited once shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_accounts': m002,
  '003_tryon_owner': m003,
  '004_outfits_and_sharing': m004,
  '005_sign_in_abuse': m005,
  '006_operator_console': m006,
  '007_preview_photos': m007,
  '008_merchants': m008,
  '009_product_photo_refusals': m009,
  '010_engine_costs': m010,
  '011_unit_refunds': m011,
  '012_person_photos': m012,
  '013_sign_in_binding': m013,
  '014_stats_without_merchants': m014,
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
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
