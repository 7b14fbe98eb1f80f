import { lazy, Suspense } from 'react';
import { usePaywall } from '../features/paywall/hooks/use-paywall';
import { loadMessages } from '../i18n/i18n';
import { useSession } from '../features/session/hooks/use-session';
import { useSignInDialog } from '../features/session/hooks/use-sign-in-dialog';
import { usePublicConfig } from '../lib/public-config';

/** Loaded with its texts (the `more` messages). */
const PaywallModal = lazy(async () => {
  const [module] = await Promise.all([import('../features/paywall/components/paywall-modal'), loadMessages('more')]);
  return { default: module.PaywallModal };
});

/** Mounts the (lazily loaded) paywall with the session and configuration it needs. */
export function PaywallHost() {
  const { open, reason, closePaywall, notePurchase } = usePaywall();
  const { user, setUser, refreshUser } = useSession();
  const { config } = usePublicConfig();
  const { openSignIn } = useSignInDialog();
  if (!open || !config) return null;
  return (
    <Suspense fallback={null}>
      <PaywallModal
        open={open}
        reason={reason}
        onClose={closePaywall}
        config={config}
        user={user}
        setUser={setUser}
        refreshUser={refreshUser}
        onPurchased={notePurchase}
        onSaveWithEmail={() => {
          closePaywall();
          openSignIn();
        }}
      />
    </Suspense>
  );
}
