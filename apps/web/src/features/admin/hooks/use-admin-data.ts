import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useAdminAccessHandler } from './use-admin-access';

export interface AdminData<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
  /** Replaces the data in place (after an action answered with the new state). */
  setData: (change: (data: T) => T) => void;
}

/**
 * Loads what an operator page shows whenever `key` changes (null: nothing to load); a newer load
 * aborts the older one. 401 and 403 go to the console (sign in again, or not an operator).
 * Data is only ever shown for the key it was loaded for: while another key loads, or after its
 * load failed, there is none (a reload of the same key keeps it in the meantime).
 */
export function useAdminData<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): AdminData<T> {
  const loadRef = useRef(load);
  loadRef.current = load;
  const onAccessError = useAdminAccessHandler();
  const [state, setState] = useState<{ data: T | null; of: string | null; error: string | null; loading: boolean }>({
    data: null,
    of: null,
    error: null,
    loading: key !== null,
  });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (key === null) {
      setState({ data: null, of: null, error: null, loading: false });
      return;
    }
    const ctrl = new AbortController();
    setState((s) =>
      s.of === key ? { ...s, error: null, loading: true } : { data: null, of: key, error: null, loading: true },
    );
    loadRef.current(ctrl.signal).then(
      (data) => {
        if (!ctrl.signal.aborted) setState({ data, of: key, error: null, loading: false });
      },
      (e: unknown) => {
        if (ctrl.signal.aborted) return;
        if (onAccessError(e)) return;
        setState((s) => ({
          ...s,
          loading: false,
          error: e instanceof ApiError ? e.message : 'Could not reach the server.',
        }));
      },
    );
    return () => ctrl.abort();
  }, [key, version, onAccessError]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const setData = useCallback(
    (change: (data: T) => T) => setState((s) => (s.data === null ? s : { ...s, data: change(s.data) })),
    [],
  );
  const shown = state.of === key ? state : { data: null, error: null, loading: key !== null };
  return { data: shown.data, error: shown.error, loading: shown.loading, reload, setData };
}
