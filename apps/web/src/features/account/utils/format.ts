import { useMemo } from 'react';
import { findPlan, type Locale, type PlanId, type Subscription } from '@aidressup/contract';
import { formatters } from '../../../i18n/format';
import { useLocale, useT, type MessageId, type Translate } from '../../../i18n/use-t';

/** A date in the page's language ("March 5, 2026" in English); null when missing or unreadable. */
export function formatDate(iso: string | null | undefined, locale: Locale): string | null {
  if (!iso) return null;
  return formatters(locale).date(iso) || null;
}

/** "$9.99" from "9.99" and "USD", written the page language's way; null when the amount is unknown. */
export function formatAmount(amount: string | null, currency: string | null, locale: Locale): string | null {
  if (amount === null) return null;
  const value = Number(amount);
  if (!Number.isFinite(value)) return null;
  const f = formatters(locale);
  return currency ? f.price(value, currency) : f.number(value);
}

const PLAN_NAME_IDS: Record<PlanId, MessageId> = {
  weekly: 'account.plan.weekly',
  monthly: 'account.plan.monthly',
  yearly: 'account.plan.yearly',
  credits_200: 'account.plan.credits_200',
};

/** The plan's name in the page's language; one-off grants (no plan) read as "Credits". */
export function planName(planId: PlanId | null, t: Translate): string {
  return planId && findPlan(planId) ? t(PLAN_NAME_IDS[planId]) : t('account.plan.none');
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

type PlanStatus = Subscription['status'];

/** Per status: its word, the date's label, the label with the date, and whether the plan still renews. */
const STATUS: Record<PlanStatus, { status: MessageId; label: MessageId; text: MessageId; renewing: boolean }> = {
  active: {
    status: 'account.status.active',
    label: 'account.date.renewsOn',
    text: 'account.dateText.renewsOn',
    renewing: true,
  },
  trialing: {
    status: 'account.status.active',
    label: 'account.date.renewsOn',
    text: 'account.dateText.renewsOn',
    renewing: true,
  },
  past_due: {
    status: 'account.status.pastDue',
    label: 'account.date.periodEndedOn',
    text: 'account.dateText.periodEndedOn',
    renewing: true,
  },
  paused: {
    status: 'account.status.paused',
    label: 'account.date.pausedSince',
    text: 'account.dateText.pausedSince',
    renewing: false,
  },
  canceled: {
    status: 'account.status.canceled',
    label: 'account.date.endsOn',
    text: 'account.dateText.endsOn',
    renewing: false,
  },
};

/** How a subscription reads on the account page and the demo portal, in the page's language. */
export function summarisePlan(sub: Subscription | undefined, t: Translate, locale: Locale): PlanSummary | null {
  if (!sub) return null;
  const s = STATUS[sub.status];
  const date = formatDate(sub.currentPeriodEnd, locale);
  return {
    name: planName(sub.planId, t),
    status: t(s.status),
    dateLabel: t(s.label),
    date,
    dateText: date ? t(s.text, { date }) : null,
    renewing: s.renewing,
  };
}

/** The helpers above, bound to the page's language (components re-render when it changes). */
export function useAccountFormat() {
  const t = useT();
  const locale = useLocale();
  return useMemo(
    () => ({
      t,
      locale,
      date: (iso: string | null | undefined) => formatDate(iso, locale),
      amount: (amount: string | null, currency: string | null) => formatAmount(amount, currency, locale),
      planName: (planId: PlanId | null) => planName(planId, t),
      summarisePlan: (sub: Subscription | undefined) => summarisePlan(sub, t, locale),
    }),
    [t, locale],
  );
}
