import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { MESSAGES, RESULT_RETENTION_DAYS } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { AlertIcon, CheckIcon, ClockIcon, RefreshIcon, SparklesIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';
import type { TryOnState } from '../hooks/use-try-on';
import { ResultFrame, ResultIdleBox } from './result-frame';
import { estimatedProgress, estimateNote, stageLabel, type EngineKind, type Estimate } from '../utils/progress-copy';
import { ResultActions } from '../../../components/result-actions';
import { waitNoticeTitle } from '../utils/wait-notice';

// The before/after slider is not on the first page: it loads with the first result, which shows
// at once as a plain image until it has.
const CompareSlider = lazy(async () => ({ default: (await import('./compare-slider')).CompareSlider }));

function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export interface ResultPanelProps {
  state: TryOnState;
  onShowPlans: () => void;
  /** The engine of the try-on under way or shown: its kind and estimate (from GET /api/config). */
  engine?: { kind: EngineKind; estimate: Estimate };
  /** The engine that made the result shown, when it is not the one asked (a failover): its label. */
  madeBy?: string | undefined;
  /** The person photo, for the before/after comparison. */
  beforeUrl?: string | null;
  /** A hosted engine to point to from a quick preview, and how to switch to it. */
  hostedEngine?: { label: string; onUse: () => void; selected: boolean };
  /** "Make it photo-real": re-run the preview shown on the hosted engine while its photos are kept. */
  photoReal?: { label: string; keptUntil: string; onRun: () => void };
  /**
   * After a refusal another engine can take: "Try with <engine>", the same try-on on it. `reason`:
   * a garment being worn (the server's offer), or a garment the built-in engine could not place.
   */
  alternativeEngine?: { label: string; onRun: () => void; reason?: 'worn' | 'notPlaced' };
  /** Keeps the person photo, clears the garment and the result. */
  onTryAnotherGarment?: () => void;
  /** Opens the share dialog for the result shown (absent: no Share button). */
  onShare?: (() => void) | undefined;
  /** Opens "Report a problem" for the result shown (absent: no report button). */
  onReport?: () => void;
  /** The result has been reported: the button gives way to this note. */
  reportedNote?: string | null;
  /** Leaves the line while the try-on waits for the engine (absent: no button). */
  onLeaveLine?: () => void;
}

/** How often a screen reader hears the place in line again while it moves (the screen shows every change). */
const LINE_ANNOUNCE_MS = 5_000;

/** `text`, changing at most once every `ms`; from empty (the first text) at once. */
function useThrottledText(text: string, ms: number): string {
  const [shown, setShown] = useState(text);
  const last = useRef(Date.now());
  useEffect(() => {
    if (text === shown) return;
    const wait = last.current + ms - Date.now();
    const apply = () => {
      last.current = Date.now();
      setShown(text);
    };
    if (wait <= 0 || shown === '' || text === '') {
      apply();
      return;
    }
    const timer = setTimeout(apply, wait);
    return () => clearTimeout(timer);
  }, [text, shown, ms]);
  return shown;
}

/**
 * The way from a quick preview to the photo-real version: the button while the preview's photos
 * are kept, then the note that they are gone (the page re-renders when their time is up).
 */
function PhotoRealOffer({ offer }: { offer: NonNullable<ResultPanelProps['photoReal']> }) {
  const t = useT();
  const localize = useLocalizeMessage();
  const until = Date.parse(offer.keptUntil);
  const [gone, setGone] = useState(() => !(until > Date.now()));
  useEffect(() => {
    if (gone) return;
    // setTimeout holds at most ~24.8 days; these are minutes.
    const timer = setTimeout(() => setGone(true), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [gone, until]);
  if (gone)
    return (
      <p className="mt-2 font-medium" data-testid="photos-gone">
        {localize(MESSAGES.photosGone)}
      </p>
    );
  const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(until);
  return (
    <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3" data-testid="photo-real">
      <button
        type="button"
        onClick={offer.onRun}
        // Like a primary button, but its label may wrap on a phone.
        className="inline-flex min-h-11 shrink-0 items-center justify-center gap-2 rounded-xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-5 py-2 text-sm font-semibold text-white shadow-lg shadow-brand-600/25 transition-colors select-none hover:from-brand-700 hover:to-fuchsia-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
        data-testid="make-photo-real"
      >
        <SparklesIcon className="size-5 shrink-0" />
        {t('tryon.result.makePhotoReal', { engine: offer.label })}
      </button>
      <span className="text-xs text-amber-900">{t('tryon.result.photoRealNote', { engine: offer.label, time })}</span>
    </div>
  );
}

export function ResultPanel({
  state,
  onShowPlans,
  engine,
  beforeUrl,
  hostedEngine,
  photoReal,
  alternativeEngine,
  onTryAnotherGarment,
  onShare,
  onReport,
  reportedNote,
  onLeaveLine,
  madeBy,
}: ResultPanelProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const waitTitle = state.status === 'error' ? waitNoticeTitle(state.errorCode) : null;
  const kind: EngineKind = engine?.kind ?? 'hosted';
  const estimate: Estimate = state.estimateSeconds ?? engine?.estimate ?? { min: 30, max: 60 };
  const stageText = state.stage ? stageLabel(t, state.stage) : null;
  // The headline follows the stage once the engine works on the photos; until then (and while
  // waiting for a free engine) it is the specification's 'Initializing AI model...'.
  const headlineFollowsStage = !!stageText && state.stage !== 'queued';
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (state.status !== 'processing') return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [state.status]);
  const line = state.status === 'processing' ? (state.line ?? null) : null;
  const placeText = line
    ? line.place !== null
      ? t('tryon.line.place', { place: line.place, seconds: line.waitSeconds ?? 0 })
      : t('tryon.line.joining')
    : '';
  const announced = useThrottledText(placeText, LINE_ANNOUNCE_MS);
  const cancelledRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state.status === 'idle' && state.cancelled) cancelledRef.current?.focus();
  }, [state.status, state.cancelled]);

  return (
    <ResultFrame status={state.status}>
      {state.status === 'idle' ? (
        <ResultIdleBox>
          {state.cancelled ? (
            <p
              ref={cancelledRef}
              tabIndex={-1}
              role="status"
              className="mt-4 max-w-sm rounded-xl bg-white px-4 py-2 text-sm font-semibold text-ink-800 shadow-sm outline-none"
              data-testid="line-cancelled"
            >
              {t('tryon.line.cancelled')}
            </p>
          ) : null}
        </ResultIdleBox>
      ) : null}

      {line ? (
        // Waiting in line for the engine: nothing is charged yet, and the shopper may leave.
        <div
          className="mt-4 flex flex-col items-center rounded-2xl border border-amber-200 bg-gradient-to-br from-amber-50 to-brand-50 px-6 py-10 text-center"
          data-testid="line-wait"
        >
          <span className="grid size-14 place-items-center rounded-2xl bg-white text-amber-700 shadow-sm">
            <ClockIcon className="size-7" />
          </span>
          <h3 className="mt-4 text-base font-bold text-ink-950">{t('tryon.line.title')}</h3>
          {/* The screen shows every move; a screen reader hears the place politely, at most every few seconds. */}
          <p className="mt-2 text-xl font-bold text-ink-950" aria-hidden="true" data-testid="line-place">
            {placeText}
          </p>
          <p className="sr-only" role="status" aria-live="polite" data-testid="line-live">
            {announced}
          </p>
          <p className="mt-2 max-w-sm text-sm text-ink-600">{t('tryon.line.free')}</p>
          {line.retryAt !== null ? (
            <p className="mt-3 text-xs font-medium text-ink-500" data-testid="line-retry">
              {t('tryon.line.retry', { seconds: Math.max(0, Math.ceil((line.retryAt - now) / 1000)) })}
            </p>
          ) : null}
          {onLeaveLine ? (
            <button
              type="button"
              onClick={onLeaveLine}
              className={buttonClasses('secondary', 'md', 'mt-5')}
              data-testid="leave-line"
            >
              {t('tryon.line.cancel')}
            </button>
          ) : null}
        </div>
      ) : null}

      {state.status === 'processing' && !line ? (
        <div className="mt-4 flex flex-col items-center rounded-2xl bg-gradient-to-br from-brand-50 to-fuchsia-50 px-6 py-12 text-center">
          <Spinner className="size-12 text-brand-600" />
          {/* The message and the stage are announced; the ticking clock and the bar are not. */}
          <div role="status" aria-live="polite" data-testid="progress-live">
            <p
              className="mt-5 text-lg font-bold text-ink-950"
              data-testid="progress-message"
              data-stage={state.stage ?? 'starting'}
            >
              {headlineFollowsStage ? stageText : state.message ? localize(state.message) : null}
            </p>
            <p className="mt-1 text-sm text-ink-600" data-testid="progress-estimate">
              {estimateNote(t, kind, estimate)}
            </p>
            <p className="mt-4 min-h-6 text-base font-semibold text-brand-800" data-testid="progress-stage">
              {headlineFollowsStage ? null : stageText}
            </p>
          </div>
          <div className="mt-4 w-full max-w-sm">
            <div
              className="h-2 overflow-hidden rounded-full bg-white"
              role="progressbar"
              aria-label={t('tryon.result.progressLabel')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={estimatedProgress(now - (state.startedAt ?? now), estimate, state.stage)}
            >
              <div
                className="h-full rounded-full bg-gradient-to-r from-brand-500 to-fuchsia-500 transition-[width] duration-500"
                style={{ width: `${estimatedProgress(now - (state.startedAt ?? now), estimate, state.stage)}%` }}
              />
            </div>
            <p className="mt-2 inline-flex items-center gap-1.5 text-xs font-medium text-ink-500">
              <ClockIcon className="size-3.5" />
              <span>
                {rich(t('tryon.result.elapsed', { time: formatElapsed(now - (state.startedAt ?? now)) }), {
                  0: (time) => (
                    <span className="font-mono" dir="ltr" data-testid="elapsed">
                      {time}
                    </span>
                  ),
                })}
              </span>
            </p>
          </div>
        </div>
      ) : null}

      {state.status === 'success' && state.resultUrl ? (
        <div className="mt-4">
          <p className="flex items-center gap-2 font-semibold text-emerald-700" role="status">
            <CheckIcon className="size-5" />
            {state.message ? localize(state.message) : null}
          </p>
          {madeBy ? (
            <p className="mt-2 text-sm text-ink-700" data-testid="made-by">
              {t('tryon.result.madeBy', { engine: madeBy })}
            </p>
          ) : null}
          {kind === 'local' ? (
            <div
              className="mt-3 rounded-2xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950"
              data-testid="preview-note"
            >
              <p className="flex flex-wrap items-center gap-2">
                <span
                  className="rounded-full bg-amber-200/80 px-2.5 py-0.5 text-xs font-bold text-amber-950"
                  data-testid="preview-badge"
                >
                  {t('tryon.result.previewBadge')}
                </span>
                <span>{t('tryon.result.previewText')}</span>
              </p>
              {photoReal ? (
                <PhotoRealOffer offer={photoReal} />
              ) : hostedEngine ? (
                <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2" data-testid="hosted-pointer">
                  <span>
                    {rich(t('tryon.result.hostedPointer', { engine: hostedEngine.label }), {
                      0: (engineName) => <strong>{engineName}</strong>,
                    })}
                  </span>
                  {hostedEngine.selected ? (
                    <span className="font-semibold">{t('tryon.result.hostedSelected')}</span>
                  ) : (
                    <button type="button" onClick={hostedEngine.onUse} className={buttonClasses('secondary', 'sm')}>
                      {t('tryon.result.useEngine', { engine: hostedEngine.label })}
                    </button>
                  )}
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="mt-4">
            {beforeUrl ? (
              <Suspense fallback={<PlainResult url={state.resultUrl} alt={t('tryon.result.afterAlt')} />}>
                <CompareSlider
                  beforeUrl={beforeUrl}
                  afterUrl={state.resultUrl}
                  beforeAlt={t('tryon.result.beforeAlt')}
                  afterAlt={t('tryon.result.afterAlt')}
                />
              </Suspense>
            ) : (
              <PlainResult url={state.resultUrl} alt={t('tryon.result.afterAlt')} />
            )}
          </div>
          <ResultActions
            tryonId={state.tryonId}
            imageUrl={state.resultUrl}
            onShare={onShare}
            onReport={onReport}
            reportedNote={reportedNote}
            size="lg"
            className="mt-5 grid gap-3 sm:grid-cols-2"
            footnote={<p>{t('tryon.result.kept', { days: RESULT_RETENTION_DAYS })}</p>}
          >
            {onTryAnotherGarment ? (
              <button
                type="button"
                onClick={onTryAnotherGarment}
                className={buttonClasses('secondary', 'lg', 'px-4')}
                data-testid="try-another-garment"
              >
                <SparklesIcon className="size-5" />
                {t('tryon.result.tryAnother')}
              </button>
            ) : null}
            <button
              type="button"
              onClick={() => window.location.reload()}
              className={buttonClasses(
                'secondary',
                'lg',
                cn('px-4', !!onShare !== !!onTryAnotherGarment && 'sm:col-span-2'),
              )}
            >
              <RefreshIcon className="size-5" />
              {t('tryon.result.tryAgain')}
            </button>
          </ResultActions>
        </div>
      ) : null}

      {state.status === 'error' && waitTitle ? (
        // Not a failure of the shopper's photos: the service is full or away for a moment, or the
        // shopper has several try-ons under way; nothing was charged.
        <div
          role="status"
          className="mt-4 rounded-2xl border border-amber-200 bg-amber-50 p-5"
          data-testid="busy-box"
          data-code={state.errorCode ?? undefined}
        >
          <h3 className="flex items-center gap-2 font-bold text-amber-900">
            <ClockIcon className="size-5" />
            {localize(waitTitle)}
          </h3>
          <p className="mt-2 text-sm text-amber-900" data-testid="error-message">
            {state.error ? localize(state.error, state.errorCode) : null}
          </p>
        </div>
      ) : null}

      {state.status === 'error' && !waitTitle ? (
        <div role="alert" className="mt-4 rounded-2xl border border-red-200 bg-red-50 p-5" data-testid="error-box">
          <h3 className="flex items-center gap-2 font-bold text-red-800">
            <AlertIcon className="size-5" />
            {localize(MESSAGES.processFailed)}
          </h3>
          {state.errorCode === 'GARMENT_NOT_PLACED' ? (
            // Two short lines: what happened (nothing charged), and the photo that works.
            <div className="mt-2 space-y-1 text-sm text-red-800" data-testid="error-message">
              <p>{t('tryon.result.notPlaced.what')}</p>
              <p className="font-semibold" data-testid="error-advice">
                {t('tryon.result.notPlaced.works')}
              </p>
            </div>
          ) : (
            <p className="mt-2 text-sm text-red-800" data-testid="error-message">
              {state.error ? localize(state.error, state.errorCode) : null}
            </p>
          )}
          {state.errorCode === 'NO_CREDITS' ? (
            <button type="button" onClick={onShowPlans} className={buttonClasses('primary', 'md', 'mt-4')}>
              {t('tryon.result.seePlans')}
            </button>
          ) : null}
          {alternativeEngine ? (
            <div
              className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3"
              data-testid="alternative-engine"
            >
              <button
                type="button"
                onClick={alternativeEngine.onRun}
                // Like a primary button, but its label (the engine's name) may wrap on a phone.
                className="inline-flex min-h-11 shrink-0 items-center justify-center gap-2 rounded-xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-5 py-2 text-sm font-semibold text-white shadow-lg shadow-brand-600/25 transition-colors select-none hover:from-brand-700 hover:to-fuchsia-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
                data-testid="try-alternative-engine"
              >
                <SparklesIcon className="size-5 shrink-0" />
                {t('tryon.result.tryWithEngine', { engine: alternativeEngine.label })}
              </button>
              <span className="text-xs text-red-900">
                {t(
                  alternativeEngine.reason === 'notPlaced'
                    ? 'tryon.result.tryWithEngineNotPlacedNote'
                    : 'tryon.result.tryWithEngineNote',
                  { engine: alternativeEngine.label },
                )}
              </span>
            </div>
          ) : null}
        </div>
      ) : null}
    </ResultFrame>
  );
}

/** The result alone: without a before photo, or while the compare slider loads. */
function PlainResult({ url, alt }: { url: string; alt: string }) {
  return (
    <div className="overflow-hidden rounded-2xl bg-ink-100 ring-1 ring-ink-200">
      <img src={url} alt={alt} className="mx-auto max-h-[70vh] w-auto object-contain" data-testid="result-image" />
    </div>
  );
}
