import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { testUser } from '../../../test/user';
import { ReportDialog } from './report-dialog';

afterEach(cleanup);

function setup(over: Partial<Parameters<typeof ReportDialog>[0]> = {}) {
  const props = {
    tryOnId: 't1',
    user: testUser({ credits: 2 }),
    onClose: vi.fn(),
    onReported: vi.fn(),
    refreshUser: vi.fn(() => Promise.resolve(testUser({ credits: 3 }))),
    report: vi.fn(() => Promise.resolve({ success: true as const, status: 'refunded' as const, creditsRemaining: 3 })),
    ...over,
  };
  render(<ReportDialog {...props} />);
  return props;
}

describe('report dialog', () => {
  it('offers the contract’s four reasons and sends nothing until one is chosen', () => {
    const props = setup();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([
      'Wrong garment',
      'My body or face changed',
      'The garment is badly placed',
      'Something else',
    ]);
    const send = screen.getByRole('button', { name: 'Send report' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(send);
    expect(props.report).not.toHaveBeenCalled();
  });

  it('sends the reason and the note, refreshes the user and says the credit is back', async () => {
    const props = setup();
    fireEvent.click(screen.getByRole('radio', { name: 'My body or face changed' }));
    fireEvent.change(screen.getByLabelText('Anything to add? (optional)'), { target: { value: '  my face  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    const outcome = await screen.findByTestId('report-outcome');
    expect(props.report).toHaveBeenCalledWith('t1', { reason: 'body_or_face_changed', note: 'my face' });
    expect(props.onReported).toHaveBeenCalledWith(
      { success: true, status: 'refunded', creditsRemaining: 3 },
      'body_or_face_changed',
    );
    expect(props.refreshUser).toHaveBeenCalledOnce();
    expect(outcome.getAttribute('data-status')).toBe('refunded');
    expect(outcome.textContent).toContain("We've given back your credit. You now have 3 credits.");
  });

  it('says the free trial is back when the refreshed user has used one fewer', async () => {
    setup({
      user: testUser({ free_trials_used: 2 }),
      refreshUser: vi.fn(() => Promise.resolve(testUser({ free_trials_used: 1 }))),
      report: vi.fn(() =>
        Promise.resolve({ success: true as const, status: 'refunded' as const, creditsRemaining: 0 }),
      ),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Wrong garment' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect((await screen.findByTestId('report-outcome')).textContent).toContain("We've given back your free trial.");
  });

  it('leaves a pending report to an operator, without a note when none was typed', async () => {
    const props = setup({
      report: vi.fn(() => Promise.resolve({ success: true as const, status: 'pending' as const, creditsRemaining: 0 })),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Something else' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    const outcome = await screen.findByTestId('report-outcome');
    expect(props.report).toHaveBeenCalledWith('t1', { reason: 'other' });
    expect(props.refreshUser).not.toHaveBeenCalled();
    expect(outcome.textContent).toContain('An operator will look at it');
  });

  it('shows a refusal (409 already reported) in the dialog and stays open', async () => {
    const props = setup({
      report: vi.fn(() => Promise.reject(new ApiError(MESSAGES.alreadyReported, 409, 'ALREADY_REPORTED', {}))),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Wrong garment' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You have already reported this result.');
    expect(props.onReported).not.toHaveBeenCalled();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Send report' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });
});
