import type { ReactNode } from 'react';
import { buttonClasses } from './ui/button';
import { AlertIcon, DownloadIcon, ShareIcon } from './ui/icons';
import { useT } from '../i18n/use-t';
import { cn } from '../lib/cn';
import { resultFileName } from '../lib/result-file';

export interface ResultActionsProps {
  /** The result's try-on id (its download name); null when it is not known. */
  tryonId: string | null;
  imageUrl: string;
  /**
   * How the result is named to screen readers where several are on the page ("Upper Body result
   * from …", "Result 2"): each control says which one it acts on. Absent for the only result shown.
   */
  name?: string | undefined;
  /** Opens the share dialog (absent: no Share button). */
  onShare?: (() => void) | undefined;
  /** Opens "Report a problem" (absent: no Report button). */
  onReport?: (() => void) | undefined;
  /** The result has been reported: the Report button gives way to this note. */
  reportedNote?: string | null | undefined;
  /** `lg` beside the studio's big buttons, `md` in a row of results, `sm` on a gallery card. */
  size?: 'sm' | 'md' | 'lg';
  /** The layout of the row of buttons (a grid or a wrapping row, with its margins). */
  className?: string;
  /** Further buttons at the end of the row (Try again, Delete…). */
  children?: ReactNode;
  /** Beside the Report button (or the note), e.g. how long the result is kept. */
  footnote?: ReactNode;
}

const ICON = { sm: 'size-4', md: 'size-4', lg: 'size-5' } as const;

/**
 * Download, Share and Report for one result, the same everywhere a result is shown (the studio's
 * result, a row of results, My Gallery): one download name scheme and one set of words.
 */
export function ResultActions({
  tryonId,
  imageUrl,
  name,
  onShare,
  onReport,
  reportedNote,
  size = 'md',
  className,
  children,
  footnote,
}: ResultActionsProps) {
  const t = useT();
  const which = name ? <span className="sr-only"> {name}</span> : null;
  const icon = cn(ICON[size], 'shrink-0');
  const pad = size === 'lg' ? 'px-4' : size === 'md' ? 'gap-1.5 px-2' : undefined;
  const report = reportedNote ? (
    <p className="font-semibold text-amber-900" data-testid="result-reported">
      {reportedNote}
    </p>
  ) : onReport ? (
    <button
      type="button"
      onClick={onReport}
      aria-haspopup="dialog"
      // Its words first, then which result (the visible label begins the name).
      aria-label={name ? t('report.openLabel', { name }) : undefined}
      className="inline-flex min-h-8 items-center gap-1 rounded-lg px-2 py-1 font-semibold text-ink-600 underline decoration-dotted underline-offset-4 hover:text-ink-900 focus-visible:outline-3 focus-visible:outline-brand-500"
      data-testid="result-report"
    >
      <AlertIcon className="size-3.5 shrink-0" />
      {t('report.open')}
    </button>
  ) : null;
  return (
    <div data-testid="result-actions">
      <div className={className ?? 'flex flex-wrap items-center gap-2'}>
        <a
          href={imageUrl}
          download={resultFileName(tryonId, imageUrl)}
          className={buttonClasses('primary', size, pad)}
          data-testid="result-download"
        >
          <DownloadIcon className={icon} />
          {t('common.result.download')}
          {which}
        </a>
        {onShare ? (
          <button
            type="button"
            onClick={onShare}
            aria-haspopup="dialog"
            className={buttonClasses('secondary', size, pad)}
            data-testid="result-share"
          >
            <ShareIcon className={icon} />
            {t('common.result.share')}
            {which}
          </button>
        ) : null}
        {children}
      </div>
      {report || footnote ? (
        <div className="mt-2 flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-center text-xs text-ink-500">
          {footnote}
          {report}
        </div>
      ) : null}
    </div>
  );
}
