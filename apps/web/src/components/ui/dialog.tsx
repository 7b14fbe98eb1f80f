import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { cn } from '../../lib/cn';
import { XIcon } from './icons';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Hide the visible title (still read by screen readers). */
  hideTitle?: boolean;
  testId?: string;
  /** Changing it moves focus to the first control again (for dialogs whose content changes). */
  focusKey?: string;
}

/**
 * A modal dialog: native <dialog> opened with showModal (the rest of the page is inert),
 * Tab and Shift+Tab cycle inside it, Escape closes it, focus returns to the opener.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  className,
  hideTitle,
  testId,
  focusKey,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    document.documentElement.style.overflow = 'hidden';
    return () => {
      if (dialog.open) {
        if (typeof dialog.close === 'function') dialog.close();
        else dialog.removeAttribute('open');
      }
      document.documentElement.style.overflow = '';
      if (opener && document.contains(opener)) opener.focus();
    };
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
  }, [open, focusKey]);

  if (!open) return null;

  return (
    // A native modal dialog: Escape arrives as its cancel event, and a click on the backdrop
    // (the dialog element itself) closes it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      data-testid={testId}
      className={cn(
        'm-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100%-1.5rem)] overflow-y-auto rounded-3xl bg-white p-0 text-ink-900 shadow-2xl',
        'backdrop:bg-ink-950/60 backdrop:backdrop-blur-sm',
        className,
      )}
      onCancel={(e) => {
        e.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onCloseRef.current();
          return;
        }
        if (e.key !== 'Tab') return;
        const items = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
          (el) => el.offsetParent !== null || el === document.activeElement,
        );
        if (items.length === 0) return;
        const firstEl = items[0]!;
        const lastEl = items[items.length - 1]!;
        if (e.shiftKey && (document.activeElement === firstEl || !ref.current?.contains(document.activeElement))) {
          e.preventDefault();
          lastEl.focus();
        } else if (
          !e.shiftKey &&
          (document.activeElement === lastEl || !ref.current?.contains(document.activeElement))
        ) {
          e.preventDefault();
          firstEl.focus();
        }
      }}
      onClick={(e) => {
        if (e.target === ref.current) onCloseRef.current();
      }}
    >
      <div className="relative p-5 sm:p-8">
        <button
          type="button"
          onClick={() => onCloseRef.current()}
          className="absolute end-3 top-3 grid size-10 place-items-center rounded-full text-ink-500 hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-3 focus-visible:outline-brand-500"
          aria-label={t('layout.dialog.close')}
        >
          <XIcon className="size-5" />
        </button>
        <h2
          id={titleId}
          className={cn(hideTitle ? 'sr-only' : 'pe-10 text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl')}
        >
          {title}
        </h2>
        {description ? (
          <div id={descId} className="mt-2 pe-6 text-ink-600">
            {description}
          </div>
        ) : null}
        {children}
      </div>
    </dialog>
  );
}
