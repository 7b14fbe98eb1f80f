import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import type { User } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import { OutfitNote } from './outfit-note';

afterEach(cleanup);

const user = (left: number) =>
  ({ id: 'u', free_trials_used: 0, free_trials_limit: 0, credits: left }) as unknown as User;

describe('outfit note', () => {
  it('says how many try-ons a whole outfit uses and how many are left (English words as before)', () => {
    render(<OutfitNote user={user(1)} onRemoveBottom={() => undefined} />);
    expect(screen.getByTestId('outfit-note').textContent).toContain(
      'A whole outfit uses 2 try-ons: one for the top and one for the bottom.',
    );
    expect(screen.getByTestId('outfit-short').textContent).toContain(
      'You have 1 try-on left, not enough for a whole outfit. Remove the bottom to try on the top alone.',
    );
  });

  describe('in Arabic', () => {
    afterEach(() => act(() => activateLocale('en')));
    it('uses the dual and the singular forms', async () => {
      await act(() => activateLocale('ar'));
      render(<OutfitNote user={user(1)} onRemoveBottom={() => undefined} />);
      expect(screen.getByTestId('outfit-note').textContent).toContain('تجربتَي قياس');
      expect(screen.getByTestId('outfit-short').textContent).toContain('تبقّت لديك تجربة قياس واحدة');
      expect(i18n._('tryon.result.kept', { days: 30 })).toBe('تُحفظ النتائج في «معرضي» لمدة 30 يومًا.');
    });
  });
});
