import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { activateLocale } from '../../../i18n/i18n';
import { TrustBadges, trustBadgeIds } from './trust-badges';

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

const shown = () => screen.getAllByRole('listitem').map((li) => li.textContent);

describe('paywall trust badges', () => {
  it('claim a secure payment only with a payment provider, and SSL only over https', () => {
    expect(trustBadgeIds('demo', false)).toEqual(['demo', 'instant']);
    expect(trustBadgeIds('demo', true)).toEqual(['demo', 'ssl', 'instant']);
    expect(trustBadgeIds('paddle', false)).toEqual(['secure', 'instant']);
    expect(trustBadgeIds('paddle', true)).toEqual(['secure', 'ssl', 'instant']);
  });

  it('say so in the page’s language', async () => {
    const { rerender } = render(<TrustBadges provider="demo" secureConnection={false} />);
    expect(shown()).toEqual(['Demo — no charge', 'Instant Activation']);
    rerender(<TrustBadges provider="paddle" secureConnection />);
    expect(shown()).toEqual(['Secure Payment', 'SSL Encrypted', 'Instant Activation']);
    await act(() => activateLocale('de'));
    rerender(<TrustBadges provider="demo" secureConnection />);
    expect(shown()).toEqual(['Demo – keine Abbuchung', 'SSL-verschlüsselt', 'Sofort aktiviert']);
  });

  it('read the page’s own connection by default (http in tests: no SSL claim)', () => {
    render(<TrustBadges provider="paddle" />);
    expect(shown()).toEqual(['Secure Payment', 'Instant Activation']);
  });
});
