import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AdminReport } from '@aidressup/contract';
import { adminReport, later, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { formatDateTime } from '../utils/format';
import { ReportsPage } from './reports-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const queue = [
  adminReport({
    id: 'r1',
    reason: 'wrong_garment',
    note: 'That is not my dress',
    units: 2,
    engine: 'hosted-a',
    category: 'dresses',
    result_url: '/api/admin/tryons/t1/result',
  }),
  adminReport({ id: 'r2', tryon_id: 't2', reason: 'badly_placed', user: { id: 'u2', email: null } }),
];

/** The reports page with the lists by status and `decide` behind fetch. */
async function openPage(
  lists: Partial<Record<AdminReport['status'], AdminReport[]>>,
  decide: (req: Sent) => Response | Promise<Response> = (req) =>
    ok({
      report: {
        ...queue[0]!,
        status: (req.body as { decision: string }).decision === 'refund' ? 'refunded' : 'rejected',
      },
    }),
) {
  const sent = stubApi((req) => {
    if (req.method === 'POST') return decide(req);
    const status = new URL(req.url, 'http://x').searchParams.get('status') as AdminReport['status'];
    return ok({ items: lists[status] ?? [] });
  });
  render(
    <MemoryRouter>
      <ReportsPage />
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.queryByText('Loading the reports…')).toBeNull());
  return sent;
}

const cards = () => screen.queryAllByTestId('report-item');

describe('the reports page', () => {
  it('shows the pending queue: the reason, who reported it, what it cost and the shopper’s note', async () => {
    const sent = await openPage({ pending: queue });
    expect(sent[0]).toEqual({ method: 'GET', url: '/api/admin/reports?status=pending&limit=200', body: undefined });
    const [first, second] = cards();
    expect(within(first!).getByRole('heading').textContent).toBe('Wrong garment reported by ana@example.com');
    expect(first!.textContent).toContain(`${formatDateTime(queue[0]!.created_at)} · 2 units · hosted-a · dresses`);
    expect(within(first!).getByRole('link', { name: 'ana@example.com' }).getAttribute('href')).toBe('/admin/users/u1');
    expect(first!.textContent).toContain('“That is not my dress”');
    // A shopper without an email is named by the account id.
    expect(within(second!).getByRole('heading').textContent).toBe('Garment badly placed reported by u2');
    expect(second!.textContent).toContain('1 unit');
    expect(second!.textContent).toContain('No note from the shopper.');
    expect(within(second!).getByText('No result')).toBeTruthy();
  });

  it('loads the result only when the operator asks to see it', async () => {
    const sent = await openPage({ pending: queue });
    const first = cards()[0]!;
    expect(within(first).queryByRole('img')).toBeNull();
    fireEvent.click(
      within(first).getByRole('button', { name: 'Show result of the result reported by ana@example.com' }),
    );
    const img = within(first).getByRole('img', { name: 'Result of the result reported by ana@example.com' });
    expect(img.getAttribute('src')).toBe('/api/admin/tryons/t1/result');
    expect(sent).toHaveLength(1);
  });

  it('refunds with the operator’s note, takes the report off the queue and says so', async () => {
    const sent = await openPage({ pending: queue });
    const first = cards()[0]!;
    fireEvent.change(within(first).getByLabelText('Note for the audit log (optional)'), {
      target: { value: '  clearly the wrong garment ' },
    });
    await act(async () => fireEvent.click(within(first).getByRole('button', { name: 'Refund' })));
    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/reports/r1',
      body: { decision: 'refund', note: 'clearly the wrong garment' },
    });
    expect(cards()).toHaveLength(1);
    expect(screen.queryByText('That is not my dress', { exact: false })).toBeNull();
    expect(screen.getByTestId('reports-status').textContent).toBe(
      'Refunded: Wrong garment reported by ana@example.com.',
    );
  });

  it('rejects with the standing note when the operator writes none', async () => {
    const sent = await openPage({ pending: queue }, () =>
      ok({ report: { ...queue[1]!, status: 'rejected', decided_at: '2026-03-03T00:00:00Z', decision_note: 'x' } }),
    );
    await act(async () => fireEvent.click(within(cards()[1]!).getByRole('button', { name: 'Reject' })));
    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/reports/r2',
      body: { decision: 'reject', note: 'Rejected from the report queue' },
    });
    expect(screen.getByTestId('reports-status').textContent).toBe('Rejected: Garment badly placed reported by u2.');
    expect(cards()).toHaveLength(1);
  });

  it('holds both buttons while a decision is on its way, and keeps the report with the server’s refusal', async () => {
    const answer = later();
    const sent = await openPage({ pending: queue }, () => answer.response);
    const first = cards()[0]!;
    await act(async () => fireEvent.click(within(first).getByRole('button', { name: 'Refund' })));
    const refunding = within(first).getByRole('button', { name: 'Refunding…' }) as HTMLButtonElement;
    expect(refunding.disabled).toBe(true);
    expect((within(first).getByRole('button', { name: 'Reject' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(first).getByRole('button', { name: 'Reject' }));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);

    await act(async () => answer.send(refuse(409, 'REPORT_DECIDED', 'This report was decided already.')));
    expect(within(first).getByRole('alert').textContent).toBe('This report was decided already.');
    expect(cards()).toHaveLength(2);
    expect((within(first).getByRole('button', { name: 'Refund' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('reports-status').textContent).toBe('');
  });

  it('says the queue is empty, and shows decided reports without buttons when asked for them', async () => {
    const refunded = adminReport({
      id: 'r9',
      status: 'refunded',
      decided_at: '2026-03-04T09:00:00.000Z',
      decided_by: null,
      decision_note: 'first report in 30 days',
    });
    const sent = await openPage({ pending: [], refunded: [refunded] });
    expect(screen.getByTestId('reports-empty').textContent).toBe('The queue is empty: no report is waiting.');

    await act(async () => fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'refunded' } }));
    expect(sent[1]!.url).toBe('/api/admin/reports?status=refunded&limit=200');
    const card = cards()[0]!;
    expect(card.textContent).toContain(
      `Refunded ${formatDateTime('2026-03-04T09:00:00.000Z')} by automatic refund · first report in 30 days`,
    );
    expect(within(card).queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(within(card).queryByLabelText('Note for the audit log (optional)')).toBeNull();
    expect(screen.getByRole('list', { name: 'Refunded reports' })).toBeTruthy();

    await act(async () => fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'rejected' } }));
    expect(screen.getByTestId('reports-empty').textContent).toBe('No rejected reports.');
  });

  it('says why the reports could not be loaded', async () => {
    stubApi(() => refuse(500, 'INTERNAL', 'The reports could not be loaded right now.'));
    render(
      <MemoryRouter>
        <ReportsPage />
      </MemoryRouter>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The reports could not be loaded right now.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByTestId('reports-empty')).toBeNull();
  });
});
