import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

interface SignInDialogState {
  open: boolean;
  /** The address to start with (e.g. from an expired magic link). */
  initialEmail: string;
  openSignIn: (options?: { email?: string }) => void;
  closeSignIn: () => void;
}

const SignInDialogContext = createContext<SignInDialogState | null>(null);

/** Whether the email sign-in dialog is open; any page or prompt can open it. */
export function SignInDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [initialEmail, setInitialEmail] = useState('');
  const openSignIn = useCallback((options?: { email?: string }) => {
    setInitialEmail(options?.email ?? '');
    setOpen(true);
  }, []);
  const closeSignIn = useCallback(() => setOpen(false), []);
  const value = useMemo(
    () => ({ open, initialEmail, openSignIn, closeSignIn }),
    [open, initialEmail, openSignIn, closeSignIn],
  );
  return <SignInDialogContext value={value}>{children}</SignInDialogContext>;
}

export function useSignInDialog(): SignInDialogState {
  const ctx = useContext(SignInDialogContext);
  if (!ctx) throw new Error('useSignInDialog must be used inside SignInDialogProvider');
  return ctx;
}
