import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { User } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import { debugRequested, UserInfoBox } from './user-info-box';
import { testUser } from '../../../test/user';

const user = (over: Partial<User>): User => testUser({ id: 'abcdef1234567890', ...over });

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

/** The chip's summary (credits and free trials left). */
function summary(): string {
  return screen.getByTestId('user-info-summary').textContent ?? '';
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
    expect(screen.getByRole('status').textContent).toMatch(/Starting…/);
  });

  it('starts as a chip that opens the full list with its button', () => {
    render(<UserInfoBox user={user({ credits: 7, free_trials_used: 1 })} loading={false} />);
    expect(summary()).toBe('7 credits · 1 free trial left');
    const toggle = screen.getByRole('button', { name: /Your account/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(details.hidden).toBe(false);
    expect([...details.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'User',
      'Segment',
      'Credits',
      'Free trials',
      'Has free trial',
      'Has credits',
    ]);
  });

  it('opens with every field when the address asks for ?debug=1', () => {
    expect(debugRequested('?debug=1')).toBe(true);
    expect(debugRequested('?x=1&debug=1')).toBe(true);
    expect(debugRequested('')).toBe(false);
    expect(debugRequested('?debug=0')).toBe(false);
  });

  it('isolates every value, ids and counts left to right', () => {
    render(<UserInfoBox user={user({ credits: 7, free_trials_used: 1 })} loading={false} />);
    for (const id of ['user-id', 'user-credits', 'user-trials']) {
      const el = screen.getByTestId(id);
      expect(el.tagName).toBe('BDI');
      expect(el.getAttribute('dir')).toBe('ltr');
    }
    expect(screen.getByTestId('user-has-free-trial').tagName).toBe('BDI');
  });

  it('speaks Spanish, with its plurals, and Arabic, with its own', async () => {
    await act(() => activateLocale('es'));
    const { rerender } = render(<UserInfoBox user={user({ credits: 1, free_trials_used: 1 })} loading={false} />);
    expect(summary()).toBe('1 crédito · 1 prueba gratis restante');
    rerender(<UserInfoBox user={user({ credits: 20, free_trials_used: 0 })} loading={false} />);
    expect(summary()).toBe('20 créditos · 2 pruebas gratis restantes');

    await act(() => activateLocale('ar'));
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('20 رصيدًا');
    rerender(<UserInfoBox user={user({ credits: 2, free_trials_used: 1 })} loading={false} />);
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('رصيدان');
    rerender(<UserInfoBox user={user({ credits: 5, free_trials_used: 1 })} loading={false} />);
    expect(screen.getByTestId('user-info-toggle').textContent).toContain('5 أرصدة');
    expect(screen.getByRole('complementary', { name: 'حسابك' })).toBeTruthy();
  });
});
