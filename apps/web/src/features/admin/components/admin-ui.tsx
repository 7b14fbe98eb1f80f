import type { ReactNode } from 'react';
import { buttonClasses } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';

/** The console's building blocks, in the product's style (English only, like the whole console). */

export const thClass =
  'px-3 py-2 text-start text-xs font-semibold tracking-wide whitespace-nowrap text-ink-500 uppercase';
export const tdClass = 'px-3 py-2 align-top text-sm text-ink-800';

export function Panel({
  title,
  actions,
  children,
  className,
  headingLevel = 2,
  testId,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
  testId?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section
      className={cn('rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-6', className)}
      data-testid={testId}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading className="text-lg font-bold text-ink-950">{title}</Heading>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A scrolling region is focusable so a keyboard can scroll it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="relative -mx-4 overflow-x-auto px-4 sm:-mx-6 sm:px-6" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-3 py-6 text-ink-500">
      <Spinner className="size-5 text-brand-600" />
      {label}
    </p>
  );
}

export function ErrorNote({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-800"
    >
      <p className="flex items-start gap-2">
        <AlertIcon className="mt-0.5 size-4 shrink-0" />
        {message}
      </p>
      {onRetry ? (
        <button type="button" onClick={onRetry} className={buttonClasses('secondary', 'sm')}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'brand';
const tones: Record<Tone, string> = {
  neutral: 'bg-ink-100 text-ink-700 ring-ink-200',
  good: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  warn: 'bg-amber-50 text-amber-900 ring-amber-200',
  bad: 'bg-red-50 text-red-800 ring-red-200',
  brand: 'bg-brand-50 text-brand-800 ring-brand-200',
};

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1',
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}

/** A figure with its name, for the totals and the account's balance. */
export function Stat({
  label,
  value,
  testId,
  className,
}: {
  label: string;
  value: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={cn('rounded-2xl border border-ink-200 bg-ink-50/60 px-4 py-3', className)}>
      <dt className="text-xs font-semibold tracking-wide text-ink-500 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-extrabold tracking-tight text-ink-950" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export const inputClass =
  'block w-full rounded-xl border border-ink-300 bg-white px-3 py-2 text-base text-ink-950 shadow-sm placeholder:text-ink-400 focus:border-brand-500 focus:outline-3 focus:outline-brand-500/30 sm:text-sm';
