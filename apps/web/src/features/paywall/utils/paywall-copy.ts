import { MESSAGES, type PublicPlan } from '@aidressup/contract';
import type { PaywallReason } from '../hooks/use-paywall';

/** The paywall header for a reason. */
export function paywallTitle(reason: PaywallReason): string {
  if (reason === 'no_credits') return MESSAGES.paywallNoCredits;
  if (reason === 'trial_exhausted') return MESSAGES.paywallTrialExhausted;
  return MESSAGES.paywallUpgrade;
}

export function paywallSubtitle(reason: PaywallReason): string {
  if (reason === 'no_credits') return 'You have used all your free try-ons and credits. Pick a plan to keep creating.';
  if (reason === 'trial_exhausted') return 'Loved your free try-ons? Pick a plan to keep trying on new looks.';
  return 'More try-ons, HD downloads and priority processing. Pick the plan that fits you.';
}

export function periodLabel(plan: Pick<PublicPlan, 'period'>): string {
  switch (plan.period) {
    case 'week':
      return '/ week';
    case 'month':
      return '/ month';
    case 'year':
      return '/ year';
    default:
      return 'one-time';
  }
}

export function validityLabel(plan: Pick<PublicPlan, 'validityDays'>): string {
  return plan.validityDays === null ? 'Credits never expire' : `Credits valid ${plan.validityDays} days`;
}

/** The plan selected by default: the popular one (monthly), else the first. */
export function defaultPlanId(plans: readonly PublicPlan[]): PublicPlan['id'] | null {
  return (plans.find((p) => p.popular) ?? plans.find((p) => p.id === 'monthly') ?? plans[0])?.id ?? null;
}
