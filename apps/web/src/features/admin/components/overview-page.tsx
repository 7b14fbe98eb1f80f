import { lazy, Suspense, useId, useState } from 'react';
import type { AdminEngineWindow, AdminHealthResponse, AdminStatsDay } from '@aidressup/contract';
import { getHealth } from '../api/get-health';
import { getStats } from '../api/get-stats';
import { useAdminData } from '../hooks/use-admin-data';
import { formatDateTime, formatDuration, formatNumber } from '../utils/format';
import { Badge, ErrorNote, inputClass, Loading, Panel, Stat, TableScroll, tdClass, thClass } from './admin-ui';
import { EconomicsPanel } from './economics-panel';

/** Chart.js is most of the console's weight: the overview loads it, the other screens never do. */
const StatsCharts = lazy(async () => ({ default: (await import('./stats-charts')).StatsCharts }));

const PERIODS = [7, 30, 90] as const;

/** Revenue over the days, one figure per currency (amounts are decimal strings). */
function revenueByCurrency(days: AdminStatsDay[]): string {
  const totals = new Map<string, number>();
  for (const p of days.flatMap((d) => d.purchases)) {
    if (!p.revenue || !p.currency) continue;
    totals.set(p.currency, (totals.get(p.currency) ?? 0) + Number(p.revenue));
  }
  if (totals.size === 0) return '–';
  return [...totals]
    .map(([currency, amount]) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount),
    )
    .join(' · ');
}

function statusTone(status: string) {
  if (status === 'ok') return 'good' as const;
  if (status === 'degraded') return 'warn' as const;
  if (status === 'disabled') return 'neutral' as const;
  return 'bad' as const;
}

function Health({ health }: { health: AdminHealthResponse }) {
  const rows: [string, string][] = [
    ['Database', health.checks.database.status],
    ['Storage', health.checks.storage.status],
    ['Queue', health.checks.queue.status],
  ];
  const engines = Object.entries(health.checks.engines).map(([id, c]) => ({
    id,
    status: c.status,
    // Why a provider is down or degraded (its server not ready, no token, a retired model, a low balance).
    reasons: Array.isArray(c.reasons) ? c.reasons.filter((r): r is string => typeof r === 'string') : [],
  }));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        <h3 className="text-sm font-semibold text-ink-700">Engines</h3>
        <ul className="mt-2 divide-y divide-ink-100 rounded-2xl border border-ink-200" data-testid="engine-health">
          {engines.length === 0 ? <li className="px-4 py-2 text-sm text-ink-500">No engines configured</li> : null}
          {engines.map(({ id, status, reasons }) => (
            <li key={id} className="px-4 py-2 text-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="font-medium text-ink-900">{id}</span>
                <Badge tone={statusTone(status)}>{status}</Badge>
              </div>
              {reasons.map((r) => (
                <p key={r} className="mt-1 text-xs text-ink-500">
                  {r}
                </p>
              ))}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-ink-700">Services</h3>
        <ul className="mt-2 divide-y divide-ink-100 rounded-2xl border border-ink-200">
          {rows.map(([name, status]) => (
            <li key={name} className="flex items-center justify-between gap-3 px-4 py-2 text-sm">
              <span className="font-medium text-ink-900">{name}</span>
              <Badge tone={statusTone(status)}>{status}</Badge>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-ink-500">
          Version {health.version} · overall <strong>{health.status}</strong>
        </p>
        <p
          className={`mt-2 text-xs ${health.photos.warning ? 'rounded-lg bg-amber-50 p-2 text-amber-900' : 'text-ink-500'}`}
          data-testid="photo-key-health"
        >
          {health.photos.warning ? `Kept photos: ${health.photos.warning}.` : 'Kept photos: sealed with PHOTO_KEY.'}
        </p>
      </div>
    </div>
  );
}

/** The share of try-ons that succeeded (refusals of the photos count against it too), or a dash. */
function successRate(w: AdminEngineWindow): string {
  const all = w.succeeded + w.refused + w.failed;
  return all === 0 ? '–' : `${Math.round((w.succeeded / all) * 100)} %`;
}

/** Each engine over the last hour and the last day, as shoppers saw it. */
function EngineWindows({ engines }: { engines: AdminEngineWindow[] }) {
  if (engines.length === 0) return <p className="text-sm text-ink-500">No try-ons in the last day.</p>;
  const heads = [
    'Engine',
    'Window',
    'Success',
    'Try-ons',
    'Refused',
    'Failed',
    'Failed over',
    'p50',
    'p95',
    'Latest failure',
  ];
  return (
    <TableScroll label="Engines over the last hour and day">
      <table className="w-full" data-testid="engine-windows">
        <thead>
          <tr className="border-b border-ink-200">
            {heads.map((h) => (
              <th key={h} scope="col" className={thClass}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-100">
          {engines.map((w) => (
            <tr key={`${w.engine}|${w.window}`}>
              <td className={`${tdClass} font-medium`}>{w.engine}</td>
              <td className={tdClass}>{w.window === 'hour' ? 'Last hour' : 'Last day'}</td>
              <td className={tdClass}>{successRate(w)}</td>
              <td className={tdClass}>{formatNumber(w.succeeded + w.refused + w.failed)}</td>
              <td className={tdClass}>{formatNumber(w.refused)}</td>
              <td className={tdClass}>{formatNumber(w.failed)}</td>
              <td className={tdClass}>{formatNumber(w.failovers)}</td>
              <td className={tdClass}>{formatDuration(w.p50_ms)}</td>
              <td className={tdClass}>{formatDuration(w.p95_ms)}</td>
              <td className={tdClass}>
                {w.last_error ? `${w.last_error.code} · ${formatDateTime(w.last_error.at)}` : '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Overview: today's totals, the daily series as charts, and the health of engines and services. */
export function OverviewPage() {
  const [days, setDays] = useState<number>(30);
  const stats = useAdminData(`stats:${days}`, (signal) => getStats(days, signal));
  const health = useAdminData('health', (signal) => getHealth(signal));
  const periodId = useId();
  const series = stats.data?.days ?? [];
  const sum = (f: (d: AdminStatsDay) => number) => series.reduce((a, d) => a + f(d), 0);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-2xl font-extrabold tracking-tight text-ink-950">Overview</h2>
        <div className="flex items-center gap-2">
          <label htmlFor={periodId} className="text-sm font-semibold text-ink-700">
            Period
          </label>
          <select
            id={periodId}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            className={`${inputClass} w-auto`}
            data-testid="stats-period"
          >
            {PERIODS.map((n) => (
              <option key={n} value={n}>
                Last {n} days
              </option>
            ))}
          </select>
        </div>
      </div>

      {stats.error ? <ErrorNote message={stats.error} onRetry={stats.reload} /> : null}
      {stats.data ? (
        <>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-label="Totals">
            <Stat
              label="Credits outstanding"
              value={formatNumber(stats.data.totals.credits_outstanding)}
              testId="total-credits"
            />
            <Stat label="Active plans" value={formatNumber(stats.data.totals.active_plans)} testId="total-plans" />
            <Stat
              label={`Try-ons, ${days} days`}
              value={formatNumber(sum((d) => d.tryons.reduce((a, e) => a + e.succeeded + e.refused + e.failed, 0)))}
            />
            <Stat label={`New users, ${days} days`} value={formatNumber(sum((d) => d.new_users))} />
            <Stat
              className="col-span-2 lg:col-span-1"
              label={`Revenue, ${days} days`}
              value={<span className="text-lg">{revenueByCurrency(series)}</span>}
            />
          </dl>
          <Suspense fallback={<Loading label="Drawing the charts…" />}>
            <StatsCharts days={series} />
          </Suspense>
        </>
      ) : stats.loading ? (
        <Loading label="Loading the statistics…" />
      ) : null}

      {stats.data ? (
        <Panel title="Engines, last hour and last day">
          <EngineWindows engines={stats.data.engines} />
        </Panel>
      ) : null}

      {stats.data ? (
        <Panel title="Revenue, engine cost and margin">
          <EconomicsPanel stats={stats.data} />
        </Panel>
      ) : null}

      <Panel
        title="Health"
        actions={
          <button
            type="button"
            onClick={health.reload}
            className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Check again
          </button>
        }
      >
        {health.error ? <ErrorNote message={health.error} onRetry={health.reload} /> : null}
        {health.data ? <Health health={health.data} /> : health.loading ? <Loading label="Checking…" /> : null}
      </Panel>
    </div>
  );
}
