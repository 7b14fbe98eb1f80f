import { findPlan, type PlanId, type Subscription } from '@aidressup/contract';

/** A date as "March 5, 2026" (the page is in English). */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** "$9.99" from "9.99" and "USD"; null when the amount is unknown. */
export function formatAmount(amount: string | null, currency: string | null): string | null {
  if (amount === null) return null;
  const value = Number(amount);
  if (!Number.isFinite(value)) return null;
  if (!currency) return amount;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function planName(planId: PlanId | null): string {
  return (planId && findPlan(planId)?.name) || 'Credits';
}

export interface PlanSummary {
  name: string;
  /** Status in words. */
  status: string;
  /** "Renews on March 5, 2026", "Ends on …", or null when the server gave no date. */
  dateText: string | null;
  /** The date's label ("Renews on", "Ends on", …) and the date, for a label/value row. */
  dateLabel: string;
  date: string | null;
  /** The plan still runs (and renews). */
  renewing: boolean;
}

/** How a subscription reads on the account page and the demo portal. */
export function summarisePlan(sub: Subscription | undefined): PlanSummary | null {
  if (!sub) return null;
  const date = formatDate(sub.currentPeriodEnd);
  const name = planName(sub.planId);
  const make = (status: string, dateLabel: string, renewing: boolean): PlanSummary => ({
    name,
    status,
    dateLabel,
    date,
    dateText: date ? `${dateLabel} ${date}` : null,
    renewing,
  });
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return make('Active', 'Renews on', true);
    case 'past_due':
      return make('Payment overdue', 'Period ended on', true);
    case 'paused':
      return make('Paused', 'Paused since', false);
    case 'canceled':
      return make('Cancelled', 'Ends on', false);
  }
}
