import { useState } from 'react';
import { MESSAGES, type User } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { MailIcon, UserIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../i18n/use-t';
import { ApiError } from '../../../lib/api-client';
import { InlineError, SectionCard } from './section-card';

export interface SignInStatusProps {
  user: User;
  onSignIn: () => void;
  /** Signs out on the server and starts a fresh anonymous session. */
  onSignOut: () => Promise<void>;
}

/** The email the account is signed in with, or "Not signed in" with a Sign In button. */
export function SignInStatus({ user, onSignIn, onSignOut }: SignInStatusProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code: string | null } | null>(null);
  const t = useT();

  const signOut = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSignOut();
    } catch (e) {
      setError(
        e instanceof ApiError
          ? { message: e.message, code: e.code ?? null }
          : { message: MESSAGES.internalError, code: null },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <SectionCard title={t('account.signIn.title')} testId="account-sign-in">
      <p className="mt-1 text-xs text-ink-500">
        {t('account.signIn.accountId')}{' '}
        <code className="font-mono break-all text-ink-700" dir="ltr" data-testid="account-id">
          <bdi>{user.id}</bdi>
        </code>
      </p>
      {user.email ? (
        <>
          <p className="mt-3 flex items-center gap-3 text-ink-700">
            <span className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700">
              <MailIcon className="size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-sm text-ink-500">{t('account.signIn.signedInAs')}</span>
              <strong className="block text-ink-950 [overflow-wrap:anywhere]" dir="ltr" data-testid="account-email">
                <bdi>{user.email}</bdi>
              </strong>
            </span>
          </p>
          <p className="mt-3 text-sm text-ink-600">{t('account.signIn.followsEmail')}</p>
          <InlineError message={error?.message ?? null} code={error?.code} />
          <Button variant="secondary" className="mt-4 w-full sm:w-auto" onClick={signOut} disabled={busy}>
            {busy ? <Spinner className="size-4" /> : null}
            {t('account.signIn.signOut')}
          </Button>
        </>
      ) : (
        <>
          <p className="mt-3 flex items-center gap-3 text-ink-700">
            <span className="grid size-10 shrink-0 place-items-center rounded-full bg-ink-100 text-ink-600">
              <UserIcon className="size-5" />
            </span>
            <strong className="text-ink-950" data-testid="account-email">
              {t('account.signIn.notSignedIn')}
            </strong>
          </p>
          <p className="mt-3 text-sm text-ink-600">{t('account.signIn.browserOnly')}</p>
          <Button className="mt-4 w-full sm:w-auto" onClick={onSignIn}>
            <MailIcon className="size-4" />
            {t('account.signIn.signIn')}
          </Button>
        </>
      )}
    </SectionCard>
  );
}
