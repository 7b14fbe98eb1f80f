import { useId } from 'react';
import { Link } from 'react-router';
import type { KeptPhoto } from '@aidressup/contract';
import { CheckIcon } from '../../../components/ui/icons';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';

export interface MyPhotosRowProps {
  photos: KeptPhoto[];
  /** The kept photo the next try-on uses; null: none (a photo picked, or nothing yet). */
  selectedId: string | null;
  onSelect: (photo: KeptPhoto) => void;
  disabled?: boolean;
}

/**
 * "My photos": the shopper's kept person photos above the person card, to pick one with one tap.
 * A group of native radio buttons, each labelled by its picture's description: the arrow keys
 * move through them, Space picks, and a screen reader says "Kept photo 2, kept on …, 2 of 3".
 */
export function MyPhotosRow({ photos, selectedId, onSelect, disabled }: MyPhotosRowProps) {
  const t = useT();
  const { date } = useFormat();
  const titleId = useId();
  const hintId = useId();
  const name = useId();
  if (photos.length === 0) return null;
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="my-photos-row"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={titleId} className="font-bold text-ink-950">
          {t('photos.row.title')}
        </h3>
        <Link
          to="/account#my-photos"
          className="rounded text-sm font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-brand-500"
        >
          {t('photos.row.manage')}
        </Link>
      </div>
      <p id={hintId} className="mt-0.5 text-sm text-ink-500">
        {t('photos.row.hint')}
      </p>
      <div role="radiogroup" aria-labelledby={titleId} aria-describedby={hintId} className="mt-3 flex flex-wrap gap-3">
        {photos.map((photo, i) => {
          const checked = photo.id === selectedId;
          const label = t('photos.row.choose', { n: i + 1, date: date(photo.createdAt) });
          return (
            <label
              key={photo.id}
              className={cn(
                'relative block size-20 cursor-pointer overflow-hidden rounded-2xl bg-ink-100 ring-2 transition-shadow sm:size-24',
                'has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500',
                checked ? 'ring-brand-600' : 'ring-ink-200 hover:ring-brand-300',
                disabled && 'cursor-not-allowed opacity-60',
              )}
              data-testid="my-photo"
              data-photo-id={photo.id}
              data-selected={checked ? 'true' : 'false'}
            >
              <input
                type="radio"
                name={name}
                value={photo.id}
                checked={checked}
                disabled={disabled}
                onChange={() => onSelect(photo)}
                className="sr-only"
                aria-label={label}
              />
              <img src={photo.thumbnailUrl} alt="" className="size-full object-cover" />
              {checked ? (
                <span className="absolute end-1 top-1 grid size-6 place-items-center rounded-full bg-brand-600 text-white shadow">
                  <CheckIcon className="size-4" />
                </span>
              ) : null}
            </label>
          );
        })}
      </div>
    </section>
  );
}
