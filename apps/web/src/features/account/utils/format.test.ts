import { describe, expect, it } from 'vitest';
import { formatAmount, formatDate, planName, summarisePlan } from './format';

describe('account formatting', () => {
  it('formats dates in English and tolerates missing ones', () => {
    expect(formatDate('2026-03-05T12:00:00.000Z')).toBe('March 5, 2026');
    expect(formatDate(null)).toBeNull();
    expect(formatDate('nonsense')).toBeNull();
  });

  it('formats amounts with their currency', () => {
    expect(formatAmount('9.99', 'USD')).toBe('$9.99');
    expect(formatAmount('19.99', 'EUR')).toBe('€19.99');
    expect(formatAmount(null, 'USD')).toBeNull();
    expect(formatAmount('5', null)).toBe('5');
  });

  it('names plans, with one-off grants as Credits', () => {
    expect(planName('monthly')).toBe('Monthly Pro');
    expect(planName('credits_200')).toBe('200 Credits');
    expect(planName(null)).toBe('Credits');
  });

  it('says when a plan renews or ends', () => {
    const end = '2026-04-04T12:00:00.000Z';
    expect(summarisePlan({ planId: 'monthly', status: 'active', currentPeriodEnd: end })).toEqual({
      name: 'Monthly Pro',
      status: 'Active',
      dateText: 'Renews on April 4, 2026',
      dateLabel: 'Renews on',
      date: 'April 4, 2026',
      renewing: true,
    });
    expect(summarisePlan({ planId: 'weekly', status: 'canceled', currentPeriodEnd: end })).toMatchObject({
      status: 'Cancelled',
      dateText: 'Ends on April 4, 2026',
      renewing: false,
    });
    expect(summarisePlan({ planId: 'yearly', status: 'active', currentPeriodEnd: null })?.dateText).toBeNull();
    expect(summarisePlan(undefined)).toBeNull();
  });
});
