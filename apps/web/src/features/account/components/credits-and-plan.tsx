import type { ReactNode } from 'react';
import type { User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useAccountFormat } from '../utils/format';
import { InlineError, SectionCard } from './section-card';

export interface CreditsAndPlanProps {
  user: User;
  /** Shown when there is a plan to manage (a one-time purchase has nothing to renew or cancel). */
  canManage: boolean;
  onManage: () => void;
  manageBusy: boolean;
  manageError: string | null;
  manageErrorCode?: string | null;
  /** Why free try-ons were withheld, when they were. */
  note?: ReactNode;
}

function Row({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2.5">
      <dt className="text-sm text-ink-600">{label}</dt>
      <dd className="text-end font-semibold text-ink-950" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Credits, segment, plan and its renewal or end date, and "Manage subscription". */
export function CreditsAndPlan({
  user,
  canManage,
  onManage,
  manageBusy,
  manageError,
  manageErrorCode,
  note,
}: CreditsAndPlanProps) {
  const { t, summarisePlan } = useAccountFormat();
  const plan = summarisePlan(user.subscription);
  return (
    <SectionCard title={t('account.credits.title')} testId="account-plan">
      <dl className="mt-2 divide-y divide-ink-100">
        <Row label={t('account.label.credits')} value={user.credits} testId="account-credits" />
        <Row
          label={t('account.credits.trialsUsed')}
          value={`${user.free_trials_used} / ${user.free_trials_limit}`}
          testId="account-trials"
        />
        <Row
          label={t('account.credits.segment')}
          value={t(`account.segment.${user.segment}`)}
          testId="account-segment"
        />
        <Row
          label={t('account.label.plan')}
          testId="account-plan-name"
          value={
            plan ? (
              <>
                {plan.name} <span className="font-normal text-ink-600">· {plan.status}</span>
              </>
            ) : user.segment === 'customer' ? (
              // Bought credits, no plan: they never expire and there is nothing to renew or cancel.
              <span className="font-normal text-ink-600">{t('account.credits.oneTime')}</span>
            ) : (
              <span className="font-normal text-ink-600">{t('account.credits.noPlan')}</span>
            )
          }
        />
        {plan?.date ? <Row label={plan.dateLabel} value={plan.date} testId="account-plan-date" /> : null}
      </dl>
      {note}
      {canManage ? (
        <>
          <InlineError message={manageError} code={manageErrorCode} />
          <Button variant="secondary" className="mt-4 w-full sm:w-auto" onClick={onManage} disabled={manageBusy}>
            {manageBusy ? <Spinner className="size-4" /> : null}
            {t('account.credits.manage')}
          </Button>
        </>
      ) : null}
    </SectionCard>
  );
}
