import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AdminEngineWindow, AdminHealthResponse, AdminStatsDay, AdminStatsResponse } from '@aidressup/contract';
import { ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { formatDateTime } from '../utils/format';
import { OverviewPage } from './overview-page';

interface Drawn {
  labels?: unknown[];
  datasets: { type?: string; label?: string; data: unknown[] }[];
}

/**
 * Chart.js draws on a canvas, which happy-dom cannot give it: each chart is drawn as a canvas that
 * holds what it was given to draw (its days, and each series with its kind and values).
 */
vi.mock('react-chartjs-2', () => {
  const stand = (kind: string) =>
    function Chart({ data, role, 'aria-label': label }: { data: Drawn; role?: string; 'aria-label'?: string }) {
      const datasets = data.datasets.map((d) => ({ type: d.type ?? kind, label: d.label, data: d.data }));
      return <canvas role={role} aria-label={label} data-drawn={JSON.stringify({ labels: data.labels, datasets })} />;
    };
  return { Bar: stand('bar'), Line: stand('line') };
});

// The charts' module is loaded once before the tests, as a browser would have it cached.
beforeAll(() => import('./stats-charts'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type EngineDay = AdminStatsDay['tryons'][number];
const engineDay = (engine: string, over: Partial<EngineDay> = {}): EngineDay => ({
  engine,
  succeeded: 0,
  refused: 0,
  failed: 0,
  p50_ms: null,
  p95_ms: null,
  failovers: 0,
  ...over,
});

function day(date: string, over: Partial<AdminStatsDay> = {}): AdminStatsDay {
  return {
    date,
    tryons: [],
    new_users: 0,
    purchases: [],
    reports: { created: 0, refunded: 0, rejected: 0 },
    economics: [],
    ...over,
  };
}

const lastError = { code: 'ENGINE_TIMEOUT', at: '2026-03-05T09:40:00.000Z' };
const engineWindow = (engine: string, over: Partial<AdminEngineWindow>): AdminEngineWindow => ({
  ...engineDay(engine),
  window: 'hour',
  last_error: null,
  ...over,
});

function stats(over: Partial<AdminStatsResponse> = {}): AdminStatsResponse {
  return {
    success: true,
    currency: 'USD',
    prices: [],
    totals: { credits_outstanding: 12_345, active_plans: 7 },
    // Oldest day first, as the API answers.
    days: [
      day('2026-03-04', {
        tryons: [
          engineDay('local', { succeeded: 3, p50_ms: 4_000, p95_ms: 4_540 }),
          engineDay('hosted-a', { succeeded: 10, refused: 2, failed: 1, p50_ms: 8_200, p95_ms: 15_300 }),
        ],
        new_users: 4,
        purchases: [
          { plan_id: 'pack_50', currency: 'USD', count: 2, revenue: '19.98' },
          { plan_id: 'pack_10_eur', currency: 'EUR', count: 1, revenue: '4.50' },
        ],
        reports: { created: 2, refunded: 1, rejected: 0 },
      }),
      day('2026-03-05', {
        tryons: [engineDay('hosted-a', { succeeded: 1_000, failed: 5, p50_ms: 9_000 })],
        new_users: 1,
        purchases: [
          { plan_id: null, currency: null, count: 1, revenue: null },
          { plan_id: 'pack_50', currency: 'USD', count: 1, revenue: '9.99' },
        ],
        reports: { created: 1, refunded: 0, rejected: 1 },
        economics: [{ engine: 'hosted-a', tryons: 1_000, revenue: '100.0000', cost: '15.0000', margin: '85.0000' }],
      }),
    ],
    engines: [
      engineWindow('hosted-a', { succeeded: 9, failed: 1, p50_ms: 8_200, p95_ms: 15_300, last_error: lastError }),
      engineWindow('hosted-a', {
        window: 'day',
        succeeded: 1_234,
        refused: 10,
        failed: 6,
        failovers: 3,
        p50_ms: 9_060,
        p95_ms: 20_000,
        last_error: lastError,
      }),
      engineWindow('local', { refused: 2 }),
    ],
    ...over,
  };
}

function health(over: Partial<AdminHealthResponse> = {}): AdminHealthResponse {
  return {
    status: 'degraded',
    version: '1.4.2',
    uptime: 3_600,
    checks: {
      database: { status: 'ok' },
      storage: { status: 'ok' },
      queue: { status: 'degraded', depth: 40 },
      engines: {
        'hosted-a': { status: 'ok' },
        local: { status: 'down', reasons: ['The engine server is not ready.', 'No model loaded.'] },
        'hosted-x': { status: 'disabled', reasons: 'not a list' },
      },
    },
    photos: { sealedWith: 'PHOTO_KEY', warning: null },
    ...over,
  };
}

/** The overview with `answer` behind fetch; the statistics and the health answer the fixtures unless it does. */
async function openPage(answer?: (req: Sent) => Response | undefined) {
  const sent = stubApi(
    (req) => answer?.(req) ?? (req.url.startsWith('/api/admin/stats') ? ok({ ...stats() }) : Response.json(health())),
  );
  render(<OverviewPage />);
  await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  return sent;
}

/** The figure shown under a name in the totals. */
const stat = (label: string) => screen.getByText(label).nextElementSibling!.textContent;
const options = () =>
  within(screen.getByLabelText('Period'))
    .getAllByRole('option')
    .map((o) => o.textContent);
const drawn = (canvas: HTMLElement) => JSON.parse(canvas.dataset.drawn!) as Drawn;
const rowsOf = (parent: HTMLElement) =>
  within(parent)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].map((c) => c.textContent));

describe('the overview', () => {
  it('asks for the last 30 days and the health, and adds the days up in the totals', async () => {
    const sent = await openPage();
    expect(sent.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/api/admin/stats?days=30'],
      ['GET', '/api/admin/health'],
    ]);
    expect(stat('Credits outstanding')).toBe('12,345');
    expect(stat('Active plans')).toBe('7');
    expect(stat('Try-ons, 30 days')).toBe('1,021');
    expect(stat('New users, 30 days')).toBe('5');
    expect(stat('Revenue, 30 days')).toBe('$29.97 · €4.50');
    expect(screen.getByRole('heading', { name: 'Revenue, engine cost and margin' })).toBeTruthy();
    expect(screen.getByTestId('economics-totals').textContent).toContain('$100.00');
  });

  it('asks for the period chosen and names the figures after it', async () => {
    const unpaid = { plan_id: 'pack_10_eur', currency: 'EUR', count: 1, revenue: null };
    const sent = await openPage((req) =>
      req.url === '/api/admin/stats?days=7'
        ? ok({ ...stats({ days: [day('2026-03-05', { new_users: 2, purchases: [unpaid] })] }) })
        : undefined,
    );
    expect(options()).toEqual(['Last 7 days', 'Last 30 days', 'Last 90 days']);
    await act(async () => fireEvent.change(screen.getByLabelText('Period'), { target: { value: '7' } }));
    expect(sent.at(-1)!.url).toBe('/api/admin/stats?days=7');
    expect(stat('Try-ons, 7 days')).toBe('0');
    expect(stat('New users, 7 days')).toBe('2');
    // A purchase without an amount recorded is no revenue.
    expect(stat('Revenue, 7 days')).toBe('–');
    expect(screen.queryByText('Try-ons, 30 days')).toBeNull();
  });

  it('shows each engine over the last hour and day: success, counts, engine times and the latest failure', async () => {
    await openPage();
    expect(rowsOf(screen.getByTestId('engine-windows'))).toEqual([
      [
        'hosted-a',
        'Last hour',
        '90 %',
        '10',
        '0',
        '1',
        '0',
        '8.2 s',
        '15.3 s',
        `ENGINE_TIMEOUT · ${formatDateTime(lastError.at)}`,
      ],
      [
        'hosted-a',
        'Last day',
        '99 %',
        '1,250',
        '10',
        '6',
        '3',
        '9.1 s',
        '20.0 s',
        expect.stringMatching(/^ENGINE_TIMEOUT · /),
      ],
      // Refusals of the photos count against the success too.
      ['local', 'Last hour', '0 %', '2', '2', '0', '0', '–', '–', '–'],
    ]);
  });

  it('says when no engine made a try-on in the last day', async () => {
    await openPage((req) => (req.url.startsWith('/api/admin/stats') ? ok({ ...stats({ engines: [] }) }) : undefined));
    expect(screen.getByText('No try-ons in the last day.')).toBeTruthy();
    expect(screen.queryByTestId('engine-windows')).toBeNull();
  });

  it('draws the charts once loaded, each with its figures per day and a spoken summary', async () => {
    await openPage();
    const tryons = await screen.findByTestId('chart-tryons');
    expect(rowsOf(tryons)).toEqual([
      ['2026-03-04', '13', '2', '1'],
      ['2026-03-05', '1000', '0', '5'],
    ]);
    expect(tryons.textContent).toContain(
      'Try-ons over the last 2 days: 1013 succeeded, 2 refused by the engine, 6 failed.',
    );
    const chart = within(tryons).getByRole('img', {
      name: 'Bar chart of try-ons per day by outcome, over the last 2 days',
    });
    expect(drawn(chart)).toEqual({
      labels: ['04 Mar', '05 Mar'],
      datasets: [
        { type: 'bar', label: 'Succeeded', data: [13, 1000] },
        { type: 'bar', label: 'Refused by the engine', data: [2, 0] },
        { type: 'bar', label: 'Failed', data: [1, 5] },
      ],
    });
    const timing = screen.getByTestId('chart-timing');
    expect(
      within(timing)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Day', 'hosted-a p50', 'hosted-a p95', 'local p50', 'local p95']);
    expect(rowsOf(timing)).toEqual([
      ['2026-03-04', '8.2', '15.3', '4', '4.5'],
      ['2026-03-05', '9', '–', '–', '–'],
    ]);
    expect(timing.textContent).toContain('Median and 95th percentile engine time per day for hosted-a, local.');
    const growth = screen.getByTestId('chart-growth');
    expect(rowsOf(growth)).toEqual([
      ['2026-03-04', '4', '3'],
      ['2026-03-05', '1', '2'],
    ]);
    expect(growth.textContent).toContain('5 new users and 5 purchases over the last 2 days.');
    // Purchases are a line over the bars of new users.
    expect(drawn(within(growth).getByRole('img')).datasets).toEqual([
      { type: 'bar', label: 'New users', data: [4, 1] },
      { type: 'line', label: 'Purchases', data: [3, 2] },
    ]);
    const reports = screen.getByTestId('chart-reports');
    expect(rowsOf(reports)).toEqual([
      ['2026-03-04', '2', '1', '0'],
      ['2026-03-05', '1', '0', '1'],
    ]);
    expect(reports.textContent).toContain('3 reported, 1 refunded and 1 rejected over the last 2 days.');
  });

  it('shows each engine’s health with its reasons, the services, the version and how photos are sealed', async () => {
    await openPage();
    const engines = screen.getByTestId('engine-health');
    expect(
      within(engines)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['hosted-aok', 'localdownThe engine server is not ready.No model loaded.', 'hosted-xdisabled']);
    const tone = (status: string) =>
      within(engines)
        .getByText(status)
        .className.match(/bg-(\w+)-/)![1];
    expect([tone('ok'), tone('down'), tone('disabled')]).toEqual(['emerald', 'red', 'ink']);
    const services = screen.getByRole('heading', { name: 'Services' }).nextElementSibling as HTMLElement;
    expect(
      within(services)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Databaseok', 'Storageok', 'Queuedegraded']);
    expect(within(services).getByText('degraded').className).toContain('bg-amber-50');
    expect(screen.getByText(/^Version/).textContent).toBe('Version 1.4.2 · overall degraded');
    expect(screen.getByTestId('photo-key-health').textContent).toBe('Kept photos: sealed with PHOTO_KEY.');
  });

  it('shows the checks the server sends with a 503, and warns how kept photos are sealed', async () => {
    const down = health({
      status: 'down',
      checks: { ...health().checks, database: { status: 'down' }, engines: {} },
      photos: { sealedWith: 'SESSION_SECRET', warning: 'a new SESSION_SECRET makes every kept photo unreadable' },
    });
    await openPage((req) => (req.url === '/api/admin/health' ? Response.json(down, { status: 503 }) : undefined));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('engine-health').textContent).toBe('No engines configured');
    expect(screen.getByText(/^Version/).textContent).toBe('Version 1.4.2 · overall down');
    expect(screen.getByTestId('photo-key-health').textContent).toBe(
      'Kept photos: a new SESSION_SECRET makes every kept photo unreadable.',
    );
  });

  it('says why the statistics could not be loaded and loads them again when asked', async () => {
    let attempts = 0;
    const sent = await openPage((req) =>
      req.url.startsWith('/api/admin/stats') && ++attempts === 1
        ? refuse(500, 'INTERNAL', 'The statistics are not ready.')
        : undefined,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The statistics are not ready.');
    expect(screen.queryByText('Credits outstanding')).toBeNull();
    expect(screen.queryByTestId('engine-windows')).toBeNull();
    expect(screen.getByTestId('engine-health')).toBeTruthy();

    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Try again' })));
    expect(sent.map((r) => r.url)).toEqual([
      '/api/admin/stats?days=30',
      '/api/admin/health',
      '/api/admin/stats?days=30',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(stat('Credits outstanding')).toBe('12,345');
  });

  it('says why the health could not be checked, and checks again when asked', async () => {
    let attempts = 0;
    const sent = await openPage((req) =>
      req.url === '/api/admin/health' && ++attempts === 1
        ? refuse(500, 'INTERNAL', 'The health check failed.')
        : undefined,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The health check failed.');
    expect(screen.queryByTestId('engine-health')).toBeNull();
    expect(stat('Credits outstanding')).toBe('12,345');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Check again' })));
    expect(sent.filter((r) => r.url === '/api/admin/health')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('engine-health')).toBeTruthy();
  });
});
