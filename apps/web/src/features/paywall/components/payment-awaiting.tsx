import { WEB_MESSAGES, type PublicPlan } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import { planCopy } from '../utils/paywall-copy';

export interface PaymentAwaitingProps {
  plan: PublicPlan;
  /** Past the waiting limit: says the confirmation is slow instead of spinning. */
  slow: boolean;
  onClose: () => void;
}

/** After Paddle's checkout: waiting for the server to confirm the payment. */
export function PaymentAwaiting({ plan, slow, onClose }: PaymentAwaitingProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  return (
    <div className="mt-5 flex flex-col items-center text-center" role="status">
      {slow ? (
        <p className="text-ink-700">{localize(WEB_MESSAGES.paymentSlow)}</p>
      ) : (
        <>
          <Spinner className="size-10 text-brand-600" />
          <p className="mt-4 text-ink-700">{t('paywall.awaiting.confirming', { plan: planCopy(plan, t).name })}</p>
        </>
      )}
      <Button variant="secondary" className="mt-6" onClick={onClose}>
        {t('paywall.close')}
      </Button>
    </div>
  );
}
