import { MESSAGES, type TryOnItem } from '@aidressup/contract';
import { SparklesIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import { useStillKept } from '../hooks/use-still-kept';

export interface PhotoRealProps {
  /** The hosted engine's name. */
  label: string;
  onRun: (item: TryOnItem) => void;
  /** The preview being made photo-real, if any. */
  running: string | null;
  /** A refusal for one preview (English, with its code: translated when shown). */
  error: { id: string; message: string; code?: string | undefined } | null;
}

/** A quick preview's label and what it means, and the way to the photo-real version while its photos are kept. */
export function PreviewNote({
  item,
  name,
  photoReal,
}: {
  item: TryOnItem;
  /** How the card names its result to screen readers. */
  name: string;
  photoReal: PhotoRealProps | undefined;
}) {
  const t = useT();
  const localize = useLocalizeMessage();
  const kept = useStillKept(item.photosKeptUntil);
  const error = photoReal?.error?.id === item.id ? photoReal.error : null;
  return (
    <div
      className="rounded-2xl border border-amber-200 bg-amber-50 px-3 py-2.5 text-xs text-amber-950"
      data-testid="gallery-item-preview"
    >
      <p>
        <span className="me-2 inline-block rounded-full bg-amber-200/80 px-2 py-0.5 font-bold">
          {t('tryon.result.previewBadge')}
        </span>
        {t('gallery.previewText')}
      </p>
      {photoReal && item.photosKeptUntil ? (
        !kept ? (
          <p className="mt-2 font-medium" data-testid="gallery-photos-gone">
            {localize(MESSAGES.photosGone)}
          </p>
        ) : (
          <button
            type="button"
            // Like a small primary button, but its label may wrap on a narrow card.
            className="mt-2 inline-flex min-h-9 items-center gap-1.5 rounded-xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-3 py-1.5 text-start text-sm font-semibold text-white shadow-lg shadow-brand-600/25 transition-colors select-none hover:from-brand-700 hover:to-fuchsia-700 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50"
            onClick={() => photoReal.onRun(item)}
            disabled={photoReal.running !== null}
            data-testid="gallery-make-photo-real"
          >
            {photoReal.running === item.id ? (
              <Spinner className="size-4 shrink-0" />
            ) : (
              <SparklesIcon className="size-4 shrink-0" />
            )}
            {photoReal.running === item.id
              ? t('tryon.result.rerunning')
              : t('tryon.result.makePhotoReal', { engine: photoReal.label })}
            <span className="sr-only"> {name}</span>
          </button>
        )
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 font-medium text-red-800" data-testid="gallery-photo-real-error">
          {localize(error.message, error.code)}
        </p>
      ) : null}
    </div>
  );
}
