import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, RESULT_RETENTION_DAYS, type TryOnItem } from '@aidressup/contract';
import { buttonClasses } from '../../components/ui/button';
import { AlertIcon, CheckIcon, GalleryIcon, WandIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { useLocalizeMessage } from '../../i18n/localize-message';
import { useT } from '../../i18n/use-t';
import { usePublicConfig } from '../../lib/public-config';
import { DeleteDialog } from '../../features/gallery/components/delete-dialog';
import { GalleryGrid } from '../../features/gallery/components/gallery-grid';
import { ShareDialog } from '../../features/gallery/components/share-dialog';
import { useTryOns } from '../../features/gallery/hooks/use-tryons';
import { useSession } from '../../features/session/hooks/use-session';
import { usePaywall } from '../../features/paywall/hooks/use-paywall';
import { rerunTryOn } from '../../features/tryon/api/rerun-tryon';
import { firstHostedEngine } from '../../features/tryon/utils/progress-copy';
import type { PhotoRealProps } from '../../features/gallery/components/gallery-grid';
import { useDescribeItem } from '../../features/gallery/utils/describe-item';
import { ApiError } from '../../lib/api-client';

const ReportDialog = lazy(async () => ({
  default: (await import('../../features/report/components/report-dialog')).ReportDialog,
}));

export function GalleryPage() {
  const t = useT();
  const localize = useLocalizeMessage();
  const { loading, user, error: sessionError, refreshUser } = useSession();
  const { config } = usePublicConfig();
  const ready = !loading && !!user && !sessionError;
  const { items, error, retry, nextCursor, loadMore, loadingMore, moreError, remove, setShareUrl, setReport } =
    useTryOns(ready ? `${user.id}:${user.email ?? ''}` : null);
  const [sharing, setSharing] = useState<TryOnItem | null>(null);
  const [deleting, setDeleting] = useState<TryOnItem | null>(null);
  const [reporting, setReporting] = useState<TryOnItem | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const describe = useDescribeItem();
  /** After a deletion: the item to focus (the next one, else the one before), null for the heading. */
  const [focusAfterDelete, setFocusAfterDelete] = useState<{ id: string | null } | null>(null);

  const engineLabel = useCallback((id: string) => config?.engines.find((e) => e.id === id)?.label ?? id, [config]);
  const { openPaywall } = usePaywall();
  const hosted = firstHostedEngine(config);
  const [rerunning, setRerunning] = useState<string | null>(null);
  const [rerunError, setRerunError] = useState<PhotoRealProps['error']>(null);
  // A new message each time, so the same words are announced again.
  const announce = useCallback((message: string) => {
    setAnnouncement('');
    requestAnimationFrame(() => setAnnouncement(message));
  }, []);

  useEffect(() => {
    if (!announcement) return;
    const timer = setTimeout(() => setAnnouncement(''), 6000);
    return () => clearTimeout(timer);
  }, [announcement]);

  // After a deletion the item (and the button that opened the dialog) is gone: the focus goes to
  // the next item (else the one before, else the heading when the gallery is empty), whose name
  // (its category and time) a screen reader reads, brought into view below the sticky top bar
  // (the targets' scroll-margin-top), so the page does not stay scrolled where the deleted item was.
  useEffect(() => {
    if (!focusAfterDelete) return;
    const frame = requestAnimationFrame(() => {
      const id = focusAfterDelete.id;
      const card = id
        ? document.querySelector<HTMLElement>(`[data-testid="gallery-item"][data-item-id="${CSS.escape(id)}"]`)
        : null;
      const target = card ?? headingRef.current;
      if (!target) return;
      target.focus({ preventScroll: true });
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    });
    return () => cancelAnimationFrame(frame);
  }, [focusAfterDelete]);

  // "Make it photo-real": the preview again on the hosted engine; the new result heads the list.
  const makePhotoReal = useCallback(
    async (item: TryOnItem) => {
      if (!hosted || rerunning) return;
      setRerunning(item.id);
      setRerunError(null);
      try {
        await rerunTryOn({ tryonId: item.id, api: hosted.id });
        void refreshUser();
        retry();
        announce(t('gallery.photoRealDone'));
      } catch (e) {
        const code = e instanceof ApiError ? e.code : undefined;
        setRerunError({ id: item.id, message: e instanceof ApiError ? e.message : MESSAGES.unknownError, code });
        if (code === 'NO_CREDITS') openPaywall('no_credits');
      } finally {
        setRerunning(null);
      }
    },
    [hosted, rerunning, refreshUser, retry, announce, t, openPaywall],
  );

  const onDeleted = useCallback(
    (item: TryOnItem) => {
      const at = items?.findIndex((i) => i.id === item.id) ?? -1;
      const next = at >= 0 ? (items?.[at + 1] ?? items?.[at - 1]) : undefined;
      remove(item.id);
      setDeleting(null);
      announce(t('gallery.announce.deleted'));
      setFocusAfterDelete({ id: next?.id ?? null });
    },
    [items, remove, announce, t],
  );

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14" aria-labelledby="gallery-title">
      <title>{t('gallery.page.title')}</title>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1
            id="gallery-title"
            ref={headingRef}
            tabIndex={-1}
            // Brought into view below the sticky top bar (navigation and account box) after the last deletion.
            className="scroll-mt-40 text-3xl font-extrabold tracking-tight text-ink-950 focus:outline-none sm:text-4xl"
          >
            {t('gallery.heading')}
          </h1>
          <p className="mt-2 text-ink-600">{t('gallery.intro', { days: RESULT_RETENTION_DAYS })}</p>
        </div>
        <Link to="/" className={buttonClasses('primary', 'md')}>
          <WandIcon className="size-4" />
          {t('gallery.newTryOn')}
        </Link>
      </div>

      <p
        role="status"
        aria-live="polite"
        data-testid="gallery-status"
        className={
          announcement
            ? 'mt-6 flex items-center gap-2 rounded-2xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800'
            : 'sr-only'
        }
      >
        {announcement ? <CheckIcon className="size-4 shrink-0" /> : null}
        {announcement}
      </p>

      <div className="mt-8">
        {error || (!loading && sessionError) ? (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-red-200 bg-red-50 p-5 text-red-800"
          >
            <p className="flex items-center gap-2">
              <AlertIcon className="size-5" />
              {error ? localize(error.message, error.code) : localize(sessionError ?? '')}
            </p>
            {error ? (
              <button type="button" onClick={retry} className={buttonClasses('secondary', 'sm')}>
                {t('gallery.retry')}
              </button>
            ) : null}
          </div>
        ) : items === null ? (
          <p role="status" className="flex items-center justify-center gap-3 py-20 text-ink-500">
            <Spinner className="size-6 text-brand-600" />
            {t('gallery.loading')}
          </p>
        ) : items.length === 0 && !nextCursor ? (
          <div
            className="flex flex-col items-center rounded-3xl border-2 border-dashed border-ink-200 bg-white px-6 py-16 text-center"
            data-testid="gallery-empty"
          >
            <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-600">
              <GalleryIcon className="size-8" />
            </span>
            <h2 className="mt-5 text-xl font-bold text-ink-950">{t('gallery.empty.title')}</h2>
            <p className="mt-2 max-w-md text-ink-600">{t('gallery.empty.text')}</p>
            <Link to="/#try-on" className={buttonClasses('primary', 'lg', 'mt-6')}>
              {t('gallery.empty.cta')}
            </Link>
          </div>
        ) : (
          <>
            <GalleryGrid
              items={items}
              engineLabel={engineLabel}
              onShare={setSharing}
              onDelete={setDeleting}
              onReport={setReporting}
              photoReal={
                hosted
                  ? {
                      label: hosted.label,
                      onRun: (item) => void makePhotoReal(item),
                      running: rerunning,
                      error: rerunError,
                    }
                  : undefined
              }
            />
            {nextCursor ? (
              <div className="mt-8 flex flex-col items-center gap-3">
                {moreError ? (
                  <p role="alert" className="flex items-center gap-2 text-sm text-red-800">
                    <AlertIcon className="size-4" />
                    {localize(moreError.message, moreError.code)}
                  </p>
                ) : null}
                <button
                  type="button"
                  onClick={loadMore}
                  disabled={loadingMore}
                  className={buttonClasses('secondary', 'md')}
                  data-testid="gallery-load-more"
                >
                  {loadingMore ? <Spinner className="size-4 text-brand-600" /> : null}
                  {loadingMore ? t('gallery.loadingMore') : t('gallery.loadMore')}
                </button>
              </div>
            ) : null}
          </>
        )}
      </div>

      {sharing ? (
        <ShareDialog
          key={sharing.id}
          result={{ ...sharing, name: describe(sharing) }}
          onClose={() => setSharing(null)}
          onShareUrl={setShareUrl}
          announce={announce}
        />
      ) : null}
      {reporting ? (
        <Suspense fallback={null}>
          <ReportDialog
            key={reporting.id}
            tryOnId={reporting.id}
            user={user}
            refreshUser={refreshUser}
            onClose={() => setReporting(null)}
            onReported={(res, reason) => setReport(reporting.id, { status: res.status, reason })}
          />
        </Suspense>
      ) : null}
      {deleting ? (
        <DeleteDialog key={deleting.id} item={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />
      ) : null}
    </section>
  );
}
