import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGES, WEB_MESSAGES, type PublicConfig, type PublicPlan, type User } from '@aidressup/contract';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { ApiError } from '../../../lib/api-client';
import { demoCheckout } from '../api/demo-checkout';
import { usePaddleCheckout } from '../paddle';

const POLL_INTERVAL_MS = 2_000;
const POLL_LIMIT_MS = 120_000;

/** What the paywall shows: the plans, the demo checkout, the purchase done, or Paddle's payment awaited. */
export type CheckoutView =
  | { kind: 'plans' }
  /** `error` keeps the English text (and code) and is translated when shown. */
  | { kind: 'demo'; plan: PublicPlan; busy: boolean; error: { message: string; code?: string } | null }
  | { kind: 'done'; plan: PublicPlan }
  | { kind: 'awaiting'; plan: PublicPlan; slow: boolean };

export interface CheckoutDeps {
  billing: PublicConfig['billing'];
  user: User | null;
  setUser: (user: User) => void;
  refreshUser: () => Promise<User | null>;
  /** Closes the paywall. */
  onClose: () => void;
  /** After an anonymous purchase: offers to save the credits with an email (opens the sign-in dialog). */
  onSaveWithEmail?: (() => void) | undefined;
  /** A purchase has completed: its credits are on the user (not for a checkout closed or still awaited). */
  onPurchased?: (() => void) | undefined;
}

function changed(before: User | null, after: User | null): boolean {
  if (!before || !after) return false;
  return (
    before.credits !== after.credits ||
    JSON.stringify(before.subscription ?? null) !== JSON.stringify(after.subscription ?? null)
  );
}

/**
 * The paywall's checkout: the demo checkout (its busy and error states), or Paddle's overlay and
 * then polling the user until the webhook's grant shows (slow after two minutes). Alerts speak the
 * page's language.
 */
export function useCheckout({
  billing,
  user,
  setUser,
  refreshUser,
  onClose,
  onSaveWithEmail,
  onPurchased,
}: CheckoutDeps) {
  const localize = useLocalizeMessage();
  const [view, setView] = useState<CheckoutView>({ kind: 'plans' });
  const paddle = usePaddleCheckout(billing);
  const pollTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const userRef = useRef(user);
  userRef.current = user;

  useEffect(
    () => () => {
      if (pollTimer.current) clearTimeout(pollTimer.current);
    },
    [],
  );

  const awaitPaddleConfirmation = (plan: PublicPlan) => {
    const before = userRef.current;
    const started = Date.now();
    setView({ kind: 'awaiting', plan, slow: false });
    const tick = async () => {
      const fresh = await refreshUser();
      if (changed(before, fresh)) {
        pollTimer.current = null;
        onPurchased?.();
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

  /** Continue with a plan: the demo checkout, else Paddle's overlay (alerts when it cannot open). */
  const start = (plan: PublicPlan | null) => {
    if (!plan) return;
    if (!user) {
      window.alert(localize(MESSAGES.userNotFound));
      return;
    }
    if (billing.provider === 'demo') {
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
      onPurchased?.();
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

  const backToPlans = useCallback(() => setView({ kind: 'plans' }), []);

  /** Stops waiting for a payment and closes the paywall. */
  const close = () => {
    if (pollTimer.current) clearTimeout(pollTimer.current);
    pollTimer.current = null;
    onClose();
  };

  return { view, start, completeDemo, backToPlans, close };
}
