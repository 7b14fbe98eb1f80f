import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES } from '@aidressup/contract';
import { Button, buttonClasses } from '../../components/ui/button';
import { AlertIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { useLocalizeMessage } from '../../i18n/localize-message';
import { useT } from '../../i18n/use-t';
import { ApiError } from '../../lib/api-client';
import { somethingMerged, verifyEmailSignIn } from '../../features/session/api/verify-email-sign-in';
import { useSession } from '../../features/session/hooks/use-session';
import { useSignInDialog } from '../../features/session/hooks/use-sign-in-dialog';
import { emailFromFragment, parseMagicLinkFragment } from '../../features/session/utils/magic-link';
import type { AccountNotice } from './account';

/** A failure keeps the server's English message and code; it is translated when shown. */
type State = { kind: 'verifying' } | { kind: 'failed'; message: string; code?: string | null; email: string | null };

/**
 * The magic link's page: reads `#email=…&token=…`, posts it to verify once the page's own session
 * has started (so its answer cannot replace the signed-in cookie), then goes to the account page.
 */
export function SignInVerifyPage() {
  const { loading, signedIn } = useSession();
  const { openSignIn } = useSignInDialog();
  const navigate = useNavigate();
  const t = useT();
  const localize = useLocalizeMessage();
  // Read the fragment once (a pure read: a render React throws away must not lose it)...
  const [link] = useState(() => {
    const hash = window.location.hash;
    return { parsed: parseMagicLinkFragment(hash), email: emailFromFragment(hash) };
  });
  // ...then, once shown, drop it from the address bar and history: it is a credential.
  useEffect(() => {
    if (window.location.hash)
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  const [state, setState] = useState<State>(() =>
    link.parsed ? { kind: 'verifying' } : { kind: 'failed', message: MESSAGES.invalidLink, email: link.email },
  );
  const started = useRef(false);

  useEffect(() => {
    if (loading || started.current || !link.parsed) return;
    started.current = true;
    const { email, token } = link.parsed;
    void verifyEmailSignIn({ email, token })
      .then((res) => {
        signedIn(res.user);
        const notice: AccountNotice = { kind: 'signed-in', email: res.user.email, merged: somethingMerged(res) };
        void navigate('/account', { replace: true, state: { notice } });
      })
      .catch((e: unknown) => {
        setState(
          e instanceof ApiError
            ? { kind: 'failed', message: e.message, code: e.code ?? null, email }
            : { kind: 'failed', message: MESSAGES.authFailed, email },
        );
      });
  }, [loading, link, signedIn, navigate]);

  return (
    <section className="mx-auto max-w-lg px-4 py-16 sm:px-6" aria-labelledby="verify-title">
      <title>{t('account.verify.pageTitle')}</title>
      <div className="rounded-3xl border border-ink-200 bg-white p-6 text-center shadow-sm sm:p-8">
        {state.kind === 'verifying' ? (
          <>
            <h1 id="verify-title" className="text-2xl font-extrabold tracking-tight text-ink-950">
              {t('account.verify.heading')}
            </h1>
            <p role="status" className="mt-6 flex items-center justify-center gap-3 text-ink-600">
              <Spinner className="size-6 text-brand-600" />
              {t('account.verify.checking')}
            </p>
          </>
        ) : (
          <>
            <h1 id="verify-title" className="text-2xl font-extrabold tracking-tight text-ink-950">
              {t('account.verify.failedHeading')}
            </h1>
            <p role="alert" className="mt-5 flex gap-2 rounded-xl bg-red-50 p-3 text-start text-sm text-red-800">
              <AlertIcon className="mt-0.5 size-4 shrink-0" />
              <span>{localize(state.message, state.code)}</span>
            </p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
              <Button onClick={() => openSignIn(state.email ? { email: state.email } : undefined)}>
                {t('account.verify.requestNew')}
              </Button>
              <Link to="/" className={buttonClasses('secondary', 'md')}>
                {t('account.verify.back')}
              </Link>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
