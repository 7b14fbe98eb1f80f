import { useState } from 'react';
import { buttonClasses } from '../../../components/ui/button';
import { ImageIcon } from '../../../components/ui/icons';

/**
 * A shopper's result, fetched only when the operator asks (each view is written to the audit log,
 * so nothing loads it ahead of a click).
 */
export function ResultPreview({ url, label }: { url: string | null; label: string }) {
  const [shown, setShown] = useState(false);
  if (!url) return <span className="text-sm text-ink-400">No result</span>;
  if (!shown)
    return (
      <button
        type="button"
        onClick={() => setShown(true)}
        className={buttonClasses('secondary', 'sm')}
        data-testid="show-result"
      >
        <ImageIcon className="size-4" />
        Show result<span className="sr-only"> of {label}</span>
      </button>
    );
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="inline-block rounded-xl ring-1 ring-ink-200 focus-visible:outline-3 focus-visible:outline-brand-500"
    >
      <img
        src={url}
        alt={`Result of ${label}`}
        className="h-40 w-auto max-w-full rounded-xl bg-ink-100 object-contain"
        data-testid="result-thumbnail"
      />
    </a>
  );
}
