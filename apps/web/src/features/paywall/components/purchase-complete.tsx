import type { PublicPlan, User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { CheckIcon, MailIcon } from '../../../components/ui/icons';
import { rich, useT } from '../../../i18n/use-t';
import { planCopy } from '../utils/paywall-copy';

export interface PurchaseCompleteProps {
  plan: PublicPlan;
  user: User | null;
  /** Offered to an anonymous buyer: keep the credits with an email. */
  onSaveWithEmail?: (() => void) | undefined;
  onStart: () => void;
}

/** The purchase is done: the plan, the new balance, and for an anonymous buyer the offer to save it. */
export function PurchaseComplete({ plan, user, onSaveWithEmail, onStart }: PurchaseCompleteProps) {
  const t = useT();
  const planName = planCopy(plan, t).name;
  return (
    <div className="mt-4 flex flex-col items-center text-center">
      <span className="grid size-14 place-items-center rounded-full bg-emerald-100 text-emerald-700">
        <CheckIcon className="size-7" />
      </span>
      <p className="mt-4 text-ink-700" role="status">
        {rich(t('paywall.done.active', { plan: planName, count: plan.credits }), {
          0: (text) => <strong>{text}</strong>,
        })}
      </p>
      {user ? <p className="mt-1 text-sm text-ink-500">{t('paywall.done.balance', { count: user.credits })}</p> : null}
      {user && !user.email && onSaveWithEmail ? (
        <div
          className="mt-5 w-full rounded-2xl border border-brand-200 bg-brand-50 p-4 text-start"
          data-testid="save-credits-prompt"
        >
          <p className="flex gap-2 text-sm text-ink-800">
            <MailIcon className="mt-0.5 size-4 shrink-0 text-brand-700" />
            <span>
              {rich(t('paywall.done.save'), { 0: (text) => <strong className="text-ink-950">{text}</strong> })}
            </span>
          </p>
          <Button variant="secondary" size="sm" className="mt-3 w-full" onClick={onSaveWithEmail}>
            {t('paywall.done.saveButton')}
          </Button>
        </div>
      ) : null}
      <Button className="mt-6 w-full" onClick={onStart} data-autofocus>
        {t('paywall.done.start')}
      </Button>
    </div>
  );
}
