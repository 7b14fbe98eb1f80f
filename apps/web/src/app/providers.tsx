import type { ReactNode } from 'react';
import { SessionProvider } from '../features/session/hooks/use-session';
import { SignInDialogProvider } from '../features/session/hooks/use-sign-in-dialog';
import { PaywallProvider } from '../features/paywall/hooks/use-paywall';
import { ConfigProvider } from '../lib/public-config';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider>
      <SessionProvider>
        <SignInDialogProvider>
          <PaywallProvider>{children}</PaywallProvider>
        </SignInDialogProvider>
      </SessionProvider>
    </ConfigProvider>
  );
}
