import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { CheckIcon, TrashIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { CreditsAndPlan } from '../../features/account/components/credits-and-plan';
import { DeleteDataDialog } from '../../features/account/components/delete-data-dialog';
import { PurchaseHistory } from '../../features/account/components/purchase-history';
import { SectionCard } from '../../features/account/components/section-card';
import { SignInStatus } from '../../features/account/components/sign-in-status';
import { useBillingHistory } from '../../features/account/hooks/use-billing-history';
import { useBillingPortal } from '../../features/account/hooks/use-billing-portal';
import { useDeleteAccount } from '../../features/account/hooks/use-delete-account';
import { useAccountFormat } from '../../features/account/utils/format';
import { TrialsWithheldNote } from '../../features/session/components/trials-withheld-note';
import { useSession } from '../../features/session/hooks/use-session';
import { useSignInDialog } from '../../features/session/hooks/use-sign-in-dialog';
import { useLocalizeMessage } from '../../i18n/localize-message';
import { ManagePhotos } from '../../features/my-photos/components/manage-photos';
import { useMyPhotos } from '../../features/my-photos/hooks/use-my-photos';
import { usePublicConfig } from '../../lib/public-config';
import { DEFAULT_KEPT_PHOTO_DAYS } from '@aidressup/contract';
import type { Translate } from '../../i18n/use-t';

/** What the page says after a sign-in (from the magic link), a sign-out or a deletion. */
export interface AccountNotice {
  kind: 'signed-in' | 'signed-out' | 'deleted';
  email?: string | null;
  merged?: boolean;
}

function noticeText(n: AccountNotice, t: Translate): string {
  switch (n.kind) {
    case 'signed-in':
      return `${t('account.notice.signedIn', { email: n.email ?? t('account.notice.yourEmail') })} ${
        n.merged ? t('account.notice.merged') : t('account.notice.saved')
      }`;
    case 'signed-out':
      return t('account.notice.signedOut');
    case 'deleted':
      return t('account.notice.deleted');
  }
}

export function AccountPage() {
  const { user, loading, error: sessionError, errorCode: sessionErrorCode, logout, startFreshSession } = useSession();
  const { t, summarisePlan } = useAccountFormat();
  const localize = useLocalizeMessage();
  const { openSignIn } = useSignInDialog();
  const navigate = useNavigate();
  const location = useLocation();
  const [notice, setNotice] = useState<AccountNotice | null>(
    () => (location.state as { notice?: AccountNotice } | null)?.notice ?? null,
  );
  const [deleteOpen, setDeleteOpen] = useState(false);

  const sessionKey = user && !loading ? `${user.id}:${user.email ?? ''}` : null;
  const history = useBillingHistory(sessionKey);
  const myPhotos = useMyPhotos(sessionKey);
  const { config } = usePublicConfig();
  const portal = useBillingPortal({ navigate: useCallback((path: string) => void navigate(path), [navigate]) });
  const onDeleted = useCallback(async () => {
    setDeleteOpen(false);
    setNotice({ kind: 'deleted' });
    await startFreshSession();
  }, [startFreshSession]);
  const removal = useDeleteAccount(onDeleted);

  const signOut = async () => {
    await logout();
    setNotice({ kind: 'signed-out' });
  };

  const plan = summarisePlan(user?.subscription);
  // The portal manages a plan: a one-time buyer has nothing there to renew or cancel.
  const canManage = !!user?.subscription;

  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14" aria-labelledby="account-title">
      <title>{t('account.page.title')}</title>
      <h1 id="account-title" className="text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
        {t('account.page.heading')}
      </h1>
      <p className="mt-2 text-ink-600">{t('account.page.intro')}</p>

      {notice ? (
        <p
          role="status"
          className="mt-6 flex gap-2 rounded-2xl bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-200"
          data-testid="account-notice"
        >
          <CheckIcon className="mt-0.5 size-5 shrink-0" />
          <span>{noticeText(notice, t)}</span>
        </p>
      ) : null}

      {!user ? (
        sessionError && !loading ? (
          <p role="alert" className="mt-8 rounded-2xl border border-red-200 bg-red-50 p-5 text-red-800">
            {localize(sessionError, sessionErrorCode)}
          </p>
        ) : (
          <p role="status" className="flex items-center justify-center gap-3 py-20 text-ink-500">
            <Spinner className="size-6 text-brand-600" />
            {t('account.page.loading')}
          </p>
        )
      ) : (
        <div className="mt-8 grid gap-6 lg:grid-cols-2">
          <SignInStatus
            user={user}
            onSignIn={() => {
              setNotice(null);
              openSignIn();
            }}
            onSignOut={signOut}
          />
          <CreditsAndPlan
            user={user}
            canManage={canManage}
            onManage={() => void portal.open()}
            manageBusy={portal.busy}
            manageError={portal.error}
            manageErrorCode={portal.errorCode}
            note={<TrialsWithheldNote user={user} className="mt-3" />}
          />
          <PurchaseHistory
            items={history.items}
            error={history.error}
            errorCode={history.errorCode}
            retry={history.retry}
          />
          <div id="my-photos" className="scroll-mt-24 lg:col-span-2">
            <SectionCard title={t('photos.account.title')} testId="account-photos">
              <ManagePhotos
                photos={myPhotos.photos}
                error={myPhotos.error}
                retry={myPhotos.retry}
                remove={myPhotos.remove}
                keptPhotoDays={config?.keptPhotoDays ?? DEFAULT_KEPT_PHOTO_DAYS}
              />
            </SectionCard>
          </div>
          <SectionCard
            title={t('account.delete.title')}
            tone="danger"
            className="lg:col-span-2"
            testId="account-delete"
          >
            <p className="mt-3 text-sm leading-6 text-ink-700">
              {user.email ? t('account.delete.summarySignedIn') : t('account.delete.summary')}
            </p>
            <Button
              variant="danger"
              className="mt-4 w-full sm:w-auto"
              onClick={() => {
                removal.clearError();
                setDeleteOpen(true);
              }}
            >
              <TrashIcon className="size-4" />
              {t('account.delete.action')}
            </Button>
          </SectionCard>
          <DeleteDataDialog
            open={deleteOpen}
            onClose={() => setDeleteOpen(false)}
            onConfirm={() => void removal.confirm()}
            busy={removal.busy}
            error={removal.error}
            errorCode={removal.errorCode}
            credits={user.credits}
            signedIn={!!user.email}
            renewingPlan={plan?.renewing ? plan.name : null}
          />
        </div>
      )}
    </section>
  );
}
