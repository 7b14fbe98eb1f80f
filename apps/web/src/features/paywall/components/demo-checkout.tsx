import type { PublicPlan } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { AlertIcon, InfoIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useFormat } from '../../../i18n/format';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import type { CheckoutView } from '../hooks/use-checkout';
import { periodLabel, planCopy, validityLabel } from '../utils/paywall-copy';

export interface DemoCheckoutProps {
  plan: PublicPlan;
  busy: boolean;
  error: Extract<CheckoutView, { kind: 'demo' }>['error'];
  onBack: () => void;
  onComplete: () => void;
}

/** The demo checkout: what the plan would cost and give, nothing charged; completes the purchase. */
export function DemoCheckout({ plan, busy, error, onBack, onComplete }: DemoCheckoutProps) {
  const t = useT();
  const f = useFormat();
  const localize = useLocalizeMessage();
  return (
    <>
      <div
        className="mt-4 flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
        role="note"
      >
        <InfoIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <p>{rich(t('paywall.demo.notice'), { 0: (text) => <strong>{text}</strong> })}</p>
      </div>
      <dl className="mt-5 divide-y divide-ink-100 rounded-2xl border border-ink-200 text-sm">
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-ink-600">{t('paywall.demo.plan')}</dt>
          <dd className="font-semibold text-ink-950">{planCopy(plan, t).name}</dd>
        </div>
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-ink-600">{t('paywall.demo.price')}</dt>
          <dd className="font-semibold text-ink-950">
            {t('paywall.demo.priceValue', { price: f.price(plan.priceValue), period: periodLabel(plan, t) })}
          </dd>
        </div>
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-ink-600">{t('paywall.demo.credits')}</dt>
          <dd className="font-semibold text-ink-950">
            {t('paywall.demo.creditsValue', { count: f.number(plan.credits), validity: validityLabel(plan, t) })}
          </dd>
        </div>
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-ink-600">{t('paywall.demo.chargedToday')}</dt>
          <dd className="font-semibold text-emerald-700">
            {t('paywall.demo.chargedTodayValue', { price: f.price(0) })}
          </dd>
        </div>
      </dl>
      {error ? (
        <p role="alert" className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {localize(error.message, error.code)}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          {t('paywall.demo.back')}
        </Button>
        <Button onClick={onComplete} disabled={busy} data-autofocus>
          {busy ? <Spinner className="size-4" /> : null}
          {t('paywall.demo.complete')}
        </Button>
      </div>
    </>
  );
}
