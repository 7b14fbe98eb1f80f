import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AdminAuditEntry } from '@aidressup/contract';
import { later, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { formatDateTime } from '../utils/format';
import { AuditPage } from './audit-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function entry(over: Partial<AdminAuditEntry> = {}): AdminAuditEntry {
  return {
    id: 'a1',
    created_at: '2026-03-05T10:00:00.000Z',
    actor: { id: 'op1', email: 'op@example.com' },
    action: 'credits.add',
    target_type: 'user',
    target_id: 'u1',
    target_user_id: 'u1',
    reason: 'goodwill, ticket 7',
    before: { credits: 12 },
    after: { credits: 37 },
    ...over,
  };
}

// Newest first, as the API answers.
const newest = [
  entry(),
  entry({
    id: 'a2',
    created_at: '2026-03-05T09:00:00.000Z',
    actor: { id: 'op2', email: null },
    action: 'user.block',
    target_id: 'u 2',
    target_user_id: 'u 2',
    reason: 'card testing',
    before: null,
    after: { blocked: true },
  }),
  entry({
    id: 'a3',
    created_at: '2026-03-05T08:00:00.000Z',
    actor: { id: null, email: null },
    action: 'report.refund',
    target_type: 'report',
    target_id: 'r1',
    target_user_id: null,
    reason: null,
    before: { status: 'pending', units: 2 },
    after: null,
  }),
  entry({
    id: 'a4',
    created_at: '2026-03-05T07:00:00.000Z',
    action: 'merchant.create',
    target_type: 'merchant',
    target_id: 'm1',
    target_user_id: null,
    before: null,
    after: { origins: ['https://shop.example'], billing: { by: 'merchant' } },
  }),
];
const older = [
  entry({ id: 'a5', created_at: '2026-03-04T10:00:00.000Z', action: 'result.view', before: null, after: null }),
];

/** The audit page; each page of the log answers `answer` (the newest four, then no more, unless told). */
async function openPage(
  answer: (req: Sent) => Response | Promise<Response> = () => ok({ items: newest, nextCursor: null }),
) {
  const sent = stubApi(answer);
  render(
    <MemoryRouter>
      <AuditPage />
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  return sent;
}

/** The first page with a cursor to the older entries, then the older ones (or `more`'s answer). */
const paged =
  (more: () => Response | Promise<Response> = () => ok({ items: older, nextCursor: null })) =>
  (req: Sent) =>
    req.url.includes('before=') ? more() : ok({ items: newest, nextCursor: 'c_1' });

const rows = () =>
  screen.queryAllByTestId('audit-row').map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  );
const title = () => screen.getByRole('heading', { level: 2, name: /entries loaded$/ }).textContent;
const options = (label: string) =>
  within(screen.getByLabelText(label))
    .getAllByRole('option')
    .map((o) => o.textContent);
const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const more = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load older entries' })));

describe('the audit log', () => {
  it('loads the newest 100 entries: when, who, what, on what, why and what changed', async () => {
    const sent = await openPage();
    expect(sent).toEqual([{ method: 'GET', url: '/api/admin/audit?limit=100', body: undefined }]);
    expect(title()).toBe('4 of 4 entries loaded');
    expect(rows()).toEqual([
      [
        formatDateTime('2026-03-05T10:00:00.000Z'),
        'op@example.com',
        'credits.add',
        'useru1',
        'goodwill, ticket 7',
        'credits: 12 → credits: 37',
      ],
      [formatDateTime('2026-03-05T09:00:00.000Z'), 'op2', 'user.block', 'useru 2', 'card testing', 'blocked: true'],
      [
        formatDateTime('2026-03-05T08:00:00.000Z'),
        'system',
        'report.refund',
        'reportr1',
        '–',
        'status: pending, units: 2',
      ],
      [
        formatDateTime('2026-03-05T07:00:00.000Z'),
        'op@example.com',
        'merchant.create',
        'merchantm1',
        'goodwill, ticket 7',
        'origins: ["https://shop.example"], billing: {"by":"merchant"}',
      ],
    ]);
    const [first, second, third] = screen.getAllByTestId('audit-row');
    expect(within(first!).getByRole('link', { name: 'u1' }).getAttribute('href')).toBe('/admin/users/u1');
    expect(within(second!).getByRole('link', { name: 'u 2' }).getAttribute('href')).toBe('/admin/users/u%202');
    expect(within(third!).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load older entries' })).toBeNull();
  });

  it('offers each operator seen, and every known action with the ones seen, in order', async () => {
    await openPage();
    expect(options('Operator')).toEqual(['Everyone', 'op2', 'op@example.com', 'system']);
    expect(options('Action')).toEqual([
      'All actions',
      'credits.add',
      'credits.remove',
      'merchant.create',
      'report.refund',
      'report.reject',
      'result.view',
      'user.block',
      'user.unblock',
    ]);
  });

  it('filters by operator and by action together, and says when nothing loaded matches', async () => {
    await openPage();
    choose('Operator', 'op@example.com');
    expect(title()).toBe('2 of 4 entries loaded');
    expect(rows().map((r) => r[2])).toEqual(['credits.add', 'merchant.create']);
    choose('Action', 'merchant.create');
    expect(title()).toBe('1 of 4 entries loaded');
    expect(rows().map((r) => r[2])).toEqual(['merchant.create']);
    choose('Action', 'user.unblock');
    expect(title()).toBe('0 of 4 entries loaded');
    expect(screen.getByText('No entry matches.')).toBeTruthy();
    expect(screen.queryByTestId('audit-table')).toBeNull();
    choose('Operator', '');
    choose('Action', '');
    expect(rows()).toHaveLength(4);
  });

  it('with older entries still to load, says nothing matches among those loaded', async () => {
    await openPage(paged());
    choose('Operator', 'system');
    choose('Action', 'credits.remove');
    expect(screen.getByText(/^No entry matches/).textContent).toBe(
      'No entry matches among those loaded; load more to look further back.',
    );
  });

  it('loads the older entries after the last one, below the others and through the filters', async () => {
    const answer = later();
    const sent = await openPage(paged(() => answer.response));
    choose('Action', 'result.view');
    expect(rows()).toEqual([]);
    await more();
    expect(sent[1]).toEqual({ method: 'GET', url: '/api/admin/audit?limit=100&before=c_1', body: undefined });
    const loading = screen.getByTestId('audit-more') as HTMLButtonElement;
    expect(loading.textContent).toBe('Loading…');
    expect(loading.disabled).toBe(true);

    await act(async () => answer.send(ok({ items: older, nextCursor: null })));
    expect(title()).toBe('1 of 5 entries loaded');
    expect(rows().map((r) => r[2])).toEqual(['result.view']);
    expect(rows()[0]![5]).toBe('–');
    choose('Action', '');
    expect(screen.getAllByTestId('audit-row').map((r) => r.textContent?.includes('result.view'))).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    // The last page: nothing older to load.
    expect(screen.queryByTestId('audit-more')).toBeNull();
  });

  it('keeps what was loaded when older entries fail to load, and asks for the same page again', async () => {
    let attempts = 0;
    const sent = await openPage(
      paged(() =>
        ++attempts === 1
          ? refuse(503, 'UNAVAILABLE', 'The audit log is busy.')
          : ok({ items: older, nextCursor: null }),
      ),
    );
    await more();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The audit log is busy.');
    expect(rows()).toHaveLength(4);
    expect((screen.getByTestId('audit-more') as HTMLButtonElement).disabled).toBe(false);

    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Try again' })));
    expect(sent.map((r) => r.url)).toEqual([
      '/api/admin/audit?limit=100',
      '/api/admin/audit?limit=100&before=c_1',
      '/api/admin/audit?limit=100&before=c_1',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rows()).toHaveLength(5);
  });

  it('says it is loading, then why the log could not be loaded, and loads it when asked again', async () => {
    let attempts = 0;
    const sent = stubApi(() =>
      ++attempts === 1
        ? refuse(500, 'INTERNAL', 'The audit log could not be read.')
        : ok({ items: [], nextCursor: null }),
    );
    render(
      <MemoryRouter>
        <AuditPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading the audit log…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The audit log could not be read.');
    expect(screen.queryByRole('heading', { level: 2, name: /entries loaded$/ })).toBeNull();

    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Try again' })));
    expect(sent.map((r) => r.url)).toEqual(['/api/admin/audit?limit=100', '/api/admin/audit?limit=100']);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(title()).toBe('0 of 0 entries loaded');
    expect(screen.queryByTestId('audit-table')).toBeNull();
    expect(screen.queryByTestId('audit-more')).toBeNull();
  });
});
