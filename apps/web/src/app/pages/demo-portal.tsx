import { Spinner } from '../../components/ui/spinner';
import { DemoPortal } from '../../features/account/components/demo-portal';
import { useSession } from '../../features/session/hooks/use-session';
import { useT } from '../../i18n/use-t';

/** /billing/demo-portal: what "Manage subscription" opens with demo billing. */
export function DemoPortalPage() {
  const { user, setUser } = useSession();
  const t = useT();
  return (
    <section className="mx-auto max-w-2xl px-4 py-10 sm:px-6 sm:py-14" aria-labelledby="portal-title">
      <title>{t('account.demo.pageTitle')}</title>
      <h1 id="portal-title" className="text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">
        {t('account.demo.heading')}
      </h1>
      <p className="mt-2 mb-6 text-ink-600">{t('account.demo.subtitle')}</p>
      {user ? (
        <DemoPortal user={user} onUpdated={setUser} />
      ) : (
        <p role="status" className="flex items-center justify-center gap-3 py-20 text-ink-500">
          <Spinner className="size-6 text-brand-600" />
          {t('account.demo.loading')}
        </p>
      )}
    </section>
  );
}
