import { useId, type ReactNode } from 'react';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { cn } from '../../../lib/cn';

/** One titled card of the account page. */
export function SectionCard({
  title,
  children,
  className,
  tone = 'default',
  testId,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  tone?: 'default' | 'danger';
  testId?: string;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={cn(
        'min-w-0 rounded-3xl border bg-white p-5 shadow-sm sm:p-6',
        tone === 'danger' ? 'border-red-200' : 'border-ink-200',
        className,
      )}
    >
      <h2
        id={id}
        className={cn('text-lg font-bold tracking-tight', tone === 'danger' ? 'text-red-800' : 'text-ink-950')}
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

/** An error the page keeps in English (the server's words, or the contract's): shown in the page's language. */
export function InlineError({ message, code }: { message: string | null; code?: string | null }) {
  const localize = useLocalizeMessage();
  return message ? (
    <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-800">
      {localize(message, code)}
    </p>
  ) : null;
}
