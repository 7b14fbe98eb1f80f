import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { DEFAULT_KEPT_PHOTO_DAYS, categoryInfo, hasFreeTrial, type ReportStatus } from '@aidressup/contract';
import { BelowTheFold } from '../../components/ui/below-the-fold';
import { Button } from '../../components/ui/button';
import { AlertIcon, TrousersIcon, UserIcon, WandIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { usePaywall } from '../../features/paywall/hooks/use-paywall';
import { TrialsWithheldNote } from '../../features/session/components/trials-withheld-note';
import { useSession } from '../../features/session/hooks/use-session';
import { useSignInDialog } from '../../features/session/hooks/use-sign-in-dialog';
import { CategoryIcon } from '../../components/ui/category-icon';
import { CategorySelect } from '../../features/tryon/components/category-select';
import { EngineSelect } from '../../features/tryon/components/engine-select';
import { offeredEngines } from '../../features/tryon/utils/progress-copy';
import { OutfitNote } from '../../features/tryon/components/outfit-note';
import { PhotoGuide } from '../../features/tryon/components/photo-guide';
import { ResultPanelIdle } from '../../features/tryon/components/result-frame';
import { firstInteraction } from '../../features/session/utils/fingerprint-due';
import type { SharedResult } from '../../features/gallery/components/share-dialog';
import { useMyPhotos } from '../../features/my-photos/hooks/use-my-photos';
import { Reviews } from '../../features/tryon/components/reviews';
import { Showcase } from '../../features/tryon/components/showcase';
import { StepIndicator } from '../../features/tryon/components/step-indicator';
import { UploadCard } from '../../features/tryon/components/upload-card';
import { useStudio } from '../../features/tryon/hooks/use-studio';
import { categoryLabel } from '../../i18n/category';
import { categoryDescription } from '../../features/tryon/utils/category-text';
import { useLocalizeMessage } from '../../i18n/localize-message';
import { rich, useT } from '../../i18n/use-t';
import { cn } from '../../lib/cn';
import { usePublicConfig } from '../../lib/public-config';

const ReportDialog = lazy(async () => ({
  default: (await import('../../features/report/components/report-dialog')).ReportDialog,
}));
// What the first paint does not show loads at the shopper's first interaction (or when first shown):
// the result panel with every state of a try-on (until then its idle frame is shown), the "Keep this
// photo" box and the further garments, which appear once a photo is picked.
const loadResultPanel = () => import('../../features/tryon/components/result-panel');
const loadKeepPhotoToggle = () => import('../../features/my-photos/components/keep-photo-toggle');
const loadMoreGarments = () => import('../../features/tryon/components/more-garments');
const ResultPanel = lazy(async () => ({ default: (await loadResultPanel()).ResultPanel }));
const KeepPhotoToggle = lazy(async () => ({ default: (await loadKeepPhotoToggle()).KeepPhotoToggle }));
const MoreGarments = lazy(async () => ({ default: (await loadMoreGarments()).MoreGarments }));
// My photos: the row loads once the shopper has kept photos (it shows nothing without them).
const MyPhotosRow = lazy(async () => ({
  default: (await import('../../features/my-photos/components/my-photos-row')).MyPhotosRow,
}));
// A press of several garments is not on the first page: its row of results loads when one is made.
const ResultsRow = lazy(async () => ({
  default: (await import('../../features/tryon/components/results-row')).ResultsRow,
}));
const ShareDialog = lazy(async () => ({
  default: (await import('../../features/gallery/components/share-dialog')).ShareDialog,
}));

/**
 * True from the shopper's first interaction with the page, or once a photo is in the studio (a
 * photo restored after a reload, or set without a pointer or a key): the studio's code that the
 * first paint does not show is loaded then, and the result panel is wanted.
 */
function useResultPanelWanted(photoPicked: boolean): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    let live = true;
    const want = () => {
      for (const load of [loadResultPanel, loadKeepPhotoToggle, loadMoreGarments]) void load().catch(() => undefined);
      if (live) setWanted(true);
    };
    if (photoPicked) want();
    else void firstInteraction().then(want);
    return () => {
      live = false;
    };
  }, [wanted, photoPicked]);
  return wanted;
}

export function HomePage() {
  const t = useT();
  const localize = useLocalizeMessage();
  const { config } = usePublicConfig();
  const { user, updateUser, setUser, refreshUser, error: sessionError } = useSession();
  const { openPaywall, open: paywallOpen, purchases } = usePaywall();
  const { open: signInOpen } = useSignInDialog();
  const studio = useStudio({
    config,
    user,
    updateUser,
    setUser,
    refreshUser,
    onNoCredits: () => openPaywall('no_credits'),
    sessionError,
    purchases,
    dialogOpen: paywallOpen || signInOpen,
  });
  const resultPanelWanted = useResultPanelWanted(
    !!studio.person.previewUrl || !!studio.clothing.previewUrl || !!studio.keptPhotoId,
  );
  const { category, processing } = studio;
  const tryonId = studio.state.status === 'success' ? studio.state.tryonId : null;
  const resultUrl = studio.state.status === 'success' ? studio.state.resultUrl : null;
  /** The try-on whose report dialog is open, and the reports made on this page (by try-on id). */
  const [reporting, setReporting] = useState<string | null>(null);
  const [reported, setReported] = useState<Record<string, ReportStatus>>({});
  const reportedStatus = tryonId ? reported[tryonId] : undefined;
  /** A press's result being shared (its link dialog), and the links made on this page. */
  const [sharing, setSharing] = useState<Omit<SharedResult, 'shareUrl'> | null>(null);
  const [shared, setShared] = useState<Record<string, string | null>>({});
  const [announced, setAnnounced] = useState('');
  const onShareUrl = useCallback((id: string, url: string | null) => setShared((s) => ({ ...s, [id]: url })), []);
  // My photos: the kept person photos of the session's user (every device, once signed in).
  const myPhotos = useMyPhotos(user ? `${user.id}:${user.email ?? ''}` : null);
  const keptPhotoDays = config?.keptPhotoDays ?? DEFAULT_KEPT_PHOTO_DAYS;
  // A kept photo the server no longer has (404 for a try-on with it) goes from the row.
  const keptId = studio.keptPhotoId;
  const { forget } = myPhotos;
  const keptGone =
    !!keptId &&
    [studio.state, ...studio.press.items.map((i) => i.state)].some(
      (s) => s.status === 'error' && s.errorCode === 'NOT_FOUND',
    );
  const { chooseKeptPhoto } = studio;
  useEffect(() => {
    if (!keptGone || !keptId) return;
    forget(keptId);
    chooseKeptPhoto(null);
  }, [keptGone, keptId, forget, chooseKeptPhoto]);
  const cost = studio.pressCost;
  // After Try Again's reload, the kept photo chosen before it is chosen again.
  const { restoreKeptPhoto } = studio;
  const keptLoaded = myPhotos.photos;
  useEffect(() => {
    if (keptLoaded) restoreKeptPhoto(keptLoaded);
  }, [keptLoaded, restoreKeptPhoto]);

  return (
    <>
      <title>{t('tryon.home.pageTitle')}</title>
      <div className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 -z-10 h-[36rem] bg-[radial-gradient(60%_60%_at_50%_0%,var(--color-brand-200)_0%,transparent_70%)] opacity-70"
        />
        <section className="mx-auto max-w-6xl px-4 pt-10 pb-8 text-center sm:px-6 sm:pt-16">
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-xs font-semibold text-brand-700 shadow-sm ring-1 ring-brand-100">
            <WandIcon className="size-4" />
            {t('tryon.home.eyebrow')}
          </p>
          <h1 className="mx-auto mt-5 max-w-3xl text-4xl leading-tight font-extrabold tracking-tight text-balance text-ink-950 sm:text-5xl lg:text-6xl">
            {rich(t('tryon.home.headline'), {
              0: (text) => (
                <span className="bg-gradient-to-r from-brand-600 to-fuchsia-600 bg-clip-text text-transparent">
                  {text}
                </span>
              ),
            })}
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-ink-600">{t('tryon.home.intro')}</p>
          {/* The line's space is kept while the user loads, so the examples below do not move when it appears. */}
          <p className="mt-4 min-h-5 text-sm font-medium text-ink-700">
            {user && hasFreeTrial(user) ? (
              <>
                {rich(t('tryon.home.freeLeft', { count: user.free_trials_limit - user.free_trials_used }), {
                  0: (count) => <strong>{count}</strong>,
                })}
                {user.email ? '' : ` ${t('tryon.home.noSignUp')}`}
              </>
            ) : null}
          </p>
        </section>

        <section aria-labelledby="examples-title" className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="examples-title" className="sr-only">
            {t('tryon.showcase.label')}
          </h2>
          <Showcase />
        </section>
      </div>

      {/* Below the first screen on phones and laptops alike: its content is rendered right after it. */}
      <BelowTheFold
        as="section"
        id="try-on"
        aria-labelledby="studio-title"
        className="mx-auto mt-14 max-w-6xl scroll-mt-32 px-4 sm:px-6"
      >
        <div className="rounded-[2rem] border border-ink-200 bg-white/70 p-4 shadow-xl shadow-ink-900/5 backdrop-blur sm:p-8">
          <h2 id="studio-title" className="text-center text-2xl font-extrabold tracking-tight text-ink-950 sm:text-3xl">
            {t('tryon.home.studioTitle')}
          </h2>
          <div className="mx-auto mt-6 max-w-2xl">
            <StepIndicator current={studio.step} />
          </div>

          <div className="mt-8 grid gap-6 lg:grid-cols-[20rem_1fr]">
            <div className="space-y-6">
              <CategorySelect
                value={category}
                offered={studio.offeredCategories}
                onChange={studio.chooseCategory}
                note={studio.categoryNote}
                disabled={processing}
              />
              {config && studio.engineId ? (
                <EngineSelect
                  engines={offeredEngines(config)}
                  value={studio.engineId}
                  onChange={studio.chooseEngine}
                  disabled={processing}
                />
              ) : null}
              <PhotoGuide />
            </div>
            <div className="min-w-0 space-y-5">
              {myPhotos.photos?.length ? (
                <Suspense fallback={null}>
                  <MyPhotosRow
                    photos={myPhotos.photos}
                    selectedId={studio.keptPhotoId}
                    onSelect={studio.chooseKeptPhoto}
                    disabled={processing}
                  />
                </Suspense>
              ) : null}
              {/* With the optional bottom: three cards side by side on a laptop; on a tablet the bottom takes the
                second row's full width, so no blank space is left beside it. */}
              <div className={cn('grid gap-5 sm:grid-cols-2', studio.outfitOffered && 'xl:grid-cols-3')}>
                <UploadCard
                  kind="person"
                  title={t('tryon.upload.person.title')}
                  noun={t('tryon.upload.person.noun')}
                  description={t('tryon.upload.person.description')}
                  icon={<UserIcon className="size-5" />}
                  upload={studio.person}
                  disabled={processing}
                  maxMegabytes={studio.maxMegabytes}
                  capture="environment"
                  cardRef={studio.cards.person}
                  footer={
                    studio.person.file ? (
                      <Suspense fallback={null}>
                        <KeepPhotoToggle
                          file={studio.person.file}
                          keep={myPhotos.keep}
                          onKept={studio.markUploadKept}
                          keptPhotoDays={keptPhotoDays}
                          disabled={processing}
                        />
                      </Suspense>
                    ) : studio.keptPhotoId ? (
                      <p
                        role="status"
                        className="mt-3 rounded-2xl bg-brand-50 p-3 text-sm text-brand-900"
                        data-testid="kept-photo-note"
                      >
                        {studio.keptJustNow ? t('photos.keep.done') : t('photos.kept.note')}
                      </p>
                    ) : null
                  }
                />
                <UploadCard
                  kind="clothing"
                  title={categoryLabel(t, category)}
                  noun={t('tryon.upload.clothing.noun')}
                  description={categoryDescription(t, category)}
                  icon={<CategoryIcon icon={categoryInfo(category).icon} className="size-5" />}
                  upload={studio.clothing}
                  disabled={processing}
                  maxMegabytes={studio.maxMegabytes}
                  capture="environment"
                  cardRef={studio.cards.clothing}
                  footer={
                    studio.clothing.previewUrl && !studio.outfit ? (
                      <Suspense fallback={null}>
                        <MoreGarments
                          firstUrl={studio.clothing.previewUrl}
                          items={studio.more.items}
                          error={studio.more.error}
                          full={studio.more.full}
                          add={studio.more.add}
                          remove={studio.more.remove}
                          disabled={processing}
                        />
                      </Suspense>
                    ) : null
                  }
                />
                {studio.outfitOffered ? (
                  <div className="grid min-w-0 sm:col-span-2 xl:col-span-1">
                    <UploadCard
                      kind="bottom"
                      title={t('tryon.upload.bottom.title')}
                      noun={t('tryon.upload.bottom.noun')}
                      description={t('tryon.upload.bottom.description')}
                      icon={<TrousersIcon className="size-5" />}
                      upload={studio.bottom}
                      disabled={processing}
                      maxMegabytes={studio.maxMegabytes}
                      capture="environment"
                      cardRef={studio.cards.bottom}
                    />
                  </div>
                ) : null}
              </div>
            </div>
          </div>

          <div className="mt-8 flex flex-col items-center gap-2">
            {studio.outfit ? (
              <OutfitNote user={user} onRemoveBottom={studio.removeBottom} disabled={processing} />
            ) : null}
            <Button
              size="lg"
              className="w-full sm:w-auto sm:min-w-72"
              aria-disabled={!studio.canTry && !processing ? true : undefined}
              disabled={processing}
              onClick={studio.tryOn}
              data-testid="try-with-ai"
            >
              {processing ? <Spinner className="size-5" /> : <WandIcon className="size-5" />}
              {processing
                ? // Waiting in line for the engine (nothing charged yet) is not creating anything yet.
                  t(studio.state.line ? 'tryon.line.joining' : 'tryon.home.creating')
                : t('tryon.home.tryWithAi')}
            </Button>
            {studio.notice ? (
              <p
                role="alert"
                className="flex items-center gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900 ring-1 ring-amber-200"
                data-testid="try-notice"
              >
                <AlertIcon className="size-4 shrink-0" />
                {localize(studio.notice)}
              </p>
            ) : null}
            {cost ? (
              // Several garments: what the press costs, before it.
              <p className="text-sm font-semibold text-ink-800" data-testid="press-cost">
                {cost.trials === 0
                  ? t('press.cost.credits', { count: studio.garmentCount, credits: cost.credits })
                  : cost.credits === 0
                    ? t('press.cost.trials', { count: studio.garmentCount, trials: cost.trials })
                    : t('press.cost.mixed', { count: studio.garmentCount, trials: cost.trials, credits: cost.credits })}
              </p>
            ) : (
              <p className="text-xs text-ink-500">{t('tryon.home.costNote')}</p>
            )}
            <TrialsWithheldNote user={user} className="mt-1 max-w-md" />
          </div>

          <div className="mt-8 scroll-mt-32" ref={studio.resultRef}>
            {studio.press.items.length > 0 ? (
              <Suspense fallback={null}>
                <ResultsRow
                  items={studio.press.items}
                  beforeUrl={studio.person.previewUrl}
                  preview={studio.resultEngine.kind === 'local'}
                  onShare={(r) => setSharing({ id: r.tryonId, imageUrl: r.imageUrl })}
                  onReport={(r) => setReporting(r.tryonId)}
                  reportedNote={(id) => (reported[id] ? t(`report.state.${reported[id]}`) : null)}
                  onTryOthers={studio.tryAnotherGarment}
                />
              </Suspense>
            ) : resultPanelWanted || studio.state.status !== 'idle' ? (
              <Suspense fallback={<ResultPanelIdle />}>
                <ResultPanel
                  state={studio.state}
                  onShowPlans={() => openPaywall('no_credits')}
                  engine={studio.resultEngine}
                  madeBy={studio.madeBy}
                  beforeUrl={studio.person.previewUrl}
                  hostedEngine={studio.hostedEngine}
                  photoReal={studio.photoReal}
                  alternativeEngine={studio.alternativeEngine}
                  onTryAnotherGarment={studio.tryAnotherGarment}
                  onLeaveLine={studio.leaveLine}
                  onShare={tryonId && resultUrl ? () => setSharing({ id: tryonId, imageUrl: resultUrl }) : undefined}
                  onReport={tryonId ? () => setReporting(tryonId) : undefined}
                  reportedNote={reportedStatus ? t(`report.state.${reportedStatus}`) : null}
                />
              </Suspense>
            ) : (
              <ResultPanelIdle />
            )}
            {sharing ? (
              <Suspense fallback={null}>
                <ShareDialog
                  key={sharing.id}
                  result={{ ...sharing, shareUrl: shared[sharing.id] ?? null }}
                  onClose={() => setSharing(null)}
                  onShareUrl={onShareUrl}
                  announce={setAnnounced}
                />
              </Suspense>
            ) : null}
            <p className="sr-only" role="status" aria-live="polite">
              {announced}
            </p>
            {reporting ? (
              <Suspense fallback={null}>
                <ReportDialog
                  key={reporting}
                  tryOnId={reporting}
                  user={user}
                  refreshUser={refreshUser}
                  onClose={() => setReporting(null)}
                  onReported={(res) => setReported((r) => ({ ...r, [reporting]: res.status }))}
                />
              </Suspense>
            ) : null}
          </div>

          <div className="mt-6 flex justify-center">
            <button
              type="button"
              onClick={() => openPaywall(user?.segment === 'trial_exhausted' ? 'trial_exhausted' : 'upgrade')}
              className="inline-flex min-h-8 items-center rounded-full border border-dashed border-ink-300 px-3 text-xs font-medium text-ink-500 hover:border-ink-400 hover:text-ink-800"
              data-testid="test-paywall"
            >
              {t('tryon.home.testPaywall')}
            </button>
          </div>
        </div>
      </BelowTheFold>

      <BelowTheFold className="mt-20">
        <Reviews />
      </BelowTheFold>
    </>
  );
}
