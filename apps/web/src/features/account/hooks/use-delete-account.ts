import { useCallback, useState } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { deleteAccount } from '../api/delete-account';

/** "Delete my data": calls the server, then `onDeleted` (which starts a fresh anonymous session). */
export function useDeleteAccount(onDeleted: () => Promise<void> | void, remove: typeof deleteAccount = deleteAccount) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);

  const confirm = useCallback(async (): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setErrorCode(null);
    try {
      await remove();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : MESSAGES.internalError);
      setErrorCode(e instanceof ApiError ? (e.code ?? null) : null);
      setBusy(false);
      return false;
    }
    try {
      await onDeleted();
    } finally {
      setBusy(false);
    }
    return true;
  }, [onDeleted, remove]);

  const clearError = useCallback(() => {
    setError(null);
    setErrorCode(null);
  }, []);
  /** `error` stays in English (translated where it is shown); `errorCode` is the server's code for it. */
  return { confirm, busy, error, errorCode, clearError };
}
