/**
 * Paddle Billing overlay checkout for the paywall.
 *
 * Paddle.js is loaded (dynamic import of `@paddle/paddle-js`, which injects Paddle's script) only
 * when the server's billing provider is `paddle`; with demo billing nothing is loaded. Credits are
 * never granted here: the page only opens the overlay, and the server grants on Paddle's verified
 * webhook. The paywall shows the alerts and polls the user until the grant appears. The overlay
 * speaks the page's language (`settings.locale`, Paddle's code for it).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublicConfig, PublicPlan } from '@aidressup/contract';
import type { Paddle, PaddleEventData } from '@paddle/paddle-js';
import { LOCALE_INFO } from '../../i18n/locales';
import { useLocale } from '../../i18n/use-t';

export interface PaddleCheckout {
  /** True once Paddle.js is loaded and initialised. */
  ready: boolean;
  /**
   * Opens the overlay for one plan; throws when it cannot (the caller alerts). A signed-in
   * customer's email is passed to Paddle, so the purchase and its receipts reach that address.
   */
  open(args: { plan: PublicPlan; userId: string; email?: string | null; onCompleted: () => void }): void;
}

/** Logs a provider event with ids and status only (never names, e-mails or card details). */
function logEvent(event: PaddleEventData): void {
  const data = event.data;
  console.info('[paddle]', event.name ?? event.type ?? 'event', {
    ...(data?.transaction_id ? { transactionId: data.transaction_id } : {}),
    ...(data?.status ? { status: data.status } : {}),
    ...(event.code ? { code: event.code } : {}),
  });
}

export function usePaddleCheckout(billing: PublicConfig['billing']): PaddleCheckout {
  const [ready, setReady] = useState(false);
  const locale = useLocale();
  const paddleRef = useRef<Paddle | null>(null);
  /** The callback of the checkout currently open; called once on `checkout.completed`. */
  const completedRef = useRef<(() => void) | null>(null);

  const { provider, environment, clientToken } = billing;

  useEffect(() => {
    if (provider !== 'paddle' || !environment || !clientToken) return;
    let cancelled = false;
    const eventCallback = (event: PaddleEventData) => {
      logEvent(event);
      if (event.name === 'checkout.completed') {
        const done = completedRef.current;
        completedRef.current = null;
        done?.();
      }
    };
    import('@paddle/paddle-js')
      .then(({ initializePaddle }) => initializePaddle({ environment, token: clientToken, eventCallback }))
      .then((paddle) => {
        if (cancelled) return;
        if (!paddle) {
          console.error('[paddle] Paddle.js did not load');
          return;
        }
        paddleRef.current = paddle;
        setReady(true);
      })
      .catch((err: unknown) => {
        if (!cancelled) console.error('[paddle] Paddle.js failed to load', err);
      });
    return () => {
      cancelled = true;
    };
  }, [provider, environment, clientToken]);

  const open = useCallback<PaddleCheckout['open']>(
    ({ plan, userId, email, onCompleted }) => {
      const paddle = paddleRef.current;
      if (!paddle) throw new Error('Paddle.js is not ready');
      if (!plan.paddlePriceId) throw new Error(`Plan ${plan.id} has no Paddle price`);
      completedRef.current = onCompleted;
      try {
        paddle.Checkout.open({
          items: [{ priceId: plan.paddlePriceId, quantity: 1 }],
          customData: { userId, planId: plan.id, credits: plan.credits },
          ...(email ? { customer: { email } } : {}),
          settings: { displayMode: 'overlay', theme: 'light', locale: LOCALE_INFO[locale].paddle },
        });
      } catch (err) {
        completedRef.current = null;
        throw err;
      }
    },
    [locale],
  );

  return { ready: provider === 'paddle' && ready, open };
}
