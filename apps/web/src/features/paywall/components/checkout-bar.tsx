import type { PublicPlan } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { ArrowRightIcon } from '../../../components/ui/icons';
import { useFormat } from '../../../i18n/format';
import { rich, useT } from '../../../i18n/use-t';
import { periodLabel, planCopy } from '../utils/paywall-copy';

export interface CheckoutBarProps {
  /** The plan selected, or null (the button is disabled). */
  plan: PublicPlan | null;
  onContinue: () => void;
}

/** Continue to Payment with the selected plan, and what it is. */
export function CheckoutBar({ plan, onContinue }: CheckoutBarProps) {
  const t = useT();
  const f = useFormat();
  return (
    // On phones the button stays in reach while the plans scroll.
    <div className="sticky bottom-0 z-10 -mx-5 mt-6 flex flex-col items-center gap-2 border-t border-ink-100 bg-white/95 px-5 pt-3 pb-3 backdrop-blur sm:static sm:mx-0 sm:mt-8 sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none">
      <Button size="lg" className="w-full sm:w-auto sm:min-w-80" onClick={onContinue} disabled={!plan}>
        {t('paywall.continue')}
        <ArrowRightIcon className="size-5 rtl:-scale-x-100" />
      </Button>
      {plan ? (
        <p className="text-sm text-ink-500" aria-live="polite">
          {rich(
            t('paywall.selected', {
              plan: planCopy(plan, t).name,
              price: f.price(plan.priceValue),
              period: periodLabel(plan, t),
            }),
            { 0: (text) => <span className="font-semibold text-ink-800">{text}</span> },
          )}
        </p>
      ) : null}
    </div>
  );
}
