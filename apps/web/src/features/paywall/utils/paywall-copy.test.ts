import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { MESSAGES, PLANS, type PublicPlan } from '@aidressup/contract';
import en from '@aidressup/contract/catalogs/app/en/paywall.json';
import { activateLocale } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';
import {
  defaultPlanId,
  paywallSubtitle,
  paywallTitle,
  periodLabel,
  planBadgeId,
  planCopy,
  planFeatureId,
  planNameId,
  validityLabel,
} from './paywall-copy';

const plans: PublicPlan[] = PLANS.map((p) => ({ ...p, paddlePriceId: null }));
const t: Translate = (id, values) => i18n._(id, values);
const english = en as Record<string, string>;

afterEach(() => activateLocale('en'));

describe('paywall copy', () => {
  it('heads the paywall by reason', () => {
    expect(paywallTitle('no_credits')).toBe(MESSAGES.paywallNoCredits);
    expect(paywallTitle('trial_exhausted')).toBe(MESSAGES.paywallTrialExhausted);
    expect(paywallTitle('upgrade')).toBe(MESSAGES.paywallUpgrade);
    expect(paywallSubtitle('upgrade', t)).toBe(
      'More try-ons, HD downloads and priority processing. Pick the plan that fits you.',
    );
  });
  it('selects the popular monthly plan by default', () => {
    expect(defaultPlanId(plans)).toBe('monthly');
    expect(defaultPlanId([...plans].reverse())).toBe('monthly');
    expect(defaultPlanId([])).toBeNull();
  });
  it('labels each period and validity', () => {
    expect(plans.map((p) => periodLabel(p, t))).toEqual(['/ week', '/ month', '/ year', 'one-time']);
    expect(plans.map((p) => validityLabel(p, t))).toEqual([
      'Credits valid 7 days',
      'Credits valid 30 days',
      'Credits valid 365 days',
      'Credits never expire',
    ]);
  });

  it('has a catalog id for every plan name, badge and feature of the contract, in the contract’s English', () => {
    for (const plan of PLANS) {
      expect(english[planNameId(plan.id)], plan.id).toBe(plan.name);
      if (plan.badge) expect(english[planBadgeId(plan.id)], plan.id).toBe(plan.badge);
      plan.features.forEach((feature, i) => expect(english[planFeatureId(plan.id, i + 1)], feature).toBe(feature));
      // No stray ids for features a plan does not have.
      expect(english[planFeatureId(plan.id, plan.features.length + 1)]).toBeUndefined();
    }
  });

  it('renders every plan’s texts in the contract’s English, word for word', () => {
    for (const plan of plans) {
      expect(planCopy(plan, t)).toEqual({ name: plan.name, badge: plan.badge, features: plan.features });
    }
  });

  it('writes the purchase messages with plurals (English as before)', async () => {
    expect(t('paywall.done.active', { plan: 'Monthly Pro', count: 50 })).toBe(
      'Monthly Pro is active: <0>50 credits</0> were added to your account.',
    );
    expect(t('paywall.done.balance', { count: 0 })).toBe('You now have 0 credits.');
    expect(t('paywall.done.balance', { count: 1 })).toBe('You now have 1 credit.');
    await activateLocale('ar');
    expect(t('paywall.done.balance', { count: 2 })).toBe('لديك الآن رصيدان.');
    expect(t('paywall.card.credits', { count: 1 })).toBe('رصيد واحد');
  });

  it('translates the plans, and keeps texts the contract does not know as the server gave them', async () => {
    await activateLocale('es');
    const monthly = plans.find((p) => p.id === 'monthly')!;
    const copy = planCopy(monthly, t);
    expect(copy.name).not.toBe(monthly.name);
    expect(copy.badge).not.toBe(monthly.badge);
    expect(copy.features).toHaveLength(monthly.features.length);
    expect(copy.features.some((f, i) => f === monthly.features[i])).toBe(false);
    const custom = planCopy({ ...monthly, name: 'Spring Deal', features: ['Something new'] }, t);
    expect(custom.name).toBe('Spring Deal');
    expect(custom.features).toEqual(['Something new']);
    expect(copy.name).toBe('Pro mensual');
    expect(validityLabel({ validityDays: 1 }, t)).toBe('Créditos válidos 1 día');
    expect(validityLabel({ validityDays: 30 }, t)).toBe('Créditos válidos 30 días');
    expect(periodLabel({ period: 'one-time' }, t)).toBe('pago único');
  });
});

describe('the paywall says what the shopper used up', () => {
  const ids = ((id: string) => id) as unknown as Translate;
  it('free try-ons only, for a shopper who never bought', () => {
    expect(paywallSubtitle('no_credits', ids, { segment: 'trial_exhausted' })).toBe('paywall.subtitle.trialsUsed');
    expect(paywallSubtitle('no_credits', ids, { segment: 'trial' })).toBe('paywall.subtitle.trialsUsed');
    expect(paywallSubtitle('no_credits', t, { segment: 'trial' })).toBe(
      'You have used your free try-ons. Pick a plan to keep creating.',
    );
  });
  it('credits, for one who bought some', () => {
    expect(paywallSubtitle('no_credits', ids, { segment: 'customer' })).toBe('paywall.subtitle.creditsUsed');
    expect(paywallSubtitle('no_credits', ids, { segment: 'subscriber' })).toBe('paywall.subtitle.creditsUsed');
  });
  it('both, when the page does not know the shopper; the other reasons as before', () => {
    expect(paywallSubtitle('no_credits', ids, null)).toBe('paywall.subtitle.noCredits');
    expect(paywallSubtitle('trial_exhausted', ids, { segment: 'customer' })).toBe('paywall.subtitle.trialExhausted');
  });
});
