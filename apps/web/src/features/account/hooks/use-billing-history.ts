import { useCallback, useEffect, useState } from 'react';
import { MESSAGES, type Purchase } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { getBillingHistory } from '../api/get-billing-history';

/** The session user's purchases; `sessionKey` (null while no session is ready) reloads them when it changes. */
export function useBillingHistory(sessionKey: string | null, load: typeof getBillingHistory = getBillingHistory) {
  const [items, setItems] = useState<Purchase[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!sessionKey) return;
    const ctrl = new AbortController();
    setItems(null);
    setError(null);
    setErrorCode(null);
    load(ctrl.signal)
      .then(setItems)
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Could not load the purchase history', e);
        setError(e instanceof ApiError ? e.message : MESSAGES.internalError);
        setErrorCode(e instanceof ApiError ? (e.code ?? null) : null);
      });
    return () => ctrl.abort();
  }, [sessionKey, attempt, load]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  /** `error` stays in English (translated where it is shown); `errorCode` is the server's code for it. */
  return { items, error, errorCode, retry };
}
