/** The four plans. Prices in USD. */
export const PLAN_IDS = ['weekly', 'monthly', 'yearly', 'credits_200'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type PlanPeriod = 'week' | 'month' | 'year' | 'one-time';

export interface Plan {
  id: PlanId;
  name: string;
  /** Price text as shown, e.g. "$9.99". */
  price: string;
  priceValue: number;
  currency: 'USD';
  credits: number;
  period: PlanPeriod;
  /** Days the plan's credits stay valid; null for credits that never expire. */
  validityDays: number | null;
  badge: string | null;
  features: string[];
  popular: boolean;
  /**
   * Priority processing: while the buyer holds unspent, unexpired credits of this plan, their
   * try-ons are started before other people's waiting ones (the server's engine queues).
   */
  priorityProcessing: boolean;
}

/** What the plans' "HD downloads" feature means; every paid plan has it (see FREE_RESULT_MAX_SIDE). */
export const HD_FEATURE = 'HD downloads: full-resolution results';
/** What the "Priority processing" feature means (see Plan.priorityProcessing). */
export const PRIORITY_FEATURE = 'Priority processing: first in line when busy';

export const PLANS: readonly Plan[] = [
  {
    id: 'weekly',
    name: 'Weekly Pass',
    price: '$5.99',
    priceValue: 5.99,
    currency: 'USD',
    credits: 20,
    period: 'week',
    validityDays: 7,
    badge: null,
    features: ['20 try-ons for 7 days', 'All clothing categories', HD_FEATURE, 'Renews weekly, cancel anytime'],
    popular: false,
    priorityProcessing: false,
  },
  {
    id: 'monthly',
    name: 'Monthly Pro',
    price: '$9.99',
    priceValue: 9.99,
    currency: 'USD',
    credits: 50,
    period: 'month',
    validityDays: 30,
    badge: 'Most Popular',
    features: [
      '50 try-ons for 30 days',
      'All clothing categories',
      HD_FEATURE,
      PRIORITY_FEATURE,
      'Renews monthly, cancel anytime',
    ],
    popular: true,
    priorityProcessing: true,
  },
  {
    id: 'yearly',
    name: 'Yearly VIP',
    price: '$19.99',
    priceValue: 19.99,
    currency: 'USD',
    credits: 100,
    period: 'year',
    validityDays: 365,
    badge: 'Best Value',
    features: [
      '100 try-ons for 365 days',
      'All clothing categories',
      HD_FEATURE,
      PRIORITY_FEATURE,
      'Early access to new features',
      'Renews yearly, cancel anytime',
    ],
    popular: false,
    priorityProcessing: true,
  },
  {
    id: 'credits_200',
    name: '200 Credits',
    price: '$39.99',
    priceValue: 39.99,
    currency: 'USD',
    credits: 200,
    period: 'one-time',
    validityDays: null,
    badge: null,
    features: ['200 try-ons', 'One-time payment', 'Credits never expire', 'All clothing categories', HD_FEATURE],
    popular: false,
    priorityProcessing: false,
  },
];

export const DEFAULT_PLAN_ID: PlanId = 'monthly';

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** The plans whose credits bring priority processing. */
export const PRIORITY_PLAN_IDS: readonly PlanId[] = PLANS.filter((p) => p.priorityProcessing).map((p) => p.id);

export function isSubscriptionPlan(plan: Plan): boolean {
  return plan.period !== 'one-time';
}
