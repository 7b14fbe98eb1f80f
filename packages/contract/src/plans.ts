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
}

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
    features: ['20 try-ons for 7 days', 'All clothing categories', 'HD downloads', 'Renews weekly, cancel anytime'],
    popular: false,
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
    features: ['50 try-ons for 30 days', 'All clothing categories', 'HD downloads', 'Priority processing', 'Renews monthly, cancel anytime'],
    popular: true,
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
    features: ['100 try-ons for 365 days', 'All clothing categories', 'HD downloads', 'Priority processing', 'Early access to new features', 'Renews yearly, cancel anytime'],
    popular: false,
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
    features: ['200 try-ons', 'One-time payment', 'Credits never expire', 'All clothing categories', 'HD downloads'],
    popular: false,
  },
];

export const DEFAULT_PLAN_ID: PlanId = 'monthly';

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export function isSubscriptionPlan(plan: Plan): boolean {
  return plan.period !== 'one-time';
}
