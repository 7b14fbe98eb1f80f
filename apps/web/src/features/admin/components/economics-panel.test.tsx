import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { AdminEngineEconomics, AdminStatsDay, AdminStatsResponse } from '@aidressup/contract';
import { EconomicsPanel } from './economics-panel';

afterEach(cleanup);

function day(date: string, economics: AdminEngineEconomics[], failovers = 0): AdminStatsDay {
  return {
    date,
    tryons: [{ engine: 'hosted-a', succeeded: 1, refused: 0, failed: 0, p50_ms: null, p95_ms: null, failovers }],
    new_users: 0,
    purchases: [],
    reports: { created: 0, refunded: 0, rejected: 0 },
    economics,
  };
}

function stats(over: Partial<AdminStatsResponse> = {}): AdminStatsResponse {
  return {
    success: true,
    currency: 'USD',
    engines: [],
    totals: { credits_outstanding: 0, active_plans: 0 },
    // Oldest day first, as the API answers.
    days: [
      day(
        '2026-03-04',
        [
          { engine: 'hosted-b', tryons: 2, revenue: '0.2000', cost: '0.0300', margin: '0.1700' },
          { engine: 'hosted-a', tryons: 1, revenue: '0.1000', cost: '0.1150', margin: '-0.0150' },
          { engine: 'hosted-c', tryons: 1, revenue: '0.0000', cost: '0.0250', margin: '-0.0250' },
        ],
        2,
      ),
      day(
        '2026-03-05',
        [{ engine: 'hosted-a', tryons: 1_200, revenue: '120.2000', cost: '18.0450', margin: '102.1550' }],
        1,
      ),
    ],
    prices: [
      {
        engine: 'hosted-a',
        per_image: '0.0150',
        per_extra_garment: '0.0075',
        source: 'price-list',
        read_on: '2026-01-10',
      },
      { engine: 'local', per_image: '0', per_extra_garment: '0', source: 'own-hardware', read_on: null },
      { engine: 'hosted-x', per_image: '0', per_extra_garment: '0', source: 'unknown', read_on: null },
      { engine: 'hosted-y', per_image: '0.02', per_extra_garment: '0.01', source: 'configured', read_on: '2026-02-01' },
    ],
    ...over,
  };
}

const rowsOf = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell'));
const texts = (rows: HTMLElement[][]) => rows.map((cells) => cells.map((c) => c.textContent));

describe('the economics panel', () => {
  it('adds each engine’s days up, engines in order, in the plans’ currency to four places', () => {
    render(<EconomicsPanel stats={stats()} />);
    expect(texts(rowsOf('economics-totals'))).toEqual([
      ['hosted-a', '1,201', '$120.30', '$18.16', '$102.14'],
      ['hosted-b', '2', '$0.20', '$0.03', '$0.17'],
      ['hosted-c', '1', '$0.00', '$0.025', '-$0.025'],
    ]);
  });

  it('lists each day and engine, the newest day first', () => {
    render(<EconomicsPanel stats={stats()} />);
    expect(texts(rowsOf('economics-days'))).toEqual([
      ['05 Mar', 'hosted-a', '1,200', '$120.20', '$18.045', '$102.155'],
      ['04 Mar', 'hosted-c', '1', '$0.00', '$0.025', '-$0.025'],
      ['04 Mar', 'hosted-a', '1', '$0.10', '$0.115', '-$0.015'],
      ['04 Mar', 'hosted-b', '2', '$0.20', '$0.03', '$0.17'],
    ]);
  });

  it('marks a loss in red, in the totals and per day, and nothing else', () => {
    render(<EconomicsPanel stats={stats()} />);
    const red = (rows: HTMLElement[][]) => rows.map((cells) => cells.at(-1)!.classList.contains('text-red-700'));
    expect(red(rowsOf('economics-totals'))).toEqual([false, false, true]);
    expect(red(rowsOf('economics-days'))).toEqual([false, true, true, false]);
  });

  it('says how many try-ons failed over, and where each engine’s price comes from', () => {
    render(<EconomicsPanel stats={stats()} />);
    expect(screen.getByText(/In USD\./).textContent).toContain(
      '3 try-ons failed over to another engine in this period.',
    );
    expect(texts(rowsOf('engine-prices'))).toEqual([
      ['hosted-a', '$0.015', '$0.0075', 'Provider’s price list', '2026-01-10'],
      ['local', '$0.00', '$0.00', 'Own hardware', '–'],
      ['hosted-x', '$0.00', '$0.00', 'Not published: set ENGINE_COSTS', '–'],
      ['hosted-y', '$0.02', '$0.01', 'ENGINE_COSTS', '2026-02-01'],
    ]);
  });

  it('says when no try-on was made, with the prices still shown in the currency given', () => {
    render(
      <EconomicsPanel
        stats={stats({
          currency: 'EUR',
          days: [day('2026-03-05', [])],
          prices: [
            { engine: 'hosted-a', per_image: '1234.5', per_extra_garment: '0', source: 'configured', read_on: null },
          ],
        })}
      />,
    );
    expect(screen.getByText('No try-ons made in this period.')).toBeTruthy();
    expect(screen.queryByTestId('economics-totals')).toBeNull();
    expect(screen.queryByTestId('economics-days')).toBeNull();
    expect(screen.getByText(/In EUR\./).textContent).not.toContain('failed over');
    expect(texts(rowsOf('engine-prices'))).toEqual([['hosted-a', '€1,234.50', '€0.00', 'ENGINE_COSTS', '–']]);
  });
});
