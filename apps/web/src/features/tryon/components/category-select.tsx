import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { CATEGORY_VALUES, categoryInfo, type TryOnCategory } from '@aidressup/contract';
import { CheckIcon, ChevronDownIcon, WandIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';
import { categoryLabel } from '../../../i18n/category';
import { categoryDescription } from '../utils/category-text';
import { CategoryIcon } from '../../../components/ui/category-icon';

export interface CategorySelectProps {
  value: TryOnCategory;
  onChange: (value: TryOnCategory) => void;
  /** The categories the chosen engine offers, in order; default the three clothing ones. */
  offered?: readonly TryOnCategory[];
  disabled?: boolean;
  /** A short note under the picker (the category suggested for the garment photo), read out politely. */
  note?: string | null;
}

/**
 * The category dropdown: a listbox whose options show icon, label and description. `onChange` is
 * called only for a choice made in the list.
 */
export function CategorySelect({ value, onChange, disabled, note, offered = CATEGORY_VALUES }: CategorySelectProps) {
  const CATEGORIES = offered.map(categoryInfo);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(() => CATEGORIES.findIndex((c) => c.value === value));
  const labelId = useId();
  const listId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const current = categoryInfo(value);
  const t = useT();

  useEffect(() => {
    if (!open) return;
    listRef.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openList = () => {
    setActive(
      Math.max(
        0,
        CATEGORIES.findIndex((c) => c.value === value),
      ),
    );
    setOpen(true);
  };
  const choose = (i: number) => {
    const c = CATEGORIES[i];
    if (c) onChange(c.value);
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      openList();
    }
  };
  const onListKey = (e: KeyboardEvent) => {
    const last = CATEGORIES.length - 1;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        setActive((a) => Math.min(last, a + 1));
        break;
      case 'ArrowUp':
        e.preventDefault();
        setActive((a) => Math.max(0, a - 1));
        break;
      case 'Home':
        e.preventDefault();
        setActive(0);
        break;
      case 'End':
        e.preventDefault();
        setActive(last);
        break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        choose(active);
        break;
      case 'Escape':
        e.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div>
      <div ref={rootRef} className="relative">
        <span id={labelId} className="mb-2 block text-sm font-semibold text-ink-900">
          {t('tryon.category.label')}
        </span>
        <button
          ref={buttonRef}
          type="button"
          disabled={disabled}
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-labelledby={`${labelId} ${labelId}-value`}
          onClick={() => (open ? setOpen(false) : openList())}
          onKeyDown={onButtonKey}
          data-testid="category-select"
          className="flex w-full items-center gap-3 rounded-2xl border border-ink-200 bg-white p-3 text-start shadow-sm transition hover:border-brand-300 disabled:opacity-60"
        >
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">
            <CategoryIcon icon={current.icon} className="size-6" />
          </span>
          <span id={`${labelId}-value`} className="min-w-0 flex-1">
            <span className="block font-semibold text-ink-950">{categoryLabel(t, value)}</span>
            <span className="block text-sm text-pretty text-ink-500">{categoryDescription(t, value)}</span>
          </span>
          <ChevronDownIcon className={cn('size-5 shrink-0 text-ink-500 transition-transform', open && 'rotate-180')} />
        </button>
        {open ? (
          <ul
            ref={listRef}
            id={listId}
            role="listbox"
            tabIndex={-1}
            aria-labelledby={labelId}
            aria-activedescendant={`${listId}-${active}`}
            onKeyDown={onListKey}
            className="absolute inset-x-0 top-full z-20 mt-2 overflow-hidden rounded-2xl border border-ink-200 bg-white p-1.5 shadow-2xl outline-none"
          >
            {CATEGORIES.map((c, i) => {
              const selected = c.value === value;
              return (
                // The listbox takes the keys (arrows, Enter) and points at the active option with
                // aria-activedescendant; a click picks an option directly.
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                <li
                  key={c.value}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={selected}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => choose(i)}
                  className={cn(
                    'flex cursor-pointer items-center gap-3 rounded-xl p-2.5',
                    i === active ? 'bg-brand-50 ring-2 ring-brand-500 ring-inset' : '',
                  )}
                >
                  <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-ink-100 text-ink-700">
                    <CategoryIcon icon={c.icon} className="size-5" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block font-semibold text-ink-950">{categoryLabel(t, c.value)}</span>
                    <span className="block text-sm text-ink-600">{categoryDescription(t, c.value)}</span>
                  </span>
                  {selected ? <CheckIcon className="size-5 text-brand-600" /> : null}
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
      {/* Always in the page, so a note that appears in it is announced; its room kept for it (one
          line, two on a phone where the longer languages wrap; its space inside it, padding, not a
          margin that would fold out of it), so the note arriving
          (the garment's category suggested) moves nothing below it: Try with AI under a pointer about
          to press it. */}
      <p aria-live="polite" data-testid="category-note" className="min-h-12 pt-2 text-sm text-brand-800 sm:min-h-7">
        {note ? (
          <span className="flex items-start gap-1.5">
            <WandIcon className="mt-0.5 size-4 shrink-0 text-brand-600" />
            {note}
          </span>
        ) : null}
      </p>
    </div>
  );
}
