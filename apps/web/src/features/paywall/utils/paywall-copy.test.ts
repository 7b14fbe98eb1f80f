import { describe, expect, it } from 'vitest';
import { MESSAGES, PLANS, type PublicPlan } from '@aidressup/contract';
import { defaultPlanId, paywallTitle, periodLabel } from './paywall-copy';

const plans: PublicPlan[] = PLANS.map((p) => ({ ...p, paddlePriceId: null }));

describe('paywall copy', () => {
  it('heads the paywall by reason', () => {
    expect(paywallTitle('no_credits')).toBe(MESSAGES.paywallNoCredits);
    expect(paywallTitle('trial_exhausted')).toBe(MESSAGES.paywallTrialExhausted);
    expect(paywallTitle('upgrade')).toBe(MESSAGES.paywallUpgrade);
  });
  it('selects the popular monthly plan by default', () => {
    expect(defaultPlanId(plans)).toBe('monthly');
    expect(defaultPlanId([...plans].reverse())).toBe('monthly');
    expect(defaultPlanId([])).toBeNull();
  });
  it('labels each period', () => {
    expect(plans.map(periodLabel)).toEqual(['/ week', '/ month', '/ year', 'one-time']);
  });
});
