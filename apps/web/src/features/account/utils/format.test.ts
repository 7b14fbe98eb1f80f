import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { activateLocale } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';
import { formatAmount, formatDate, planName, summarisePlan } from './format';

const t: Translate = (id, values) => i18n._(id, values);

afterEach(async () => {
  await activateLocale('en');
});

describe('account formatting', () => {
  it('formats dates in English and tolerates missing ones', () => {
    expect(formatDate('2026-03-05T12:00:00.000Z', 'en')).toBe('March 5, 2026');
    expect(formatDate(null, 'en')).toBeNull();
    expect(formatDate('nonsense', 'en')).toBeNull();
  });

  it('formats amounts with their currency', () => {
    expect(formatAmount('9.99', 'USD', 'en')).toBe('$9.99');
    expect(formatAmount('19.99', 'EUR', 'en')).toBe('€19.99');
    expect(formatAmount(null, 'USD', 'en')).toBeNull();
    expect(formatAmount('5', null, 'en')).toBe('5');
  });

  it('names plans, with one-off grants as Credits', () => {
    expect(planName('monthly', t)).toBe('Monthly Pro');
    expect(planName('credits_200', t)).toBe('200 Credits');
    expect(planName(null, t)).toBe('Credits');
  });

  it('says when a plan renews or ends', () => {
    const end = '2026-04-04T12:00:00.000Z';
    expect(summarisePlan({ planId: 'monthly', status: 'active', currentPeriodEnd: end }, t, 'en')).toEqual({
      name: 'Monthly Pro',
      status: 'Active',
      dateText: 'Renews on April 4, 2026',
      dateLabel: 'Renews on',
      date: 'April 4, 2026',
      renewing: true,
    });
    expect(summarisePlan({ planId: 'weekly', status: 'canceled', currentPeriodEnd: end }, t, 'en')).toMatchObject({
      status: 'Cancelled',
      dateText: 'Ends on April 4, 2026',
      renewing: false,
    });
    expect(summarisePlan({ planId: 'yearly', status: 'active', currentPeriodEnd: null }, t, 'en')?.dateText).toBeNull();
    expect(summarisePlan(undefined, t, 'en')).toBeNull();
  });

  it('writes plans, dates and prices the Spanish way in Spanish', async () => {
    await activateLocale('es');
    const end = '2026-04-04T12:00:00.000Z';
    expect(summarisePlan({ planId: 'monthly', status: 'past_due', currentPeriodEnd: end }, t, 'es')).toEqual({
      name: 'Pro mensual',
      status: 'Pago pendiente',
      dateText: 'El periodo terminó el 4 de abril de 2026',
      dateLabel: 'El periodo terminó el',
      date: '4 de abril de 2026',
      renewing: true,
    });
    expect(planName(null, t)).toBe('Créditos');
    expect(formatAmount('9.99', 'USD', 'es')).toMatch(/^9,99\s?US\$$/);
  });
});
