import { useCallback, useEffect, useState } from 'react';
import { WEB_MESSAGES, type TryOnItem } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { getTryOns } from '../api/get-tryons';

/**
 * The session user's results. `sessionKey` names the session (null while none is ready); a new key
 * (after a sign-in, sign-out or deletion) loads the list again.
 */
export function useTryOns(sessionKey: string | null) {
  const [items, setItems] = useState<TryOnItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!sessionKey) return;
    const ctrl = new AbortController();
    setError(null);
    setItems(null);
    getTryOns(ctrl.signal)
      .then(setItems)
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Could not load the gallery', e);
        setError(e instanceof ApiError ? e.message : WEB_MESSAGES.galleryFailed);
      });
    return () => ctrl.abort();
  }, [sessionKey, attempt]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { items, error, retry };
}
