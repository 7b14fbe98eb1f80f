import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { MESSAGES, WEB_MESSAGES, type PublicConfig, type PublicPlan, type User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, ArrowRightIcon, CheckIcon, InfoIcon, MailIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { demoCheckout } from '../api/demo-checkout';
import type { PaywallReason } from '../hooks/use-paywall';
import { usePaddleCheckout } from '../paddle';
import { defaultPlanId, paywallSubtitle, paywallTitle, periodLabel, validityLabel } from '../utils/paywall-copy';
import { PlanCard } from './plan-card';
import { TrustBadges } from './trust-badges';

const POLL_INTERVAL_MS = 2_000;
const POLL_LIMIT_MS = 120_000;

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
}

type View =
  | { kind: 'plans' }
  | { kind: 'demo'; plan: PublicPlan; busy: boolean; error: string | null }
  | { kind: 'done'; plan: PublicPlan }
  | { kind: 'awaiting'; plan: PublicPlan; slow: boolean };

function changed(before: User | null, after: User | null): boolean {
  if (!before || !after) return false;
  return (
    before.credits !== after.credits ||
    JSON.stringify(before.subscription ?? null) !== JSON.stringify(after.subscription ?? null)
  );
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
}: PaywallModalProps) {
  const plans = config.plans;
  const [selected, setSelected] = useState(() => defaultPlanId(plans));
  const [view, setView] = useState<View>({ kind: 'plans' });
  const paddle = usePaddleCheckout(config.billing);
  const groupName = useId();
  const pollTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const userRef = useRef(user);
  userRef.current = user;

  useEffect(() => {
    if (open) {
      setSelected(defaultPlanId(plans));
      setView({ kind: 'plans' });
    }
  }, [open, plans]);

  useEffect(
    () => () => {
      if (pollTimer.current) clearTimeout(pollTimer.current);
    },
    [],
  );

  const selectedPlan = plans.find((p) => p.id === selected) ?? null;

  const awaitPaddleConfirmation = (plan: PublicPlan) => {
    const before = userRef.current;
    const started = Date.now();
    setView({ kind: 'awaiting', plan, slow: false });
    const tick = async () => {
      const fresh = await refreshUser();
      if (changed(before, fresh)) {
        pollTimer.current = null;
        // An anonymous buyer is offered to keep the credits with an email; others are done.
        if (fresh && !fresh.email && onSaveWithEmail) setView({ kind: 'done', plan });
        else onClose();
        return;
      }
      if (Date.now() - started >= POLL_LIMIT_MS) {
        pollTimer.current = null;
        setView({ kind: 'awaiting', plan, slow: true });
        return;
      }
      pollTimer.current = setTimeout(() => void tick(), POLL_INTERVAL_MS);
    };
    pollTimer.current = setTimeout(() => void tick(), POLL_INTERVAL_MS);
  };

  const startCheckout = (plan: PublicPlan | null) => {
    if (!plan) return;
    if (!user) {
      window.alert(MESSAGES.userNotFound);
      return;
    }
    if (config.billing.provider === 'demo') {
      setView({ kind: 'demo', plan, busy: false, error: null });
      return;
    }
    if (!paddle.ready) {
      window.alert(MESSAGES.paymentLoading);
      return;
    }
    try {
      paddle.open({ plan, userId: user.id, email: user.email, onCompleted: () => awaitPaddleConfirmation(plan) });
    } catch (e) {
      console.warn('Checkout failed to open', e);
      window.alert(MESSAGES.checkoutFailed);
    }
  };

  const completeDemo = async (plan: PublicPlan) => {
    setView({ kind: 'demo', plan, busy: true, error: null });
    try {
      const updated = await demoCheckout(plan.id);
      setUser(updated);
      setView({ kind: 'done', plan });
    } catch (e) {
      setView({
        kind: 'demo',
        plan,
        busy: false,
        error: e instanceof ApiError ? e.message : WEB_MESSAGES.demoCheckoutFailed,
      });
    }
  };

  const close = () => {
    if (pollTimer.current) clearTimeout(pollTimer.current);
    pollTimer.current = null;
    onClose();
  };

  let title: string;
  let description: string | undefined;
  let size: string;
  let testId: string;
  let body: ReactNode;

  if (view.kind === 'demo') {
    const { plan } = view;
    title = 'Demo checkout';
    size = 'max-w-lg';
    testId = 'demo-checkout';
    body = (
      <>
        <div
          className="mt-4 flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
          role="note"
        >
          <InfoIcon className="mt-0.5 size-5 shrink-0 text-amber-700" />
          <p>
            <strong>Demo mode: no card is charged.</strong> Card payments are not set up on this installation, so this
            checkout only simulates a purchase and adds the plan&apos;s credits to your account.
          </p>
        </div>
        <dl className="mt-5 divide-y divide-ink-100 rounded-2xl border border-ink-200 text-sm">
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-ink-600">Plan</dt>
            <dd className="font-semibold text-ink-950">{plan.name}</dd>
          </div>
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-ink-600">Price</dt>
            <dd className="font-semibold text-ink-950">
              {plan.price} {periodLabel(plan)}
            </dd>
          </div>
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-ink-600">Credits</dt>
            <dd className="font-semibold text-ink-950">
              {plan.credits} · {validityLabel(plan)}
            </dd>
          </div>
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-ink-600">Charged today</dt>
            <dd className="font-semibold text-emerald-700">$0.00 (demo)</dd>
          </div>
        </dl>
        {view.error ? (
          <p role="alert" className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {view.error}
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setView({ kind: 'plans' })} disabled={view.busy}>
            Back to plans
          </Button>
          <Button onClick={() => completeDemo(plan)} disabled={view.busy} data-autofocus>
            {view.busy ? <Spinner className="size-4" /> : null}
            Complete demo purchase
          </Button>
        </div>
      </>
    );
  } else if (view.kind === 'done') {
    title = "You're all set!";
    size = 'max-w-md';
    testId = 'purchase-complete';
    body = (
      <>
        <div className="mt-4 flex flex-col items-center text-center">
          <span className="grid size-14 place-items-center rounded-full bg-emerald-100 text-emerald-700">
            <CheckIcon className="size-7" />
          </span>
          <p className="mt-4 text-ink-700" role="status">
            {view.plan.name} is active: <strong>{view.plan.credits} credits</strong> were added to your account.
          </p>
          {user ? <p className="mt-1 text-sm text-ink-500">You now have {user.credits} credits.</p> : null}
          {user && !user.email && onSaveWithEmail ? (
            <div
              className="mt-5 w-full rounded-2xl border border-brand-200 bg-brand-50 p-4 text-left"
              data-testid="save-credits-prompt"
            >
              <p className="flex gap-2 text-sm text-ink-800">
                <MailIcon className="mt-0.5 size-4 shrink-0 text-brand-700" />
                <span>
                  <strong className="text-ink-950">Save your credits with your email.</strong> They now belong to this
                  browser only; sign in to keep them and use them on any device.
                </span>
              </p>
              <Button variant="secondary" size="sm" className="mt-3 w-full" onClick={onSaveWithEmail}>
                Save with email
              </Button>
            </div>
          ) : null}
          <Button className="mt-6 w-full" onClick={close} data-autofocus>
            Start creating
          </Button>
        </div>
      </>
    );
  } else if (view.kind === 'awaiting') {
    title = WEB_MESSAGES.paymentReceived;
    size = 'max-w-md';
    testId = 'payment-awaiting';
    body = (
      <>
        <div className="mt-5 flex flex-col items-center text-center" role="status">
          {view.slow ? (
            <p className="text-ink-700">{WEB_MESSAGES.paymentSlow}</p>
          ) : (
            <>
              <Spinner className="size-10 text-brand-600" />
              <p className="mt-4 text-ink-700">Confirming your {view.plan.name} purchase…</p>
            </>
          )}
          <Button variant="secondary" className="mt-6" onClick={close}>
            Close
          </Button>
        </div>
      </>
    );
  } else {
    title = paywallTitle(reason);
    description = paywallSubtitle(reason);
    size = 'max-w-6xl';
    testId = 'paywall';
    body = (
      <>
        <fieldset className="mt-8">
          <legend className="sr-only">Choose a plan</legend>
          <div className="grid gap-5 pt-2 sm:grid-cols-2 lg:grid-cols-4">
            {plans.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                name={groupName}
                selected={plan.id === selected}
                onSelect={() => setSelected(plan.id)}
                onChoose={() => startCheckout(plan)}
                busy={false}
              />
            ))}
          </div>
        </fieldset>
        {/* On phones the button stays in reach while the plans scroll. */}
        <div className="sticky bottom-0 z-10 -mx-5 mt-6 flex flex-col items-center gap-2 border-t border-ink-100 bg-white/95 px-5 pt-3 pb-3 backdrop-blur sm:static sm:mx-0 sm:mt-8 sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none">
          <Button
            size="lg"
            className="w-full sm:w-auto sm:min-w-80"
            onClick={() => startCheckout(selectedPlan)}
            disabled={!selectedPlan}
          >
            Continue to Payment
            <ArrowRightIcon className="size-5" />
          </Button>
          {selectedPlan ? (
            <p className="text-sm text-ink-500" aria-live="polite">
              Selected: <span className="font-semibold text-ink-800">{selectedPlan.name}</span> · {selectedPlan.price}{' '}
              {periodLabel(selectedPlan)}
            </p>
          ) : null}
        </div>
        <div className="mt-4 flex flex-col items-center gap-4">
          <TrustBadges />
          {config.billing.provider === 'demo' ? (
            <p className="text-xs text-ink-500">
              Demo mode: card payments are not set up here, and no card is ever charged.
            </p>
          ) : (
            <p className="text-xs text-ink-500">
              Subscriptions renew automatically until cancelled. Subscription credits expire at the end of each period.
            </p>
          )}
        </div>
      </>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={close}
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
