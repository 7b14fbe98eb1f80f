import type { AdminEnginePrice, AdminStatsResponse } from '@aidressup/contract';
import { formatDay, formatMoney, formatNumber } from '../utils/format';
import { TableScroll, tdClass, thClass } from './admin-ui';

const SOURCE: Record<AdminEnginePrice['source'], string> = {
  'price-list': 'Provider’s price list',
  configured: 'ENGINE_COSTS',
  'own-hardware': 'Own hardware',
  unknown: 'Not published: set ENGINE_COSTS',
};

function Head({ cells }: { cells: string[] }) {
  return (
    <thead>
      <tr className="border-b border-ink-200">
        {cells.map((h) => (
          <th key={h} scope="col" className={thClass}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Adds decimal strings exactly enough for display (ten-thousandths). */
const sum = (values: string[]) => values.reduce((a, v) => a + Math.round(Number(v) * 10_000), 0) / 10_000;

/**
 * What the try-ons earned (the credits they used, at their purchase price), what the engines
 * charged for them, and the margin: per engine over the period and per day, in the plans'
 * currency; then each engine's price with the date it was read.
 */
export function EconomicsPanel({ stats }: { stats: AdminStatsResponse }) {
  const { currency } = stats;
  const money = (v: string | number) => formatMoney(v, currency);
  const rows = stats.days.flatMap((d) => d.economics.map((e) => ({ ...e, date: d.date }))).reverse();
  const engines = [...new Set(rows.map((r) => r.engine))].sort();
  const totals = engines.map((engine) => {
    const of = rows.filter((r) => r.engine === engine);
    return {
      engine,
      tryons: of.reduce((a, r) => a + r.tryons, 0),
      revenue: sum(of.map((r) => r.revenue)),
      cost: sum(of.map((r) => r.cost)),
      margin: sum(of.map((r) => r.margin)),
    };
  });
  const failovers = stats.days.reduce((a, d) => a + d.tryons.reduce((b, e) => b + (e.failovers ?? 0), 0), 0);
  const heads = ['Engine', 'Try-ons', 'Revenue', 'Engine cost', 'Margin'];
  return (
    <div className="space-y-3">
      <p className="text-sm text-ink-600">
        In {currency}. Revenue is what the credits used were bought for (free trials and credits given by an operator
        earn nothing); engine cost is each engine’s price for the images it made.{' '}
        {failovers > 0 ? `${formatNumber(failovers)} try-ons failed over to another engine in this period.` : null}
      </p>
      {rows.length === 0 ? (
        <p className="text-sm text-ink-500">No try-ons made in this period.</p>
      ) : (
        <>
          <h3 className="text-sm font-semibold text-ink-700">By engine, over the days shown</h3>
          <TableScroll label="Revenue, engine cost and margin by engine, over the days shown">
            <table className="w-full" data-testid="economics-totals">
              <Head cells={heads} />
              <tbody className="divide-y divide-ink-100">
                {totals.map((r) => (
                  <tr key={r.engine}>
                    <td className={`${tdClass} font-medium`}>{r.engine}</td>
                    <td className={tdClass}>{formatNumber(r.tryons)}</td>
                    <td className={tdClass}>{money(r.revenue)}</td>
                    <td className={tdClass}>{money(r.cost)}</td>
                    <td className={`${tdClass} ${r.margin < 0 ? 'text-red-700' : ''}`}>{money(r.margin)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <h3 className="text-sm font-semibold text-ink-700">Per day and engine</h3>
          <TableScroll label="Revenue, engine cost and margin per day and engine">
            <table className="w-full" data-testid="economics-days">
              <Head cells={['Day', ...heads]} />
              <tbody className="divide-y divide-ink-100">
                {rows.map((r) => (
                  <tr key={`${r.date}|${r.engine}`}>
                    <td className={tdClass}>{formatDay(r.date)}</td>
                    <td className={`${tdClass} font-medium`}>{r.engine}</td>
                    <td className={tdClass}>{formatNumber(r.tryons)}</td>
                    <td className={tdClass}>{money(r.revenue)}</td>
                    <td className={tdClass}>{money(r.cost)}</td>
                    <td className={`${tdClass} ${Number(r.margin) < 0 ? 'text-red-700' : ''}`}>{money(r.margin)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
      <h3 className="text-sm font-semibold text-ink-700">Engine prices</h3>
      <TableScroll label="Engine prices">
        <table className="w-full" data-testid="engine-prices">
          <Head cells={['Engine', 'Per image', 'Per extra garment', 'Price from', 'Read on']} />
          <tbody className="divide-y divide-ink-100">
            {stats.prices.map((p) => (
              <tr key={p.engine}>
                <td className={`${tdClass} font-medium`}>{p.engine}</td>
                <td className={tdClass}>{money(p.per_image)}</td>
                <td className={tdClass}>{money(p.per_extra_garment)}</td>
                <td className={tdClass}>{SOURCE[p.source]}</td>
                <td className={tdClass}>{p.read_on ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
