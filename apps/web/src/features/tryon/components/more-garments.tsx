import { useRef } from 'react';
import { ALLOWED_IMAGE_TYPES, MAX_GARMENTS_PER_PRESS } from '@aidressup/contract';
import { PlusIcon, XIcon } from '../../../components/ui/icons';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import type { MoreGarment } from '../hooks/use-more-garments';

export interface MoreGarmentsProps {
  /** The first garment's preview (the clothing card's photo). */
  firstUrl: string;
  items: MoreGarment[];
  error: string | null;
  full: boolean;
  add: (files: File | readonly File[] | null | undefined) => void;
  remove: (key: number) => void;
  disabled?: boolean;
}

/**
 * Under the clothing photo: more garments for one press (up to MAX_GARMENTS_PER_PRESS), each its
 * own try-on. Small pictures of them, each with a remove button, and "Add another garment".
 */
export function MoreGarments({ firstUrl, items, error, full, add, remove, disabled }: MoreGarmentsProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <div className="mt-3" data-testid="more-garments">
      {items.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t('press.list', { count: items.length + 1 })}>
          <li className="relative size-14 overflow-hidden rounded-xl bg-ink-100 ring-1 ring-ink-200">
            <img src={firstUrl} alt={t('press.garmentAlt', { n: 1 })} className="size-full object-contain" />
          </li>
          {items.map((g, i) => (
            <li
              key={g.key}
              className="relative size-14 overflow-hidden rounded-xl bg-ink-100 ring-1 ring-ink-200"
              data-testid="more-garment"
            >
              <img src={g.previewUrl} alt={t('press.garmentAlt', { n: i + 2 })} className="size-full object-contain" />
              <button
                type="button"
                onClick={() => remove(g.key)}
                disabled={disabled}
                className="absolute end-0.5 top-0.5 grid size-6 place-items-center rounded-full bg-white/95 text-red-700 shadow hover:bg-white focus-visible:outline-3 focus-visible:outline-brand-500"
                data-testid="more-garment-remove"
              >
                <XIcon className="size-3.5" />
                <span className="sr-only">{t('press.remove', { n: i + 2 })}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {full ? null : (
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          disabled={disabled}
          className="mt-2 inline-flex min-h-10 w-full items-center justify-center gap-1.5 rounded-xl border border-dashed border-ink-300 px-3 text-sm font-semibold text-ink-800 hover:border-brand-400 hover:bg-brand-50/50 disabled:opacity-60"
          data-testid="add-garment"
        >
          <PlusIcon className="size-4" />
          {t('press.add')}
        </button>
      )}
      <p className="mt-1 text-xs text-ink-500">{t('press.addHint', { max: MAX_GARMENTS_PER_PRESS })}</p>
      <input
        ref={inputRef}
        type="file"
        name="more-garments"
        accept={ALLOWED_IMAGE_TYPES.join(',')}
        multiple
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="add-garment-input"
        onChange={(e) => {
          add(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
      {error ? (
        <p role="alert" className="mt-2 rounded-xl bg-red-50 p-2.5 text-xs font-medium text-red-800">
          {localize(error)}
        </p>
      ) : null}
    </div>
  );
}
