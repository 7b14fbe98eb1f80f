import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, maskEmail, type EmailVerifyResponse } from '@aidressup/contract';
import { Button, buttonClasses } from '../../components/ui/button';
import { AlertIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { useLocalizeMessage } from '../../i18n/localize-message';
import { rich, useT } from '../../i18n/use-t';
import { ApiError } from '../../lib/api-client';
import { somethingMerged, verifyEmailSignIn } from '../../features/session/api/verify-email-sign-in';
import { OtherBrowserNote } from '../../features/session/components/other-browser-note';
import { useSession } from '../../features/session/hooks/use-session';
import { useSignInDialog } from '../../features/session/hooks/use-sign-in-dialog';
import { emailFromFragment, parseMagicLinkFragment } from '../../features/session/utils/magic-link';
import { otherBrowserEmail } from '../../features/session/utils/other-browser';
import type { AccountNotice } from './account';

/** A failure keeps the server's English message and code; it is translated when shown. */
type State =
  | { kind: 'ready' }
  | { kind: 'verifying' }
  | { kind: 'confirm'; masked: string; busy: boolean }
  | { kind: 'failed'; message: string; code?: string | null; email: string | null };

/**
 * The magic link's page: reads `#email=…&token=…`, names the account (masked) and signs in only
 * when the shopper presses, never on load (a link someone else sent must not sign anyone in by
 * itself). When another browser asked for the link, the server says so (409 CONFIRM_OTHER_BROWSER)
 * and the page explains that nothing made in this browser moves into that account before a
 * second press signs in here. Then it goes to the account page.
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
    link.parsed ? { kind: 'ready' } : { kind: 'failed', message: MESSAGES.invalidLink, email: link.email },
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const busy = useRef(false);
  // Each new step is announced: focus moves to its heading (not on the first render).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [state.kind]);

  const done = (res: EmailVerifyResponse, merged: boolean) => {
    signedIn(res.user);
    const notice: AccountNotice = { kind: 'signed-in', email: res.user.email, merged };
    void navigate('/account', { replace: true, state: { notice } });
  };
  const failed = (e: unknown, email: string) =>
    setState(
      e instanceof ApiError
        ? { kind: 'failed', message: e.message, code: e.code ?? null, email }
        : { kind: 'failed', message: MESSAGES.authFailed, email },
    );

  // The press waits for this page's own session, so that the answer's cookie replaces it.
  const signIn = async (confirm: boolean) => {
    if (!link.parsed || loading || busy.current) return;
    busy.current = true;
    const { email, token } = link.parsed;
    setState((s) => (s.kind === 'confirm' ? { ...s, busy: true } : { kind: 'verifying' }));
    try {
      const res = await verifyEmailSignIn({ email, token, ...(confirm ? { confirm: true as const } : {}) });
      done(res, !confirm && somethingMerged(res));
    } catch (e) {
      const masked = otherBrowserEmail(e);
      if (masked && !confirm) setState({ kind: 'confirm', masked, busy: false });
      else failed(e, email);
    } finally {
      busy.current = false;
    }
  };

  const heading = (text: string) => (
    <h1
      id="verify-title"
      ref={headingRef}
      tabIndex={-1}
      className="scroll-mt-40 text-2xl font-extrabold tracking-tight text-ink-950 focus:outline-none"
    >
      {text}
    </h1>
  );

  let content;
  if (state.kind === 'ready' || state.kind === 'verifying') {
    const verifying = state.kind === 'verifying';
    content = (
      <>
        {heading(t('account.verify.readyHeading'))}
        <p className="mt-5 text-ink-700">
          {rich(t('account.verify.readyText', { email: maskEmail(link.parsed?.email ?? '') }), {
            0: (text) => (
              <bdi className="font-semibold text-ink-950 [overflow-wrap:anywhere]" dir="ltr">
                {text}
              </bdi>
            ),
          })}
        </p>
        <Button
          size="lg"
          className="mt-6 w-full sm:w-auto"
          onClick={() => void signIn(false)}
          disabled={loading || verifying}
          data-testid="verify-sign-in"
        >
          {loading || verifying ? <Spinner className="size-5" /> : null}
          {verifying ? t('account.verify.checking') : t('account.verify.signIn')}
        </Button>
        {verifying ? (
          <p role="status" className="sr-only">
            {t('account.verify.checking')}
          </p>
        ) : null}
      </>
    );
  } else if (state.kind === 'confirm') {
    content = (
      <>
        {heading(t('account.confirm.heading'))}
        <div className="mt-5">
          <OtherBrowserNote email={state.masked} />
        </div>
        <div className="mt-6 flex flex-col gap-3">
          <Button
            size="lg"
            className="w-full"
            onClick={() => void signIn(true)}
            disabled={state.busy}
            data-testid="verify-confirm"
          >
            {state.busy ? <Spinner className="size-5" /> : null}
            {t('account.confirm.signInHere')}
          </Button>
          <Button
            variant="secondary"
            className="w-full"
            onClick={() => openSignIn(link.parsed ? { email: link.parsed.email } : undefined)}
            disabled={state.busy}
          >
            {t('account.confirm.askHere')}
          </Button>
        </div>
      </>
    );
  } else {
    content = (
      <>
        {heading(t('account.verify.failedHeading'))}
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
    );
  }

  return (
    <section className="mx-auto max-w-lg px-4 py-16 sm:px-6" aria-labelledby="verify-title">
      <title>{t('account.verify.pageTitle')}</title>
      <div className="rounded-3xl border border-ink-200 bg-white p-6 text-center shadow-sm sm:p-8">{content}</div>
    </section>
  );
}
