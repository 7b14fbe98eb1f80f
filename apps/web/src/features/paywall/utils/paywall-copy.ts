import { MESSAGES, PLANS, type PublicPlan, type User } from '@aidressup/contract';
import type { MessageId, Translate } from '../../../i18n/use-t';
import type { PaywallReason } from '../hooks/use-paywall';

/** The paywall header for a reason (the contract's English text; the page localizes it). */
export function paywallTitle(reason: PaywallReason): string {
  if (reason === 'no_credits') return MESSAGES.paywallNoCredits;
  if (reason === 'trial_exhausted') return MESSAGES.paywallTrialExhausted;
  return MESSAGES.paywallUpgrade;
}

/**
 * The line under the header: for no_credits, it says what the shopper used up (free try-ons only,
 * or credits they had bought), when the page knows.
 */
export function paywallSubtitle(reason: PaywallReason, t: Translate, user?: Pick<User, 'segment'> | null): string {
  if (reason === 'no_credits') {
    if (user?.segment === 'trial' || user?.segment === 'trial_exhausted') return t('paywall.subtitle.trialsUsed');
    if (user?.segment === 'customer' || user?.segment === 'subscriber') return t('paywall.subtitle.creditsUsed');
    return t('paywall.subtitle.noCredits');
  }
  if (reason === 'trial_exhausted') return t('paywall.subtitle.trialExhausted');
  return t('paywall.subtitle.upgrade');
}

export function periodLabel(plan: Pick<PublicPlan, 'period'>, t: Translate): string {
  switch (plan.period) {
    case 'week':
      return t('paywall.period.week');
    case 'month':
      return t('paywall.period.month');
    case 'year':
      return t('paywall.period.year');
    default:
      return t('paywall.period.oneTime');
  }
}

export function validityLabel(plan: Pick<PublicPlan, 'validityDays'>, t: Translate): string {
  return plan.validityDays === null
    ? t('paywall.validity.never')
    : t('paywall.validity.days', { days: plan.validityDays });
}

/** The catalog id of a plan's name: `paywall.plan.<planId>.name`. */
export function planNameId(planId: PublicPlan['id']): MessageId {
  return `paywall.plan.${planId}.name` as MessageId;
}

/** The catalog id of a plan's n-th feature (from 1): `paywall.plan.<planId>.feature.<n>`. */
export function planFeatureId(planId: PublicPlan['id'], n: number): MessageId {
  return `paywall.plan.${planId}.feature.${n}` as MessageId;
}

/** The catalog id of a plan's badge: `paywall.plan.<planId>.badge`. */
export function planBadgeId(planId: PublicPlan['id']): MessageId {
  return `paywall.plan.${planId}.badge` as MessageId;
}

/**
 * A plan's texts in the page's language. The server's configuration gives them in English; a text
 * that is the contract's (the plans of `packages/contract/src/plans.ts`) is shown from its catalog
 * id, any other text as the server gave it.
 */
export function planCopy(
  plan: Pick<PublicPlan, 'id' | 'name' | 'badge' | 'features'>,
  t: Translate,
): { name: string; badge: string | null; features: string[] } {
  const source = PLANS.find((p) => p.id === plan.id);
  const name = source && source.name === plan.name ? t(planNameId(plan.id)) : plan.name;
  const badge =
    plan.badge === null ? null : source && source.badge === plan.badge ? t(planBadgeId(plan.id)) : plan.badge;
  const features = plan.features.map((text) => {
    const i = source ? source.features.indexOf(text) : -1;
    return i >= 0 ? t(planFeatureId(plan.id, i + 1)) : text;
  });
  return { name, badge, features };
}

/** The plan selected by default: the popular one (monthly), else the first. */
export function defaultPlanId(plans: readonly PublicPlan[]): PublicPlan['id'] | null {
  return (plans.find((p) => p.popular) ?? plans.find((p) => p.id === 'monthly') ?? plans[0])?.id ?? null;
}
