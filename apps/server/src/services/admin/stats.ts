/**
 * The operator console's statistics: a daily series over the last N UTC days (today included) of
 * try-ons by engine and outcome with engine time, new users, purchases and revenue by plan (in the
 * currency paid), and reports; and totals now (credits outstanding, active plans).
 *
 * A day's figures no longer change once it is over (a try-on settles within two minutes of its
 * start; reports count on the day they were made or decided), so a day closed for an hour is
 * computed once and stored (`admin_daily_stats`); only the open days are aggregated on each request.
 * That keeps 90 days fast on a large database (`npm run bench:admin`).
 */
import { PLANS, type AdminEngineWindow, type AdminStatsDay, type AdminStatsResponse } from '@aidressup/contract';
import {
  activePlans,
  creditsOutstanding,
  economicsByDay,
  failoversByDay,
  lastErrors,
  newUsersByDay,
  purchasesByDay,
  readDailyStats,
  reportsByDay,
  storeDailyStats,
  tryOnsByDay,
} from '../../repositories/admin-stats.js';
import type { AdminDeps } from './users.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A day is closed (and stored) once it ended this long ago. */
const CLOSED_AFTER_MS = 60 * 60 * 1000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => ms - (ms % DAY_MS);

/** The plans' currency: revenue, engine cost and margin are in it. */
const STATS_CURRENCY = PLANS[0]!.currency;

function emptyDay(date: string): AdminStatsDay {
  return {
    date,
    tryons: [],
    new_users: 0,
    purchases: [],
    reports: { created: 0, refunded: 0, rejected: 0 },
    economics: [],
  };
}

/** Millionths as a decimal string with four places (`-0.0150`). */
function microsToDecimal(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const tenThousandths = Math.round(Math.abs(micros) / 100);
  return `${sign}${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}

/** A day stored before a field existed gets it with nothing in it. */
function withDefaults(day: AdminStatsDay): AdminStatsDay {
  return {
    ...day,
    tryons: day.tryons.map((t) => ({ ...t, failovers: t.failovers ?? 0 })),
    economics: day.economics ?? [],
  };
}

/** Adds each engine's failovers to its outcome rows (an engine that only failed over gets a row of its own). */
function addFailovers<T extends { engine: string; failovers: number }>(
  rows: T[],
  failovers: { engine: string; n: number }[],
  empty: (engine: string) => T,
): void {
  for (const f of failovers) {
    let row = rows.find((r) => r.engine === f.engine);
    if (!row) rows.push((row = empty(f.engine)));
    row.failovers = f.n;
  }
}

/** Every day's figures in [since, until), aggregated from the tables. */
async function aggregate(deps: AdminDeps, since: number, until: number): Promise<Map<string, AdminStatsDay>> {
  const from = new Date(since);
  const to = new Date(until);
  const [tryons, users, purchases, reports, failovers, economics] = await Promise.all([
    tryOnsByDay(deps.db, from, to),
    newUsersByDay(deps.db, from, to),
    purchasesByDay(deps.db, from, to),
    reportsByDay(deps.db, from, to),
    failoversByDay(deps.db, from, to),
    economicsByDay(deps.db, from, to, STATS_CURRENCY),
  ]);
  const days = new Map<string, AdminStatsDay>();
  for (let t = since; t < until; t += DAY_MS) days.set(dayOf(t), emptyDay(dayOf(t)));
  for (const t of tryons) {
    days.get(t.day)?.tryons.push({
      engine: t.engine,
      succeeded: t.succeeded,
      refused: t.refused,
      failed: t.failed,
      p50_ms: t.p50,
      p95_ms: t.p95,
      failovers: 0,
    });
  }
  for (const day of days.values()) {
    addFailovers(
      day.tryons,
      failovers.filter((f) => f.day === day.date),
      (engine) => ({ engine, succeeded: 0, refused: 0, failed: 0, p50_ms: null, p95_ms: null, failovers: 0 }),
    );
  }
  for (const e of economics) {
    days.get(e.day)?.economics.push({
      engine: e.engine,
      tryons: e.tryons,
      revenue: microsToDecimal(e.revenueMicros),
      cost: microsToDecimal(e.costMicros),
      margin: microsToDecimal(e.revenueMicros - e.costMicros),
    });
  }
  for (const u of users) {
    const day = days.get(u.day);
    if (day) day.new_users = u.n;
  }
  for (const p of purchases) {
    days.get(p.day)?.purchases.push({ plan_id: p.plan_id, currency: p.currency, count: p.n, revenue: p.revenue });
  }
  for (const r of reports) {
    const day = days.get(r.day);
    if (day) day.reports = { created: r.created, refunded: r.refunded, rejected: r.rejected };
  }
  for (const day of days.values()) {
    day.tryons.sort((a, b) => a.engine.localeCompare(b.engine));
    day.economics.sort((a, b) => a.engine.localeCompare(b.engine));
    day.purchases.sort((a, b) => `${a.plan_id}|${a.currency}`.localeCompare(`${b.plan_id}|${b.currency}`));
  }
  return days;
}

const HOUR_MS = 60 * 60 * 1000;

/** Each engine over the last hour and the last day: outcomes, engine time, the latest failure. */
async function engineWindows(deps: AdminDeps, now: Date): Promise<AdminEngineWindow[]> {
  const windows = [
    ['hour', HOUR_MS],
    ['day', DAY_MS],
  ] as const;
  const results = await Promise.all(
    windows.map(async ([window, ms]) => {
      const since = new Date(now.getTime() - ms);
      const until = new Date(now.getTime() + 1);
      const [rows, errors, failovers] = await Promise.all([
        tryOnsByDay(deps.db, since, until, false),
        lastErrors(deps.db, since),
        failoversByDay(deps.db, since, until, false),
      ]);
      const errorOf = new Map(errors.map((e) => [e.engine, { code: e.code, at: e.at }]));
      const out: AdminEngineWindow[] = rows.map((r) => ({
        window,
        engine: r.engine,
        succeeded: r.succeeded,
        refused: r.refused,
        failed: r.failed,
        p50_ms: r.p50,
        p95_ms: r.p95,
        failovers: 0,
        last_error: errorOf.get(r.engine) ?? null,
      }));
      addFailovers(out, failovers, (engine) => ({
        window,
        engine,
        succeeded: 0,
        refused: 0,
        failed: 0,
        p50_ms: null,
        p95_ms: null,
        failovers: 0,
        last_error: errorOf.get(engine) ?? null,
      }));
      return out;
    }),
  );
  return results.flat().sort((a, b) => a.engine.localeCompare(b.engine) || (a.window === 'hour' ? -1 : 1));
}

export async function adminStats(deps: AdminDeps, days: number): Promise<AdminStatsResponse> {
  const now = deps.clock();
  const today = startOfDay(now.getTime());
  const since = today - (days - 1) * DAY_MS;
  // Days before `open` are closed: computed once, then read back.
  const open = Math.max(since, startOfDay(now.getTime() - CLOSED_AFTER_MS));

  const series = new Map<string, AdminStatsDay>();
  if (since < open) {
    const stored = await readDailyStats(deps.db, dayOf(since), dayOf(open - DAY_MS));
    for (const row of stored)
      series.set(row.day, withDefaults({ ...(JSON.parse(row.data) as AdminStatsDay), date: row.day }));
    let missingFrom: number | undefined;
    for (let t = since; t < open; t += DAY_MS) {
      if (!series.has(dayOf(t))) {
        missingFrom = t;
        break;
      }
    }
    if (missingFrom !== undefined) {
      const computed = await aggregate(deps, missingFrom, open);
      const toStore = [...computed.values()].filter((d) => !series.has(d.date));
      await storeDailyStats(
        deps.db,
        toStore.map((d) => ({ day: d.date, data: JSON.stringify(d) })),
        now,
      );
      for (const d of toStore) series.set(d.date, d);
    }
  }
  const [live, credits, plans, engines] = await Promise.all([
    aggregate(deps, open, today + DAY_MS),
    creditsOutstanding(deps.db, now),
    activePlans(deps.db, now),
    engineWindows(deps, now),
  ]);
  for (const d of live.values()) series.set(d.date, d);

  const result: AdminStatsDay[] = [];
  for (let t = since; t <= today; t += DAY_MS) result.push(series.get(dayOf(t)) ?? emptyDay(dayOf(t)));
  const prices = [...(deps.config.engines.prices ?? new Map()).entries()].map(([engine, p]) => ({
    engine,
    per_image: microsToDecimal(p.perImageMicros),
    per_extra_garment: microsToDecimal(p.perExtraGarmentMicros),
    source: p.source,
    read_on: p.readOn,
  }));
  return {
    success: true,
    days: result,
    engines,
    currency: STATS_CURRENCY,
    prices,
    totals: { credits_outstanding: credits, active_plans: plans },
  };
}
