/**
 * The operator console's statistics: a daily series over the last N UTC days (today included) of
 * try-ons by engine and outcome with engine time, new users, purchases and revenue by plan (in the
 * currency paid), and reports; and totals now (credits outstanding, active plans).
 */
import type { AdminStatsDay, AdminStatsResponse } from '@aidressup/contract';
import {
  activePlans,
  creditsOutstanding,
  newUsersByDay,
  purchasesByDay,
  reportsByDay,
  tryOnsByDay,
} from '../../repositories/admin-stats.js';
import type { AdminDeps } from './users.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function adminStats(deps: AdminDeps, days: number): Promise<AdminStatsResponse> {
  const now = deps.clock();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const [tryons, users, purchases, reports, credits, plans] = await Promise.all([
    tryOnsByDay(deps.db, since),
    newUsersByDay(deps.db, since),
    purchasesByDay(deps.db, since),
    reportsByDay(deps.db, since),
    creditsOutstanding(deps.db, now),
    activePlans(deps.db, now),
  ]);
  const series = new Map<string, AdminStatsDay>();
  for (let i = 0; i < days; i++) {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    series.set(date, {
      date,
      tryons: [],
      new_users: 0,
      purchases: [],
      reports: { created: 0, refunded: 0, rejected: 0 },
    });
  }
  for (const t of tryons) {
    series.get(t.day)?.tryons.push({
      engine: t.engine,
      succeeded: t.succeeded,
      refused: t.refused,
      failed: t.failed,
      p50_ms: t.p50,
      p95_ms: t.p95,
    });
  }
  for (const u of users) {
    const day = series.get(u.day);
    if (day) day.new_users = u.n;
  }
  for (const p of purchases) {
    series.get(p.day)?.purchases.push({ plan_id: p.plan_id, currency: p.currency, count: p.n, revenue: p.revenue });
  }
  for (const r of reports) {
    const day = series.get(r.day);
    if (day) day.reports = { created: r.created, refunded: r.refunded, rejected: r.rejected };
  }
  for (const day of series.values()) {
    day.tryons.sort((a, b) => a.engine.localeCompare(b.engine));
    day.purchases.sort((a, b) => `${a.plan_id}|${a.currency}`.localeCompare(`${b.plan_id}|${b.currency}`));
  }
  return {
    success: true,
    days: [...series.values()],
    totals: { credits_outstanding: credits, active_plans: plans },
  };
}
