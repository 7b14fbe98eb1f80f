import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { Footer } from '../features/layout/components/footer';
import { NavBar } from '../features/layout/components/nav-bar';
import { UserInfoBox } from '../features/layout/components/user-info-box';
import { useSession } from '../features/session/hooks/use-session';
import { useSignInDialog } from '../features/session/hooks/use-sign-in-dialog';
import { loadMessages } from '../i18n/i18n';
import { useLocalizeMessage } from '../i18n/localize-message';
import { useT } from '../i18n/use-t';
import { usePublicConfig } from '../lib/public-config';
import { PaywallHost } from './paywall-host';
import { RouteBoundary } from './route-boundary';

/** Loaded with its texts (the `more` messages). */
const SignInDialog = lazy(async () => {
  const [module] = await Promise.all([import('../features/session/components/sign-in-dialog'), loadMessages('more')]);
  return { default: module.SignInDialog };
});

export function RootLayout() {
  const { user, loading, signedIn } = useSession();
  const { config, error: configError, retry } = usePublicConfig();
  const signIn = useSignInDialog();
  const [signInLoaded, setSignInLoaded] = useState(false);
  if (signIn.open && !signInLoaded) setSignInLoaded(true);
  const t = useT();
  const localize = useLocalizeMessage();

  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      {/* Off-screen until focused, then whole at the top (index.html's static first paint has the same link). */}
      <a
        href="#main"
        className="fixed start-3 -top-24 z-50 rounded-xl bg-white px-4 py-2.5 font-semibold whitespace-nowrap text-brand-700 shadow-lg ring-2 ring-brand-500 focus:top-3 focus:outline-none"
        data-skip-link
      >
        {t('common.layout.skipToContent')}
      </a>
      {/* The navigation and the account box stay at the top, in their own space (nothing scrolls under them unseen). */}
      <div className="sticky top-0 z-40" data-testid="top-bar">
        <NavBar user={user} onSignIn={() => signIn.openSignIn()} />
        <UserInfoBox user={user} loading={loading} />
      </div>
      {configError ? (
        <div role="alert" className="border-b border-amber-200 bg-amber-50">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm text-amber-900 sm:px-6">
            <span>{localize(configError)}</span>
            <button
              type="button"
              onClick={retry}
              className="rounded-lg bg-amber-900 px-3 py-1.5 font-semibold text-white"
            >
              {t('common.layout.retry')}
            </button>
          </div>
        </div>
      ) : null}
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <RouteBoundary>
          <Outlet />
        </RouteBoundary>
      </main>
      <Footer supportEmail={config?.supportEmail ?? null} />
      {/* Loaded when first opened (the first page ships without it), then kept, with its state. */}
      {signInLoaded ? (
        <Suspense fallback={null}>
          <SignInDialog
            open={signIn.open}
            onClose={signIn.closeSignIn}
            onSignedIn={(u) => signedIn(u)}
            initialEmail={signIn.initialEmail}
          />
        </Suspense>
      ) : null}
      <PaywallHost />
    </div>
  );
}
