import { useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, type User } from '@aidressup/contract';
import { Button, buttonClasses } from '../../../components/ui/button';
import { CheckIcon, InfoIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { rich } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { cancelDemoPlan } from '../api/cancel-demo-plan';
import { useAccountFormat } from '../utils/format';
import { InlineError, SectionCard } from './section-card';

export interface DemoPortalProps {
  user: User;
  /** The user after cancelling (replaces the session's user). */
  onUpdated: (user: User) => void;
  cancel?: () => Promise<User>;
}

/** The demo billing stand-in for Paddle's customer portal: shows the plan and cancels it. */
export function DemoPortal({ user, onUpdated, cancel = cancelDemoPlan }: DemoPortalProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code: string | null } | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const { t, summarisePlan } = useAccountFormat();
  const plan = summarisePlan(user.subscription);

  const onCancel = async () => {
    setBusy(true);
    setError(null);
    try {
      onUpdated(await cancel());
      setCancelled(true);
    } catch (e) {
      setError(
        e instanceof ApiError
          ? { message: e.message, code: e.code ?? null }
          : { message: MESSAGES.internalError, code: null },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-6">
      <div
        className="flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
        role="note"
      >
        <InfoIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <p>{rich(t('account.demo.notice'), { 0: (text) => <strong>{text}</strong> })}</p>
      </div>
      <SectionCard title={t('account.demo.currentPlan')} testId="demo-portal-plan">
        {plan ? (
          <dl className="mt-2 divide-y divide-ink-100">
            <div className="flex flex-wrap justify-between gap-x-4 py-2.5">
              <dt className="text-sm text-ink-600">{t('account.label.plan')}</dt>
              <dd className="font-semibold text-ink-950" data-testid="demo-portal-plan-name">
                {plan.name}
              </dd>
            </div>
            <div className="flex flex-wrap justify-between gap-x-4 py-2.5">
              <dt className="text-sm text-ink-600">{t('account.label.status')}</dt>
              <dd className="font-semibold text-ink-950" data-testid="demo-portal-status">
                {plan.status}
              </dd>
            </div>
            {plan.date ? (
              <div className="flex flex-wrap justify-between gap-x-4 py-2.5">
                <dt className="text-sm text-ink-600">{plan.dateLabel}</dt>
                <dd className="font-semibold text-ink-950" data-testid="demo-portal-date">
                  {plan.date}
                </dd>
              </div>
            ) : null}
            <div className="flex flex-wrap justify-between gap-x-4 py-2.5">
              <dt className="text-sm text-ink-600">{t('account.label.credits')}</dt>
              <dd className="font-semibold text-ink-950">{user.credits}</dd>
            </div>
          </dl>
        ) : (
          <p className="mt-3 text-sm text-ink-600">{t('account.demo.noPlan')}</p>
        )}
        {cancelled ? (
          <p role="status" className="mt-4 flex gap-2 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
            <CheckIcon className="mt-0.5 size-4 shrink-0" />
            {t('account.demo.cancelled')}
          </p>
        ) : null}
        <InlineError message={error?.message ?? null} code={error?.code} />
        <div className="mt-5 flex flex-col gap-3 sm:flex-row">
          {plan?.renewing ? (
            <Button variant="danger" onClick={onCancel} disabled={busy}>
              {busy ? <Spinner className="size-4" /> : null}
              {t('account.demo.cancel')}
            </Button>
          ) : null}
          <Link to="/account" className={buttonClasses('secondary', 'md')}>
            {t('account.demo.back')}
          </Link>
        </div>
      </SectionCard>
    </div>
  );
}
