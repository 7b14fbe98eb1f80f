import type { ReactNode } from 'react';
import { SparklesIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';

/** The result panel's frame and heading (the heading takes the focus when a result or an error arrives). */
export function ResultFrame({ status, children }: { status: string; children: ReactNode }) {
  const t = useT();
  return (
    <section
      aria-labelledby="result-title"
      data-testid="result-panel"
      data-status={status}
      className="rounded-3xl border border-ink-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <h2
        id="result-title"
        tabIndex={-1}
        data-result-heading
        className="scroll-mt-32 text-lg font-bold text-ink-950 focus:outline-none focus-visible:outline-3 focus-visible:outline-brand-500"
      >
        {t('tryon.result.title')}
      </h2>
      {children}
    </section>
  );
}

/** "Your result will appear here": the panel before any try-on (`children`: a note below it). */
export function ResultIdleBox({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <div className="mt-4 flex flex-col items-center justify-center rounded-2xl border-2 border-dashed border-ink-200 bg-ink-50 px-6 py-12 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-white text-brand-600 shadow-sm">
        <SparklesIcon className="size-7" />
      </span>
      <p className="mt-4 font-semibold text-ink-800">{t('tryon.result.idle.title')}</p>
      <p className="mt-1 max-w-sm text-sm text-ink-500">{t('tryon.result.idle.text')}</p>
      {children}
    </div>
  );
}

/**
 * The panel before any try-on, as the first page shows it: the whole panel (`result-panel.tsx`,
 * with every state of a try-on) loads at the shopper's first interaction or first press.
 */
export function ResultPanelIdle() {
  return (
    <ResultFrame status="idle">
      <ResultIdleBox />
    </ResultFrame>
  );
}
