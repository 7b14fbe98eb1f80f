import { useEffect, useId, useState, type ReactNode } from 'react';
import { WEB_MESSAGES, type PublicConfig, type User } from '@aidressup/contract';
import { Dialog } from '../../../components/ui/dialog';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import { useCheckout } from '../hooks/use-checkout';
import type { PaywallReason } from '../hooks/use-paywall';
import { defaultPlanId, paywallSubtitle, paywallTitle } from '../utils/paywall-copy';
import { CheckoutBar } from './checkout-bar';
import { DemoCheckout } from './demo-checkout';
import { PaymentAwaiting } from './payment-awaiting';
import { PlanGrid } from './plan-grid';
import { PurchaseComplete } from './purchase-complete';
import { TrustFooter } from './trust-footer';

export interface PaywallModalProps {
  open: boolean;
  reason: PaywallReason;
  onClose: () => void;
  config: PublicConfig;
  user: User | null;
  setUser: (user: User) => void;
  refreshUser: () => Promise<User | null>;
  /** After an anonymous purchase: offers to save the credits with an email (opens the sign-in dialog). */
  onSaveWithEmail?: () => void;
  /** A purchase has completed (its credits are on the user). */
  onPurchased?: () => void;
}

export function PaywallModal({
  open,
  reason,
  onClose,
  config,
  user,
  setUser,
  refreshUser,
  onSaveWithEmail,
  onPurchased,
}: PaywallModalProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const plans = config.plans;
  const [selected, setSelected] = useState(() => defaultPlanId(plans));
  const checkout = useCheckout({
    billing: config.billing,
    user,
    setUser,
    refreshUser,
    onClose,
    onSaveWithEmail,
    onPurchased,
  });
  const { view, backToPlans } = checkout;
  const groupName = useId();

  useEffect(() => {
    if (open) {
      setSelected(defaultPlanId(plans));
      backToPlans();
    }
  }, [open, plans, backToPlans]);

  const selectedPlan = plans.find((p) => p.id === selected) ?? null;

  let title: string;
  let description: string | undefined;
  let size: string;
  let testId: string;
  let body: ReactNode;

  if (view.kind === 'demo') {
    const { plan } = view;
    title = t('paywall.demo.title');
    size = 'max-w-lg';
    testId = 'demo-checkout';
    body = (
      <DemoCheckout
        plan={plan}
        busy={view.busy}
        error={view.error}
        onBack={backToPlans}
        onComplete={() => void checkout.completeDemo(plan)}
      />
    );
  } else if (view.kind === 'done') {
    title = t('paywall.done.title');
    size = 'max-w-md';
    testId = 'purchase-complete';
    body = <PurchaseComplete plan={view.plan} user={user} onSaveWithEmail={onSaveWithEmail} onStart={checkout.close} />;
  } else if (view.kind === 'awaiting') {
    title = localize(WEB_MESSAGES.paymentReceived);
    size = 'max-w-md';
    testId = 'payment-awaiting';
    body = <PaymentAwaiting plan={view.plan} slow={view.slow} onClose={checkout.close} />;
  } else {
    title = localize(paywallTitle(reason));
    description = paywallSubtitle(reason, t, user);
    size = 'max-w-6xl';
    testId = 'paywall';
    body = (
      <>
        <PlanGrid plans={plans} selected={selected} name={groupName} onSelect={setSelected} onChoose={checkout.start} />
        <CheckoutBar plan={selectedPlan} onContinue={() => checkout.start(selectedPlan)} />
        <TrustFooter provider={config.billing.provider} />
      </>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={checkout.close}
      title={title}
      description={description}
      className={size}
      testId={testId}
      focusKey={view.kind}
    >
      {body}
    </Dialog>
  );
}
