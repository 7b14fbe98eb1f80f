import { useId } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { AlertIcon, ClockIcon, SparklesIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import type { PressItem } from '../hooks/use-press';
import { stageLabel } from '../utils/progress-copy';
import { CompareSlider } from './compare-slider';
import { ResultActions } from '../../../components/result-actions';
import { waitNoticeTitle } from '../utils/wait-notice';

/** A result of a press, as the page needs it to share or report it. */
export interface PressResult {
  tryonId: string;
  imageUrl: string;
  item: PressItem;
}

export interface ResultsRowProps {
  items: PressItem[];
  /** The person photo, for each comparison. */
  beforeUrl: string | null;
  /** The built-in engine's results are quick previews (labelled as such). */
  preview: boolean;
  onShare: (result: PressResult) => void;
  onReport: (result: PressResult) => void;
  /** Reports made on this page, by try-on id: the button gives way to the note. */
  reportedNote: (tryonId: string) => string | null;
  /** Clears the garments and these results, keeping the person photo. */
  onTryOthers: () => void;
}

/** One garment's try-on in the row: under way, its result, or why there is none. */
function ResultCard({
  item,
  n,
  ...props
}: Omit<ResultsRowProps, 'items' | 'onTryOthers'> & { item: PressItem; n: number }) {
  const t = useT();
  const localize = useLocalizeMessage();
  const titleId = useId();
  const { state } = item;
  const title = t('press.results.item', { n });
  const line = state.status === 'processing' ? (state.line ?? null) : null;
  const result: PressResult | null =
    state.status === 'success' && state.resultUrl && state.tryonId
      ? { tryonId: state.tryonId, imageUrl: state.resultUrl, item }
      : null;
  const reported = result ? props.reportedNote(result.tryonId) : null;
  return (
    <li
      aria-labelledby={titleId}
      className="flex w-[85%] shrink-0 snap-start flex-col rounded-3xl border border-ink-200 bg-white p-3 shadow-sm sm:w-[calc(50%-0.5rem)] lg:w-auto lg:min-w-0 lg:flex-1 lg:shrink"
      data-testid="press-result"
      data-status={state.status}
    >
      <div className="flex items-center gap-2">
        {item.garmentUrl ? (
          <img src={item.garmentUrl} alt="" className="size-9 shrink-0 rounded-lg bg-ink-100 object-contain" />
        ) : null}
        <h3 id={titleId} className="font-bold text-ink-950">
          {title}
        </h3>
      </div>
      {state.status === 'processing' ? (
        <div className="mt-3 flex flex-1 flex-col items-center justify-center rounded-2xl bg-gradient-to-br from-brand-50 to-fuchsia-50 px-3 py-10 text-center">
          <Spinner className="size-8 text-brand-600" />
          <p className="mt-3 text-sm font-semibold text-ink-900" data-testid="press-result-stage">
            {line
              ? line.place !== null
                ? t('tryon.line.place', { place: line.place, seconds: line.waitSeconds ?? 0 })
                : t('tryon.line.joining')
              : ((state.stage && state.stage !== 'queued' ? stageLabel(t, state.stage) : null) ??
                localize(MESSAGES.initializing))}
          </p>
          {line ? (
            <button
              type="button"
              onClick={item.cancel}
              className={buttonClasses('secondary', 'sm', 'mt-3')}
              aria-describedby={titleId}
            >
              {t('tryon.line.cancel')}
            </button>
          ) : null}
        </div>
      ) : null}
      {result ? (
        <div className="mt-3 flex flex-1 flex-col">
          {props.preview ? (
            <p className="mb-2 self-start rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold text-amber-950">
              {t('tryon.result.previewBadge')}
            </p>
          ) : null}
          {props.beforeUrl ? (
            <CompareSlider
              beforeUrl={props.beforeUrl}
              afterUrl={result.imageUrl}
              beforeAlt={t('tryon.result.beforeAlt')}
              afterAlt={`${t('tryon.result.afterAlt')} (${title})`}
            />
          ) : (
            <img src={result.imageUrl} alt={`${t('tryon.result.afterAlt')} (${title})`} className="rounded-2xl" />
          )}
          <ResultActions
            tryonId={result.tryonId}
            imageUrl={result.imageUrl}
            name={title}
            onShare={() => props.onShare(result)}
            onReport={() => props.onReport(result)}
            reportedNote={reported}
            size="md"
            className="mt-3 grid grid-cols-2 gap-2"
          />
        </div>
      ) : null}
      {state.status === 'error' && waitNoticeTitle(state.errorCode) ? (
        // The line full, several try-ons under way, the service away a moment: no failure, nothing charged.
        <div
          role="status"
          className="mt-3 flex-1 rounded-2xl border border-amber-200 bg-amber-50 p-3"
          data-testid="press-wait"
          data-code={state.errorCode ?? undefined}
        >
          <p className="flex items-center gap-1.5 text-sm font-bold text-amber-900">
            <ClockIcon className="size-4 shrink-0" />
            {localize(waitNoticeTitle(state.errorCode)!)}
          </p>
          <p className="mt-1 text-sm text-amber-900" data-testid="press-error-message">
            {state.error ? localize(state.error, state.errorCode) : null}
          </p>
        </div>
      ) : state.status === 'error' ? (
        <div className="mt-3 flex-1 rounded-2xl border border-red-200 bg-red-50 p-3" data-testid="press-error">
          <p className="flex items-center gap-1.5 text-sm font-bold text-red-800">
            <AlertIcon className="size-4 shrink-0" />
            {localize(MESSAGES.processFailed)}
          </p>
          <p className="mt-1 text-sm text-red-800" data-testid="press-error-message">
            {state.error ? localize(state.error, state.errorCode) : null}
          </p>
          <p className="mt-2 text-xs font-semibold text-red-900">{t('press.results.notCharged')}</p>
        </div>
      ) : null}
      {state.status === 'idle' && state.cancelled ? (
        <p className="mt-3 flex-1 rounded-2xl bg-ink-50 p-3 text-sm font-semibold text-ink-800">
          {t('tryon.line.cancelled')}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The try-ons of one press of several garments, side by side (a row that scrolls sideways on a
 * phone): each with the comparison slider, Download, Share and Report, or why it failed (refunded).
 */
export function ResultsRow({ items, onTryOthers, ...props }: ResultsRowProps) {
  const t = useT();
  const titleId = useId();
  const done = items.filter((i) => i.state.status !== 'processing').length;
  const ready = items.filter((i) => i.state.status === 'success').length;
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="press-results"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2
          id={titleId}
          tabIndex={-1}
          data-result-heading
          className="text-lg font-bold text-ink-950 focus:outline-none focus-visible:outline-3 focus-visible:outline-brand-500"
        >
          {t('press.results.title')}
        </h2>
        <p role="status" className="text-sm font-medium text-ink-600" data-testid="press-progress">
          {done < items.length
            ? t('press.results.progress', { ready, count: items.length })
            : t('press.results.done', { ready, count: items.length })}
        </p>
      </div>
      <ul
        className="-mx-1 mt-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-1 pb-2 lg:overflow-visible"
        aria-labelledby={titleId}
      >
        {items.map((item, i) => (
          <ResultCard key={i} item={item} n={i + 1} {...props} />
        ))}
      </ul>
      {done === items.length ? (
        <div className="mt-4 flex justify-center">
          <button
            type="button"
            onClick={onTryOthers}
            className={buttonClasses('secondary', 'lg', 'gap-2 px-5')}
            data-testid="press-try-others"
          >
            <SparklesIcon className="size-5" />
            {t('press.results.tryOthers')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
