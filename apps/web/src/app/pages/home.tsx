import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_UPLOAD_BYTES, categoryInfo, hasCredits, hasFreeTrial } from '@aidressup/contract';
import { Button } from '../../components/ui/button';
import { TrousersIcon, UserIcon, WandIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { usePaywall } from '../../features/paywall/hooks/use-paywall';
import { TrialsWithheldNote } from '../../features/session/components/trials-withheld-note';
import { useSession } from '../../features/session/hooks/use-session';
import { CategoryIcon } from '../../features/tryon/components/category-icon';
import { CategorySelect } from '../../features/tryon/components/category-select';
import { EngineSelect } from '../../features/tryon/components/engine-select';
import { OutfitNote } from '../../features/tryon/components/outfit-note';
import { PhotoGuide } from '../../features/tryon/components/photo-guide';
import { ResultPanel } from '../../features/tryon/components/result-panel';
import { Reviews } from '../../features/tryon/components/reviews';
import { Showcase } from '../../features/tryon/components/showcase';
import { StepIndicator } from '../../features/tryon/components/step-indicator';
import { UploadCard } from '../../features/tryon/components/upload-card';
import { makeProgressId, openProgressStream } from '../../features/tryon/api/progress-stream';
import { useCategoryChoice } from '../../features/tryon/hooks/use-category-choice';
import { useImageUpload } from '../../features/tryon/hooks/use-image-upload';
import { usePasteImage } from '../../features/tryon/hooks/use-paste-image';
import { useTryOn } from '../../features/tryon/hooks/use-try-on';
import { categoryLabel } from '../../i18n/category';
import { categoryDescription } from '../../features/tryon/utils/category-text';
import { engineEstimate, engineKind, findEngine, firstHostedEngine } from '../../features/tryon/utils/progress-copy';
import { canTryOn, currentStep } from '../../features/tryon/utils/steps';
import { rich, useT } from '../../i18n/use-t';
import { usePublicConfig } from '../../lib/public-config';

/** The file uploaded for a photo: reduced in the browser (loaded on first use), else the photo itself. */
function preparePhoto(file: File): Promise<File> {
  return import('../../features/tryon/utils/prepare-upload').then((m) => m.prepareUpload(file)).catch(() => file);
}

export function HomePage() {
  const t = useT();
  const { config } = usePublicConfig();
  const { user, updateUser, setUser, refreshUser } = useSession();
  const { openPaywall } = usePaywall();
  const maxBytes = config?.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  const person = useImageUpload(maxBytes);
  const clothing = useImageUpload(maxBytes);
  // Until the shopper picks a category by hand, the one suggested for the garment photo is preselected.
  const categoryChoice = useCategoryChoice({ garment: clothing.file, ready: !!user, prepare: preparePhoto });
  const { category } = categoryChoice;
  // A whole outfit: an optional bottom under an Upper Body garment (two try-ons).
  const bottom = useImageUpload(maxBytes);
  const outfitOffered = category === 'upper_body';
  const outfit = outfitOffered && !!bottom.file;
  const [engineChoice, setEngineChoice] = useState<string | null>(null);
  const engineId = engineChoice && findEngine(config, engineChoice) ? engineChoice : config?.defaultEngine;
  const { state, run, reset } = useTryOn({
    user,
    engine: engineId,
    updateUser,
    setUser,
    refreshUser,
    onNoCredits: () => openPaywall('no_credits'),
    prepare: preparePhoto,
    openProgress: openProgressStream,
    makeProgressId,
  });
  // The engine of the try-on under way or shown, else the one chosen.
  const shownEngine = findEngine(config, state.engine ?? engineId);
  const hosted = firstHostedEngine(config);

  const personCard = useRef<HTMLElement>(null);
  const clothingCard = useRef<HTMLElement>(null);
  const bottomCard = useRef<HTMLElement>(null);
  usePasteImage(
    [
      {
        get element() {
          return personCard.current;
        },
        isEmpty: !person.file,
        select: person.select,
      },
      {
        get element() {
          return clothingCard.current;
        },
        isEmpty: !clothing.file,
        select: clothing.select,
      },
      {
        // Optional: a pasted photo goes here only while this card has focus.
        get element() {
          return outfitOffered ? bottomCard.current : null;
        },
        isEmpty: false,
        select: bottom.select,
      },
    ],
    state.status === 'processing',
  );

  const removeBottom = useCallback(() => {
    bottom.remove();
    requestAnimationFrame(() =>
      bottomCard.current?.querySelector<HTMLElement>('[data-testid="upload-bottom-dropzone"]')?.focus(),
    );
  }, [bottom]);

  const tryAnotherGarment = useCallback(() => {
    clothing.remove();
    reset();
    // Focus moves to the now empty clothing card, ready for the next garment.
    requestAnimationFrame(() =>
      clothingCard.current?.querySelector<HTMLElement>('[data-testid="upload-clothing-dropzone"]')?.focus(),
    );
  }, [clothing, reset]);

  const processing = state.status === 'processing';
  const resultRef = useRef<HTMLDivElement>(null);

  // Bring the result panel into view when a try-on starts (it sits below the upload cards on phones).
  useEffect(() => {
    if (!processing) return;
    const el = resultRef.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    if (rect.top > window.innerHeight - 120 || rect.bottom < 0) {
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    }
  }, [processing]);

  // Once a purchase gives the user credits again, the NO_CREDITS refusal no longer applies.
  const canPay = !!user && (hasCredits(user) || hasFreeTrial(user));
  useEffect(() => {
    if (state.errorCode === 'NO_CREDITS' && canPay) reset();
  }, [state.errorCode, canPay, reset]);
  const flags = {
    hasPerson: !!person.file,
    hasClothing: !!clothing.file,
    processing,
    hasResult: state.status === 'success',
  };
  const step = currentStep(flags);
  const enabled = canTryOn(flags);
  const cat = categoryInfo(category);
  const maxMegabytes = Math.round(maxBytes / (1024 * 1024));

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
          {user && hasFreeTrial(user) ? (
            <p className="mt-4 text-sm font-medium text-ink-700">
              {rich(t('tryon.home.freeLeft', { count: user.free_trials_limit - user.free_trials_used }), {
                0: (count) => <strong>{count}</strong>,
              })}
              {user.email ? '' : ` ${t('tryon.home.noSignUp')}`}
            </p>
          ) : null}
        </section>

        <section aria-labelledby="examples-title" className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="examples-title" className="sr-only">
            {t('tryon.showcase.label')}
          </h2>
          <Showcase />
        </section>
      </div>

      <section id="try-on" aria-labelledby="studio-title" className="mx-auto mt-14 max-w-6xl scroll-mt-32 px-4 sm:px-6">
        <div className="rounded-[2rem] border border-ink-200 bg-white/70 p-4 shadow-xl shadow-ink-900/5 backdrop-blur sm:p-8">
          <h2 id="studio-title" className="text-center text-2xl font-extrabold tracking-tight text-ink-950 sm:text-3xl">
            {t('tryon.home.studioTitle')}
          </h2>
          <div className="mx-auto mt-6 max-w-2xl">
            <StepIndicator current={step} />
          </div>

          <div className="mt-8 grid gap-6 lg:grid-cols-[20rem_1fr]">
            <div className="space-y-6">
              <CategorySelect
                value={category}
                onChange={categoryChoice.choose}
                note={categoryChoice.note}
                disabled={processing}
              />
              {config && engineId ? (
                <EngineSelect
                  engines={config.engines}
                  value={engineId}
                  onChange={setEngineChoice}
                  disabled={processing}
                />
              ) : null}
              <PhotoGuide />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <UploadCard
                kind="person"
                title={t('tryon.upload.person.title')}
                noun={t('tryon.upload.person.noun')}
                description={t('tryon.upload.person.description')}
                icon={<UserIcon className="size-5" />}
                upload={person}
                disabled={processing}
                maxMegabytes={maxMegabytes}
                capture="environment"
                cardRef={personCard}
              />
              <UploadCard
                kind="clothing"
                title={categoryLabel(t, category)}
                noun={t('tryon.upload.clothing.noun')}
                description={categoryDescription(t, category)}
                icon={<CategoryIcon icon={cat.icon} className="size-5" />}
                upload={clothing}
                disabled={processing}
                maxMegabytes={maxMegabytes}
                capture="environment"
                cardRef={clothingCard}
              />
              {outfitOffered ? (
                <UploadCard
                  kind="bottom"
                  title={t('tryon.upload.bottom.title')}
                  noun={t('tryon.upload.bottom.noun')}
                  description={t('tryon.upload.bottom.description')}
                  icon={<TrousersIcon className="size-5" />}
                  upload={bottom}
                  disabled={processing}
                  maxMegabytes={maxMegabytes}
                  capture="environment"
                  cardRef={bottomCard}
                />
              ) : null}
            </div>
          </div>

          <div className="mt-8 flex flex-col items-center gap-2">
            {outfit ? <OutfitNote user={user} onRemoveBottom={removeBottom} disabled={processing} /> : null}
            <Button
              size="lg"
              className="w-full sm:w-auto sm:min-w-72"
              aria-disabled={!enabled && !processing ? true : undefined}
              disabled={processing}
              onClick={() => run(person.file, clothing.file, category, outfit ? bottom.file : null)}
              data-testid="try-with-ai"
            >
              {processing ? <Spinner className="size-5" /> : <WandIcon className="size-5" />}
              {processing ? t('tryon.home.creating') : t('tryon.home.tryWithAi')}
            </Button>
            <p className="text-xs text-ink-500">{t('tryon.home.costNote')}</p>
            <TrialsWithheldNote user={user} className="mt-1 max-w-md" />
          </div>

          <div className="mt-8 scroll-mt-32" ref={resultRef}>
            <ResultPanel
              state={state}
              onShowPlans={() => openPaywall('no_credits')}
              engine={{ kind: engineKind(shownEngine), estimate: engineEstimate(shownEngine) }}
              beforeUrl={person.previewUrl}
              hostedEngine={
                hosted
                  ? { label: hosted.label, selected: engineId === hosted.id, onUse: () => setEngineChoice(hosted.id) }
                  : undefined
              }
              onTryAnotherGarment={tryAnotherGarment}
            />
          </div>

          <div className="mt-6 flex justify-center">
            <button
              type="button"
              onClick={() => openPaywall(user?.segment === 'trial_exhausted' ? 'trial_exhausted' : 'upgrade')}
              className="rounded-lg px-3 py-2 text-sm font-medium text-ink-500 underline decoration-dotted underline-offset-4 hover:text-ink-800"
              data-testid="test-paywall"
            >
              {t('tryon.home.testPaywall')}
            </button>
          </div>
        </div>
      </section>

      <div className="mt-20">
        <Reviews />
      </div>
    </>
  );
}
