import { useCallback, useState } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { getBillingPortal } from '../api/get-billing-portal';

export interface BillingPortalDeps {
  getPortal: () => Promise<string>;
  /** Opens a path of this app (the demo portal). */
  navigate: (path: string) => void;
  /** Leaves for an outside address (Paddle's customer portal). */
  assign: (url: string) => void;
}

/** "Manage subscription": asks the server for the portal and goes there; shows the refusal otherwise. */
function assignLocation(url: string): void {
  window.location.assign(url);
}

export function useBillingPortal(deps: Partial<BillingPortalDeps> & Pick<BillingPortalDeps, 'navigate'>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const { navigate } = deps;
  const getPortal = deps.getPortal ?? getBillingPortal;
  const assign = deps.assign ?? assignLocation;

  const open = useCallback(async () => {
    setBusy(true);
    setError(null);
    setErrorCode(null);
    try {
      const url = await getPortal();
      if (url.startsWith('/') && !url.startsWith('//')) navigate(url);
      else assign(url);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : MESSAGES.portalNotConfigured);
      setErrorCode(e instanceof ApiError ? (e.code ?? null) : null);
    } finally {
      setBusy(false);
    }
  }, [getPortal, navigate, assign]);

  /** `error` stays in English (translated where it is shown); `errorCode` is the server's code for it. */
  return { open, busy, error, errorCode };
}
