import type { ReactNode } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import type { AdminStatsDay } from '@aidressup/contract';
import { formatDay } from '../utils/format';
import { TableScroll, tdClass, thClass } from './admin-ui';

// Only the pieces these charts use (Chart.js is tree-shaken; this module is the console's chunk only).
ChartJS.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

const COLORS = {
  good: '#10b981',
  warn: '#f59e0b',
  bad: '#ef4444',
  brand: '#8b5cf6',
  accent: '#d946ef',
  ink: '#71717a',
  sky: '#0ea5e9',
};
const LINE_COLORS = [COLORS.brand, COLORS.accent, COLORS.sky, COLORS.good, COLORS.warn, COLORS.ink];

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Series {
  label: string;
  values: (number | null)[];
  color: string;
  /** Drawn as a line over the bars. */
  line?: boolean;
}

function baseOptions(stacked: boolean, yTitle: string): ChartOptions<'bar'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12 } } },
    scales: {
      x: { stacked, grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
      y: { stacked, beginAtZero: true, title: { display: true, text: yTitle }, ticks: { precision: 0 } },
    },
  };
}

/**
 * One chart with its title, a spoken summary (the canvas is an image to screen readers) and the
 * same figures as a table under "Show the figures".
 */
function ChartFigure({
  title,
  summary,
  labels,
  series,
  children,
  testId,
}: {
  title: string;
  summary: string;
  labels: string[];
  series: Series[];
  children: ReactNode;
  testId: string;
}) {
  return (
    <figure className="min-w-0 rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-5" data-testid={testId}>
      <figcaption className="font-bold text-ink-950">{title}</figcaption>
      <div className="relative mt-3 h-60 sm:h-64">{children}</div>
      <p className="sr-only">{summary}</p>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer rounded font-semibold text-brand-700 focus-visible:outline-3 focus-visible:outline-brand-500">
          Show the figures
        </summary>
        <TableScroll label={`${title}: figures`}>
          <table className="mt-2 w-full">
            <thead>
              <tr className="border-b border-ink-200">
                <th scope="col" className={thClass}>
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className={thClass}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((day, i) => (
                <tr key={day} className="border-b border-ink-100" data-testid="chart-row">
                  <th scope="row" className={`${tdClass} font-medium whitespace-nowrap`}>
                    {day}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className={`${tdClass} tabular-nums`}>
                      {s.values[i] ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}

function barData(labels: string[], series: Series[]): ChartData<'bar', (number | null)[], string> {
  return {
    labels,
    datasets: series.map((s) =>
      s.line
        ? ({
            type: 'line' as const,
            label: s.label,
            data: s.values,
            borderColor: s.color,
            backgroundColor: s.color,
            pointRadius: 2,
            tension: 0.25,
          } as unknown as ChartData<'bar', (number | null)[], string>['datasets'][number])
        : { label: s.label, data: s.values, backgroundColor: s.color, borderRadius: 3, maxBarThickness: 28 },
    ),
  };
}

/** The overview's four charts of the daily series. */
export function StatsCharts({ days }: { days: AdminStatsDay[] }) {
  const labels = days.map((d) => d.date);
  const axis = days.map((d) => formatDay(d.date));
  const outcome = (key: 'succeeded' | 'refused' | 'failed') => days.map((d) => sum(d.tryons.map((e) => e[key])));

  const tryons: Series[] = [
    { label: 'Succeeded', values: outcome('succeeded'), color: COLORS.good },
    { label: 'Refused by the engine', values: outcome('refused'), color: COLORS.warn },
    { label: 'Failed', values: outcome('failed'), color: COLORS.bad },
  ];
  const engines = [...new Set(days.flatMap((d) => d.tryons.map((e) => e.engine)))].sort();
  const seconds = (ms: number | null | undefined) => (ms == null ? null : Math.round(ms / 100) / 10);
  const timing: Series[] = engines.flatMap((engine, i) =>
    (['p50_ms', 'p95_ms'] as const).map((key, j) => ({
      label: `${engine} ${key === 'p50_ms' ? 'p50' : 'p95'}`,
      values: days.map((d) => seconds(d.tryons.find((e) => e.engine === engine)?.[key])),
      color: LINE_COLORS[(i * 2 + j) % LINE_COLORS.length]!,
    })),
  );
  const growth: Series[] = [
    { label: 'New users', values: days.map((d) => d.new_users), color: COLORS.brand },
    {
      label: 'Purchases',
      values: days.map((d) => sum(d.purchases.map((p) => p.count))),
      color: COLORS.accent,
      line: true,
    },
  ];
  const reports: Series[] = [
    { label: 'Reported', values: days.map((d) => d.reports.created), color: COLORS.warn },
    { label: 'Refunded', values: days.map((d) => d.reports.refunded), color: COLORS.good },
    { label: 'Rejected', values: days.map((d) => d.reports.rejected), color: COLORS.ink },
  ];
  const total = (s: Series) => sum(s.values.map((v) => v ?? 0));
  const period = `over the last ${days.length} days`;

  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <ChartFigure
        title="Try-ons per day"
        testId="chart-tryons"
        summary={`Try-ons ${period}: ${tryons.map((s) => `${total(s)} ${s.label.toLowerCase()}`).join(', ')}.`}
        labels={labels}
        series={tryons}
      >
        <Bar
          data={barData(axis, tryons)}
          options={baseOptions(true, 'Try-ons')}
          role="img"
          aria-label={`Bar chart of try-ons per day by outcome, ${period}`}
        />
      </ChartFigure>
      <ChartFigure
        title="Engine time of succeeded try-ons (seconds)"
        testId="chart-timing"
        summary={
          engines.length === 0
            ? `No succeeded try-ons ${period}.`
            : `Median and 95th percentile engine time per day for ${engines.join(', ')}.`
        }
        labels={labels}
        series={timing}
      >
        <Line
          data={{
            labels: axis,
            datasets: timing.map((s) => ({
              label: s.label,
              data: s.values,
              borderColor: s.color,
              backgroundColor: s.color,
              pointRadius: 2,
              spanGaps: true,
              tension: 0.25,
            })),
          }}
          options={{
            ...(baseOptions(false, 'Seconds') as unknown as ChartOptions<'line'>),
            scales: {
              x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
              y: { beginAtZero: true, title: { display: true, text: 'Seconds' } },
            },
          }}
          role="img"
          aria-label={`Line chart of engine time per day, ${period}`}
        />
      </ChartFigure>
      <ChartFigure
        title="New users and purchases"
        testId="chart-growth"
        summary={`${total(growth[0]!)} new users and ${total(growth[1]!)} purchases ${period}.`}
        labels={labels}
        series={growth}
      >
        <Bar
          data={barData(axis, growth)}
          options={baseOptions(false, 'Count')}
          role="img"
          aria-label={`Chart of new users and purchases per day, ${period}`}
        />
      </ChartFigure>
      <ChartFigure
        title="Reports of bad results"
        testId="chart-reports"
        summary={`${total(reports[0]!)} reported, ${total(reports[1]!)} refunded and ${total(reports[2]!)} rejected ${period}.`}
        labels={labels}
        series={reports}
      >
        <Bar
          data={barData(axis, reports)}
          options={baseOptions(false, 'Reports')}
          role="img"
          aria-label={`Bar chart of reports made, refunded and rejected per day, ${period}`}
        />
      </ChartFigure>
    </div>
  );
}
