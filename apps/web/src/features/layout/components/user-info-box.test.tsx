import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { User } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import { UserInfoBox } from './user-info-box';
import { testUser } from '../../../test/user';

const user = (over: Partial<User>): User => testUser({ id: 'abcdef1234567890', ...over });

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

/** The one-line summary the box folds to. */
function summary(): string {
  fireEvent.click(screen.getByTestId('user-info-toggle'));
  return screen.getByTestId('user-info-toggle').textContent ?? '';
}

describe('user-info box', () => {
  it('shows the first 8 characters of the id, segment, credits and trials', () => {
    render(<UserInfoBox user={user({ credits: 7, free_trials_used: 1, segment: 'customer' })} loading={false} />);
    expect(screen.getByTestId('user-id').textContent).toBe('abcdef12');
    expect(screen.getByTestId('user-segment').textContent).toBe('customer');
    expect(screen.getByTestId('user-credits').textContent).toBe('7');
    expect(screen.getByTestId('user-trials').textContent).toBe('1 / 2');
  });

  it('has a free trial while trials used < limit, and credits while credits > 0', () => {
    render(<UserInfoBox user={user({ free_trials_used: 1, credits: 0 })} loading={false} />);
    expect(screen.getByTestId('user-has-free-trial').textContent).toBe('yes');
    expect(screen.getByTestId('user-has-credits').textContent).toBe('no');
  });

  it('has no free trial once the limit is reached', () => {
    render(<UserInfoBox user={user({ free_trials_used: 2, credits: 3, segment: 'customer' })} loading={false} />);
    expect(screen.getByTestId('user-has-free-trial').textContent).toBe('no');
    expect(screen.getByTestId('user-has-credits').textContent).toBe('yes');
  });

  it('says it is signing in while there is no user', () => {
    render(<UserInfoBox user={null} loading />);
    expect(screen.getByRole('status').textContent).toMatch(/Signing you in/);
  });

  it('folds to a summary with the credits and free trials counted', () => {
    render(<UserInfoBox user={user({ credits: 7, free_trials_used: 1 })} loading={false} />);
    expect(summary()).toBe('Your account · abcdef12 · 7 credits · 1/2 free trials');
  });

  it('speaks Spanish, with its plurals, and Arabic, with its own', async () => {
    await act(() => activateLocale('es'));
    const { rerender } = render(<UserInfoBox user={user({ credits: 1, free_trials_used: 1 })} loading={false} />);
    expect(summary()).toBe('Tu cuenta · abcdef12 · 1 crédito · 1/2 pruebas gratis');
    rerender(<UserInfoBox user={user({ credits: 20, free_trials_used: 1 })} loading={false} />);
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('20 créditos');

    await act(() => activateLocale('ar'));
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('20 رصيدًا');
    rerender(<UserInfoBox user={user({ credits: 2, free_trials_used: 1 })} loading={false} />);
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('رصيدان');
    rerender(<UserInfoBox user={user({ credits: 5, free_trials_used: 1 })} loading={false} />);
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('5 أرصدة');
    expect(screen.getByRole('complementary', { name: 'حسابك' })).toBeTruthy();
  });
});
