import { useT } from '../../i18n/use-t';

/** Shown when a page fails (for example a lost connection while fetching a page's code). */
export function RouteError() {
  const t = useT();
  return (
    <div className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-4 text-center">
      <title>{t('common.error.pageTitle')}</title>
      <h1 className="text-3xl font-extrabold text-ink-950">{t('common.error.heading')}</h1>
      <p className="mt-3 text-ink-600">{t('common.error.body')}</p>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-xl bg-ink-950 px-5 py-3 font-semibold text-white"
        >
          {t('common.error.reload')}
        </button>
        <a href="/" className="rounded-xl px-5 py-3 font-semibold text-ink-800 ring-1 ring-ink-200">
          {t('common.error.home')}
        </a>
      </div>
    </div>
  );
}
