import { useCallback, useEffect, useState } from 'react';
import { WEB_MESSAGES, type TryOnItem, type TryOnReportState } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { getTryOns } from '../api/get-tryons';

/** An error as the server (or the contract) gives it in English, with its code: translated when shown. */
export interface ListError {
  message: string;
  code?: string;
}

const errorOf = (e: unknown, fallback: string): ListError =>
  e instanceof ApiError ? { message: e.message, code: e.code } : { message: fallback };

interface ListState {
  /** The load these answers belong to (session and attempt). */
  key: string | null;
  items: TryOnItem[] | null;
  nextCursor: string | null;
  error: ListError | null;
  loadingMore: boolean;
  moreError: ListError | null;
}

const EMPTY: ListState = { key: null, items: null, nextCursor: null, error: null, loadingMore: false, moreError: null };

/**
 * The session user's results, a page at a time (newest first). `sessionKey` names the session
 * (null while none is ready); a new key (after a sign-in, sign-out or deletion) loads the list
 * again from the first page, and answers for an earlier key are dropped.
 */
export function useTryOns(sessionKey: string | null) {
  const [attempt, setAttempt] = useState(0);
  const key = sessionKey ? `${sessionKey}#${attempt}` : null;
  const [state, setState] = useState<ListState>(EMPTY);
  // Until the first page for this key arrives, nothing of an earlier one is shown.
  const current = state.key === key ? state : { ...EMPTY, key };

  useEffect(() => {
    if (!key) return;
    const ctrl = new AbortController();
    getTryOns(null, ctrl.signal)
      .then((page) => setState({ ...EMPTY, key, items: page.items, nextCursor: page.nextCursor }))
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Could not load the gallery', e);
        setState({ ...EMPTY, key, error: errorOf(e, WEB_MESSAGES.galleryFailed) });
      });
    return () => ctrl.abort();
  }, [key]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);

  const { nextCursor, loadingMore } = current;
  const loadMore = useCallback(() => {
    if (!key || !nextCursor || loadingMore) return;
    const update = (change: (s: ListState) => Partial<ListState>) =>
      setState((s) => (s.key === key ? { ...s, ...change(s) } : s));
    update(() => ({ loadingMore: true, moreError: null }));
    getTryOns(nextCursor)
      .then((page) =>
        update((s) => {
          // A result deleted meanwhile is simply not in the next page; never list one twice.
          const seen = new Set(s.items?.map((i) => i.id));
          return {
            items: [...(s.items ?? []), ...page.items.filter((i) => !seen.has(i.id))],
            nextCursor: page.nextCursor,
            loadingMore: false,
          };
        }),
      )
      .catch((e: unknown) => {
        console.warn('Could not load more of the gallery', e);
        update(() => ({ loadingMore: false, moreError: errorOf(e, WEB_MESSAGES.galleryFailed) }));
      });
  }, [key, nextCursor, loadingMore]);

  const remove = useCallback(
    (id: string) => setState((s) => ({ ...s, items: s.items?.filter((i) => i.id !== id) ?? null })),
    [],
  );
  const setShareUrl = useCallback(
    (id: string, shareUrl: string | null) =>
      setState((s) => ({ ...s, items: s.items?.map((i) => (i.id === id ? { ...i, shareUrl } : i)) ?? null })),
    [],
  );

  const setReport = useCallback(
    (id: string, report: TryOnReportState) =>
      setState((s) => ({ ...s, items: s.items?.map((i) => (i.id === id ? { ...i, report } : i)) ?? null })),
    [],
  );

  return {
    items: current.items,
    error: current.error,
    retry,
    nextCursor,
    loadMore,
    loadingMore,
    moreError: current.moreError,
    remove,
    setShareUrl,
    setReport,
  };
}
