/**
 * Migration 014_stats_without_merchants: the operator's stored statistics of closed days counted
 * merchants' ledger accounts as new users before those were left out. Each stored day's
 * `new_users` is counted again from `users` (rows are never deleted, only emptied), leaving out
 * every account a merchant holds. Never edit it once shipped.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const stored = await sql<{ day: string; data: string }>`select day, data from admin_daily_stats`.execute(db);
    for (const row of stored.rows) {
      const counted = await sql<{ n: number | string }>`
        select count(*) as n from users
        where substr(created_at, 1, 10) = ${row.day}
          and not exists (select 1 from merchants where merchants.user_id = users.id)`.execute(db);
      const data = JSON.parse(row.data) as Record<string, unknown>;
      data.new_users = Number(counted.rows[0]?.n ?? 0);
      await sql`update admin_daily_stats set data = ${JSON.stringify(data)} where day = ${row.day}`.execute(db);
    }
  },
};
