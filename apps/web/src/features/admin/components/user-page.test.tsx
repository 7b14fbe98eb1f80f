import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AdminUserDetail } from '@aidressup/contract';
import { adminUserDetail, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { renderAt, runAction, tableRows } from '../test/render-page';
import { formatDateTime } from '../utils/format';
import { UserPage } from './user-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The account's page with `answer` behind fetch; GET /api/admin/users/u1 answers `user` unless `answer` does. */
async function openPage(user: AdminUserDetail, answer?: (req: Sent) => Response | undefined) {
  const sent = stubApi((req) => answer?.(req) ?? ok({ user }));
  renderAt('/admin/users/u1', '/admin/users/:id', <UserPage />);
  await screen.findByTestId('user-title');
  return sent;
}

describe('an account’s page', () => {
  it('loads the account by the id in the address and shows its balance and the empty tables', async () => {
    const sent = await openPage(adminUserDetail({ credits: 1234 }));
    expect(sent[0]).toEqual({ method: 'GET', url: '/api/admin/users/u1', body: undefined });
    expect(screen.getByTestId('user-title').textContent).toBe('ana@example.com');
    expect(screen.getByTestId('admin-user-credits').textContent).toBe('1234');
    expect(screen.getByText('1 / 2')).toBeTruthy();
    expect(screen.getByText(/No subscription/)).toBeTruthy();
    expect(screen.getByText('No credit movements.')).toBeTruthy();
    expect(screen.getByText('No try-ons.')).toBeTruthy();
    expect(screen.getByText('No credit grants.')).toBeTruthy();
    expect((screen.getByTestId('ledger-csv') as HTMLButtonElement).disabled).toBe(true);
  });

  it('names an anonymous, blocked account so, and offers Unblock instead of Block', async () => {
    await openPage(adminUserDetail({ email: null, blocked: true, blocked_at: '2026-03-03T10:00:00.000Z' }));
    expect(screen.getByTestId('user-title').textContent).toBe('Anonymous account');
    expect(screen.getByText(`Blocked ${formatDateTime('2026-03-03T10:00:00.000Z')}`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unblock' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull();
  });

  it('lists the ledger with signed amounts, the balance after, the reason and the operator', async () => {
    await openPage(
      adminUserDetail({
        ledger: [
          {
            id: 'l2',
            kind: 'admin_remove',
            unit: 'credit',
            amount: -5,
            balance_after: 7,
            reason: 'duplicate grant',
            created_at: '2026-03-02T10:00:00.000Z',
            tryon_id: null,
            grant_id: null,
            actor: { id: 'op1', email: 'op@example.com' },
          },
          {
            id: 'l1',
            kind: 'trial_spend',
            unit: 'free_trial',
            amount: 1,
            balance_after: 12,
            reason: null,
            created_at: '2026-03-01T10:00:00.000Z',
            tryon_id: 't1',
            grant_id: null,
            actor: null,
          },
        ],
      }),
    );
    expect(tableRows('ledger-table')).toEqual([
      [formatDateTime('2026-03-02T10:00:00.000Z'), 'admin_remove', '-5', '7', 'duplicate grant', 'op@example.com'],
      [formatDateTime('2026-03-01T10:00:00.000Z'), 'trial_spendfree trial', '+1', '12', '–', '–'],
    ]);
    expect((screen.getByTestId('ledger-csv') as HTMLButtonElement).disabled).toBe(false);
  });

  it('lists try-ons with their cost in credits or free trials, and grants with what was paid', async () => {
    await openPage(
      adminUserDetail({
        tryons: [
          {
            id: 't2',
            engine: 'hosted-a',
            category: 'dresses',
            status: 'failed',
            units: 2,
            charge: 'credit',
            created_at: '2026-03-02T10:00:00.000Z',
            finished_at: null,
            duration_ms: 12_340,
            error_code: 'ENGINE_TIMEOUT',
            result_url: null,
            report: { id: 'r1', status: 'pending', reason: 'other', note: null, created_at: '2026-03-02T11:00:00Z' },
          },
          {
            id: 't1',
            engine: 'local',
            category: 'upper_body',
            status: 'succeeded',
            units: 1,
            charge: 'trial',
            created_at: '2026-03-01T10:00:00.000Z',
            finished_at: null,
            duration_ms: null,
            error_code: null,
            result_url: '/api/admin/tryons/t1/result',
            report: null,
          },
        ],
        payments: {
          grants: [
            {
              id: 'g1',
              source: 'purchase',
              plan_id: 'pack_50',
              amount: 50,
              remaining: 12,
              amount_paid: '9.99',
              currency: 'USD',
              external_ref: null,
              created_at: '2026-02-01T10:00:00.000Z',
              expires_at: null,
            },
          ],
          billing_events: [],
        },
      }),
    );
    const [failed, succeeded] = tableRows('tryons-table');
    expect(failed!.slice(1, 5)).toEqual(['hosted-a12.3 s', 'failedENGINE_TIMEOUT', '2 credits', 'pendingother']);
    expect(succeeded!.slice(1, 5)).toEqual(['local–', 'succeeded', '1 free trial', '–']);
    expect(failed![5]).toBe('No result');
    expect(within(screen.getByTestId('tryons-table')).getByRole('button', { name: /Show result/ })).toBeTruthy();
    expect(tableRows('grants-table')).toEqual([
      [formatDateTime('2026-02-01T10:00:00.000Z'), 'purchasepack_50', '50', '12', '9.99 USD', 'never'],
    ]);
  });

  it('adds credits: sends the amount and the reason, then shows the new balance and says so', async () => {
    const after = adminUserDetail({ credits: 37 });
    let detail = adminUserDetail({ credits: 12 });
    const sent = await openPage(detail, (req) => {
      if (req.method !== 'POST') return ok({ user: detail });
      detail = after;
      return ok({ user: after });
    });
    await runAction('Add credits', { Credits: '25', Reason: ' goodwill, ticket 7 ' }, 'Add credits', 'Add credits');

    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/users/u1/credits',
      body: { amount: 25, reason: 'goodwill, ticket 7' },
    });
    expect(sent[2]).toMatchObject({ method: 'GET', url: '/api/admin/users/u1' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Credits added.')).toBeTruthy();
    expect(screen.getByTestId('admin-user-credits').textContent).toBe('37');
  });

  it('removes credits as a negative amount, and cannot remove from an empty balance', async () => {
    const sent = await openPage(adminUserDetail({ credits: 12 }), (req) =>
      req.method === 'POST' ? ok({ user: adminUserDetail({ credits: 9 }) }) : undefined,
    );
    await runAction('Remove credits', { Credits: '3', Reason: 'refund reversed' }, 'Remove credits', 'Remove credits');
    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/users/u1/credits',
      body: { amount: -3, reason: 'refund reversed' },
    });
    expect(screen.getByText('Credits removed.')).toBeTruthy();

    cleanup();
    await openPage(adminUserDetail({ credits: 0 }));
    expect((screen.getByRole('button', { name: 'Remove credits' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('blocks with the reason alone', async () => {
    const sent = await openPage(adminUserDetail(), (req) =>
      req.method === 'POST' ? ok({ user: adminUserDetail({ blocked: true }) }) : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    const dialog = screen.getByRole('dialog', { name: 'Block this account' });
    expect(within(dialog).queryByLabelText('Credits')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'card testing' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Block' })));
    expect(sent[1]).toEqual({ method: 'POST', url: '/api/admin/users/u1/block', body: { reason: 'card testing' } });
    expect(screen.getByText('Account blocked.')).toBeTruthy();
  });

  it('keeps the dialog open with the server’s message when it refuses, and loads nothing again', async () => {
    const sent = await openPage(adminUserDetail(), (req) =>
      req.method === 'POST' ? refuse(400, 'VALIDATION_ERROR', 'amount must not be zero') : undefined,
    );
    const dialog = await runAction('Add credits', { Reason: 'goodwill' }, 'Add credits', 'Add credits');
    expect(within(dialog).getByRole('alert').textContent).toBe('amount must not be zero');
    expect(screen.getByRole('dialog', { name: 'Add credits' })).toBe(dialog);
    expect(sent.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(screen.queryByText('Credits added.')).toBeNull();
  });

  it('says why the account could not be loaded and tries again when asked', async () => {
    let attempts = 0;
    const sent = stubApi(() =>
      ++attempts === 1
        ? refuse(404, 'NOT_FOUND', 'No such account.')
        : ok({ user: adminUserDetail({ email: 'found@example.com' }) }),
    );
    renderAt('/admin/users/u%2F1', '/admin/users/:id', <UserPage />);
    expect(screen.getByRole('status').textContent).toBe('Loading the account…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No such account.');
    expect(sent[0]!.url).toBe('/api/admin/users/u%2F1');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('user-title')).textContent).toBe('found@example.com');
    expect(sent).toHaveLength(2);
  });
});
