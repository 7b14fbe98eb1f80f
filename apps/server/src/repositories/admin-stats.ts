/**
 * The operator console's daily statistics, aggregated by the database over a window of days
 * (UTC days: the first ten characters of the ISO-8601 timestamps). On PostgreSQL percentiles are
 * computed there (`percentile_cont`); SQLite has none, so its durations are read and ranked here.
 */
import { sql, type Kysely } from 'kysely';
import { ENGINE_REFUSAL_CODES } from '@aidressup/contract';
import type { Database } from '../db/schema.js';
import { iso } from '../db/ids.js';
import { isPostgres } from '../db/database.js';
import { notMerchantAccount } from './admin-users.js';

type Db = Kysely<Database>;

export interface EngineDayRow {
  day: string;
  engine: string;
  succeeded: number;
  refused: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

const REFUSALS = sql.join(ENGINE_REFUSAL_CODES.map((c) => sql.lit(c)));

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/**
 * Try-ons (main rows) started in [since, until), by day (or, with `byDay` false, over the whole
 * window, as day `all`) and engine: outcomes and engine time of the succeeded ones.
 */
export async function tryOnsByDay(db: Db, since: Date, until: Date, byDay = true): Promise<EngineDayRow[]> {
  const from = iso(since);
  const to = iso(until);
  const day = byDay ? sql`substr(created_at, 1, 10)` : sql`'all'`;
  if (isPostgres(db)) {
    const res = await sql<{
      day: string;
      engine: string;
      succeeded: string;
      refused: string;
      failed: string;
      p50: number | null;
      p95: number | null;
    }>`
      select ${day} as day, engine,
        count(*) filter (where status = 'succeeded') as succeeded,
        count(*) filter (where status = 'failed' and error_code in (${REFUSALS})) as refused,
        count(*) filter (where status = 'failed' and (error_code is null or error_code not in (${REFUSALS}))) as failed,
        percentile_cont(0.5) within group (order by dur) as p50,
        percentile_cont(0.95) within group (order by dur) as p95
      from (
        select created_at, engine, status, error_code,
          case when status = 'succeeded' and finished_at is not null
            then extract(epoch from (finished_at::timestamptz - created_at::timestamptz)) * 1000 end as dur
        from tryons where created_at >= ${from} and created_at < ${to} and bundle_of is null
      ) t
      group by 1, 2`.execute(db);
    return res.rows.map((r) => ({
      day: r.day,
      engine: r.engine,
      succeeded: Number(r.succeeded),
      refused: Number(r.refused),
      failed: Number(r.failed),
      p50: r.p50 === null ? null : Math.round(Number(r.p50)),
      p95: r.p95 === null ? null : Math.round(Number(r.p95)),
    }));
  }
  const counts = await sql<{ day: string; engine: string; succeeded: number; refused: number; failed: number }>`
    select ${day} as day, engine,
      sum(case when status = 'succeeded' then 1 else 0 end) as succeeded,
      sum(case when status = 'failed' and error_code in (${REFUSALS}) then 1 else 0 end) as refused,
      sum(case when status = 'failed' and (error_code is null or error_code not in (${REFUSALS})) then 1 else 0 end) as failed
    from tryons where created_at >= ${from} and created_at < ${to} and bundle_of is null
    group by 1, 2`.execute(db);
  const durations = await sql<{ day: string; engine: string; dur: number }>`
    select ${day} as day, engine,
      (julianday(finished_at) - julianday(created_at)) * 86400000.0 as dur
    from tryons
    where created_at >= ${from} and created_at < ${to} and bundle_of is null and status = 'succeeded'
      and finished_at is not null`.execute(db);
  const byKey = new Map<string, number[]>();
  for (const d of durations.rows) {
    const key = `${d.day}|${d.engine}`;
    const list = byKey.get(key) ?? [];
    list.push(Number(d.dur));
    byKey.set(key, list);
  }
  return counts.rows.map((r) => {
    const sorted = (byKey.get(`${r.day}|${r.engine}`) ?? []).sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    const p95 = percentile(sorted, 0.95);
    return {
      day: r.day,
      engine: r.engine,
      succeeded: Number(r.succeeded),
      refused: Number(r.refused),
      failed: Number(r.failed),
      p50: p50 === null ? null : Math.round(p50),
      p95: p95 === null ? null : Math.round(p95),
    };
  });
}

/** Each engine's latest failure (not a refusal of the photos) among try-ons started since `since`. */
export async function lastErrors(db: Db, since: Date): Promise<{ engine: string; code: string; at: string }[]> {
  const res = await sql<{ engine: string; code: string; at: string }>`
    select t.engine, t.error_code as code, t.created_at as at
    from tryons t
    join (
      select engine, max(created_at) as at from tryons
      where created_at >= ${iso(since)} and bundle_of is null and status = 'failed'
        and error_code is not null and error_code not in (${REFUSALS})
      group by engine
    ) latest on latest.engine = t.engine and latest.at = t.created_at
    where t.bundle_of is null and t.status = 'failed' and t.error_code not in (${REFUSALS})`.execute(db);
  // Two failures started in the same millisecond: one is enough.
  return [...new Map(res.rows.map((r) => [r.engine, r])).values()];
}

/** New users by day since `since` (merchants' ledger accounts are no users). */
export async function newUsersByDay(db: Db, since: Date, until: Date): Promise<{ day: string; n: number }[]> {
  const rows = await db
    .selectFrom('users')
    .select((eb) => [sql<string>`substr(created_at, 1, 10)`.as('day'), eb.fn.countAll<number | string>().as('n')])
    .where('created_at', '>=', iso(since))
    .where('created_at', '<', iso(until))
    .where(notMerchantAccount)
    .groupBy(sql`substr(created_at, 1, 10)`)
    .execute();
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}

export interface PurchaseDayRow {
  day: string;
  plan_id: string | null;
  currency: string | null;
  n: number;
  /** The sum paid, as a decimal string with two places; null when no amount was recorded. */
  revenue: string | null;
}

/** Purchases (demo and Paddle grants) by day, plan and currency since `since`, with what was paid. */
export async function purchasesByDay(db: Db, since: Date, until: Date): Promise<PurchaseDayRow[]> {
  const amount = isPostgres(db) ? sql`cast(amount_paid as numeric)` : sql`cast(amount_paid as real)`;
  const rows = await sql<{
    day: string;
    plan_id: string | null;
    currency: string | null;
    n: number | string;
    revenue: number | string | null;
  }>`
    select substr(created_at, 1, 10) as day, plan_id, currency, count(*) as n, sum(${amount}) as revenue
    from credit_grants
    where created_at >= ${iso(since)} and created_at < ${iso(until)} and source in ('demo', 'paddle')
    group by 1, 2, 3`.execute(db);
  return rows.rows.map((r) => ({
    day: r.day,
    plan_id: r.plan_id,
    currency: r.currency,
    n: Number(r.n),
    revenue: r.revenue === null ? null : Number(r.revenue).toFixed(2),
  }));
}

/** Reports made by day, and reports refunded and rejected by the day they were decided. */
export async function reportsByDay(
  db: Db,
  since: Date,
  until: Date,
): Promise<{ day: string; created: number; refunded: number; rejected: number }[]> {
  const from = iso(since);
  const to = iso(until);
  const created = await sql<{ day: string; n: number | string }>`
    select substr(created_at, 1, 10) as day, count(*) as n from tryon_reports
    where created_at >= ${from} and created_at < ${to} group by 1`.execute(db);
  const decided = await sql<{ day: string; status: string; n: number | string }>`
    select substr(decided_at, 1, 10) as day, status, count(*) as n from tryon_reports
    where decided_at >= ${from} and decided_at < ${to} and status in ('refunded', 'rejected')
    group by 1, 2`.execute(db);
  const days = new Map<string, { day: string; created: number; refunded: number; rejected: number }>();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d) days.set(day, (d = { day, created: 0, refunded: 0, rejected: 0 }));
    return d;
  };
  for (const r of created.rows) at(r.day).created = Number(r.n);
  for (const r of decided.rows) {
    if (r.status === 'refunded') at(r.day).refunded = Number(r.n);
    else at(r.day).rejected = Number(r.n);
  }
  return [...days.values()];
}

/** Unspent, unexpired credits of every user. */
export async function creditsOutstanding(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom('credit_grants')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('remaining'), sql<number>`0`).as('total'))
    .where('remaining', '>', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', iso(now))]))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Subscriptions active now (the statuses that count as active, within their period). */
export async function activePlans(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('subscription_status', 'in', ['active', 'trialing', 'past_due'])
    .where((eb) => eb.or([eb('subscription_period_end', 'is', null), eb('subscription_period_end', '>', iso(now))]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Stored statistics of closed days (`admin_daily_stats`), from `fromDay` to `toDay` inclusive. */
export async function readDailyStats(db: Db, fromDay: string, toDay: string): Promise<{ day: string; data: string }[]> {
  return db
    .selectFrom('admin_daily_stats')
    .select(['day', 'data'])
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .execute();
}

/** Stores closed days' statistics; a day stored already (by a concurrent request) is kept. */
export async function storeDailyStats(db: Db, rows: { day: string; data: string }[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('admin_daily_stats')
    .values(rows.map((r) => ({ day: r.day, data: r.data, computed_at: iso(now) })))
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
}

/**
 * Try-ons asked of an engine that another engine made (failover), by day (or, with `byDay` false,
 * over the window as day `all`) and the engine asked: main rows started in [since, until).
 */
export async function failoversByDay(
  db: Db,
  since: Date,
  until: Date,
  byDay = true,
): Promise<{ day: string; engine: string; n: number }[]> {
  const day = byDay ? sql`substr(created_at, 1, 10)` : sql`'all'`;
  const res = await sql<{ day: string; engine: string; n: number | string }>`
    select ${day} as day, requested_engine as engine, count(*) as n from tryons
    where created_at >= ${iso(since)} and created_at < ${iso(until)} and bundle_of is null
      and requested_engine is not null
    group by 1, 2`.execute(db);
  return res.rows.map((r) => ({ day: r.day, engine: r.engine, n: Number(r.n) }));
}

export interface EconomicsDayRow {
  day: string;
  engine: string;
  /** Succeeded try-on units (a whole outfit's two rows count two). */
  tryons: number;
  /** What the credits they used were bought for, in millionths of `currency`. */
  revenueMicros: number;
  /** What the engines charged for them, in millionths (as recorded when each completed). */
  costMicros: number;
}

/**
 * Succeeded try-ons started in [since, until) by day and the engine that made them: revenue (each
 * credit at its purchase's price over its credits, purchases in `currency` only; free trials and
 * operators' grants earn nothing) and the engine cost recorded on them.
 */
export async function economicsByDay(db: Db, since: Date, until: Date, currency: string): Promise<EconomicsDayRow[]> {
  const paid = isPostgres(db) ? sql`cast(g.amount_paid as numeric)` : sql`cast(g.amount_paid as real)`;
  const res = await sql<{
    day: string;
    engine: string;
    n: number | string;
    revenue: number | string | null;
    cost: number | string | null;
  }>`
    select substr(t.created_at, 1, 10) as day, t.engine, count(*) as n,
      sum(case when g.id is not null and g.source in ('demo', 'paddle') and g.currency = ${currency}
        and g.amount > 0 and g.amount_paid is not null then ${paid} / g.amount else 0 end) as revenue,
      sum(coalesce(t.cost_micros, 0)) as cost
    from tryons t
    left join credit_grants g on g.id = t.grant_id and t.charge = 'credit'
    where t.created_at >= ${iso(since)} and t.created_at < ${iso(until)} and t.status = 'succeeded'
    group by 1, 2`.execute(db);
  return res.rows.map((r) => ({
    day: r.day,
    engine: r.engine,
    tryons: Number(r.n),
    revenueMicros: Math.round(Number(r.revenue ?? 0) * 1_000_000),
    costMicros: Number(r.cost ?? 0),
  }));
}
