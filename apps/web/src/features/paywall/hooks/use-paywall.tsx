import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Why the paywall opened: the header depends on it. */
export type PaywallReason = 'no_credits' | 'trial_exhausted' | 'upgrade';

interface PaywallState {
  open: boolean;
  reason: PaywallReason;
  openPaywall: (reason: PaywallReason) => void;
  closePaywall: () => void;
  /** Purchases completed on this page (their credits arrived): a try-on refused for want of them may resume. */
  purchases: number;
  /** A purchase has completed: its credits are on the user. */
  notePurchase: () => void;
}

const PaywallContext = createContext<PaywallState | null>(null);

export function PaywallProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<PaywallReason>('upgrade');
  const openPaywall = useCallback((r: PaywallReason) => {
    setReason(r);
    setOpen(true);
  }, []);
  const closePaywall = useCallback(() => setOpen(false), []);
  const [purchases, setPurchases] = useState(0);
  const notePurchase = useCallback(() => setPurchases((n) => n + 1), []);
  const value = useMemo(
    () => ({ open, reason, openPaywall, closePaywall, purchases, notePurchase }),
    [open, reason, openPaywall, closePaywall, purchases, notePurchase],
  );
  return <PaywallContext value={value}>{children}</PaywallContext>;
}

export function usePaywall(): PaywallState {
  const ctx = useContext(PaywallContext);
  if (!ctx) throw new Error('usePaywall must be used inside PaywallProvider');
  return ctx;
}
