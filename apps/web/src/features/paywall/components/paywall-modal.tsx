import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { MESSAGES, WEB_MESSAGES, type PublicConfig, type PublicPlan, type User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { AlertIcon, ArrowRightIcon, CheckIcon, InfoIcon, MailIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useFormat } from '../../../i18n/format';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { demoCheckout } from '../api/demo-checkout';
import type { PaywallReason } from '../hooks/use-paywall';
import { usePaddleCheckout } from '../paddle';
import {
  defaultPlanId,
  paywallSubtitle,
  paywallTitle,
  periodLabel,
  planCopy,
  validityLabel,
} from '../utils/paywall-copy';
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
  /** `error` keeps the English text (and code) and is translated when shown. */
  | { kind: 'demo'; plan: PublicPlan; busy: boolean; error: { message: string; code?: string } | null }
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
  const t = useT();
  const f = useFormat();
  const localize = useLocalizeMessage();
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
      window.alert(localize(MESSAGES.userNotFound));
      return;
    }
    if (config.billing.provider === 'demo') {
      setView({ kind: 'demo', plan, busy: false, error: null });
      return;
    }
    if (!paddle.ready) {
      window.alert(localize(MESSAGES.paymentLoading));
      return;
    }
    try {
      paddle.open({ plan, userId: user.id, email: user.email, onCompleted: () => awaitPaddleConfirmation(plan) });
    } catch (e) {
      console.warn('Checkout failed to open', e);
      window.alert(localize(MESSAGES.checkoutFailed));
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
        error:
          e instanceof ApiError ? { message: e.message, code: e.code } : { message: WEB_MESSAGES.demoCheckoutFailed },
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
    title = t('paywall.demo.title');
    size = 'max-w-lg';
    testId = 'demo-checkout';
    body = (
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
        {view.error ? (
          <p role="alert" className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            {localize(view.error.message, view.error.code)}
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setView({ kind: 'plans' })} disabled={view.busy}>
            {t('paywall.demo.back')}
          </Button>
          <Button onClick={() => completeDemo(plan)} disabled={view.busy} data-autofocus>
            {view.busy ? <Spinner className="size-4" /> : null}
            {t('paywall.demo.complete')}
          </Button>
        </div>
      </>
    );
  } else if (view.kind === 'done') {
    const planName = planCopy(view.plan, t).name;
    title = t('paywall.done.title');
    size = 'max-w-md';
    testId = 'purchase-complete';
    body = (
      <>
        <div className="mt-4 flex flex-col items-center text-center">
          <span className="grid size-14 place-items-center rounded-full bg-emerald-100 text-emerald-700">
            <CheckIcon className="size-7" />
          </span>
          <p className="mt-4 text-ink-700" role="status">
            {rich(t('paywall.done.active', { plan: planName, count: view.plan.credits }), {
              0: (text) => <strong>{text}</strong>,
            })}
          </p>
          {user ? (
            <p className="mt-1 text-sm text-ink-500">{t('paywall.done.balance', { count: user.credits })}</p>
          ) : null}
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
          <Button className="mt-6 w-full" onClick={close} data-autofocus>
            {t('paywall.done.start')}
          </Button>
        </div>
      </>
    );
  } else if (view.kind === 'awaiting') {
    title = localize(WEB_MESSAGES.paymentReceived);
    size = 'max-w-md';
    testId = 'payment-awaiting';
    body = (
      <>
        <div className="mt-5 flex flex-col items-center text-center" role="status">
          {view.slow ? (
            <p className="text-ink-700">{localize(WEB_MESSAGES.paymentSlow)}</p>
          ) : (
            <>
              <Spinner className="size-10 text-brand-600" />
              <p className="mt-4 text-ink-700">
                {t('paywall.awaiting.confirming', { plan: planCopy(view.plan, t).name })}
              </p>
            </>
          )}
          <Button variant="secondary" className="mt-6" onClick={close}>
            {t('paywall.close')}
          </Button>
        </div>
      </>
    );
  } else {
    title = localize(paywallTitle(reason));
    description = paywallSubtitle(reason, t);
    size = 'max-w-6xl';
    testId = 'paywall';
    body = (
      <>
        <fieldset className="mt-8">
          <legend className="sr-only">{t('paywall.plans.legend')}</legend>
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
            {t('paywall.continue')}
            <ArrowRightIcon className="size-5 rtl:-scale-x-100" />
          </Button>
          {selectedPlan ? (
            <p className="text-sm text-ink-500" aria-live="polite">
              {rich(
                t('paywall.selected', {
                  plan: planCopy(selectedPlan, t).name,
                  price: f.price(selectedPlan.priceValue),
                  period: periodLabel(selectedPlan, t),
                }),
                { 0: (text) => <span className="font-semibold text-ink-800">{text}</span> },
              )}
            </p>
          ) : null}
        </div>
        <div className="mt-4 flex flex-col items-center gap-4">
          <TrustBadges />
          {config.billing.provider === 'demo' ? (
            <p className="text-xs text-ink-500">{t('paywall.note.demo')}</p>
          ) : (
            <p className="text-xs text-ink-500">{t('paywall.note.renewal')}</p>
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
