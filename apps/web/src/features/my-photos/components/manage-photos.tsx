import { useRef, useState } from 'react';
import { MAX_KEPT_PHOTOS, type KeptPhoto } from '@aidressup/contract';
import { buttonClasses } from '../../../components/ui/button';
import { TrashIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useFormat } from '../../../i18n/format';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import type { PhotoError } from '../hooks/use-my-photos';

export interface ManagePhotosProps {
  /** null while loading. */
  photos: KeptPhoto[] | null;
  error: PhotoError | null;
  retry: () => void;
  remove: (id: string) => Promise<PhotoError | null>;
  keptPhotoDays: number;
}

/** The Account page's "My photos" (inside its section card): the kept person photos, each with Delete, and what is done with them. */
export function ManagePhotos({ photos, error, retry, remove, keptPhotoDays }: ManagePhotosProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  const { date } = useFormat();
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState<PhotoError | null>(null);
  const [announce, setAnnounce] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  const srOnly = (text: string) => <span className="sr-only">{text}</span>;

  const onDelete = async (id: string) => {
    setBusy(id);
    setFailed(null);
    const err = await remove(id);
    setBusy(null);
    if (err) setFailed(err);
    else {
      setAnnounce(t('photos.account.deleted'));
      // The button pressed is gone: the focus goes to the list (or stays on the section).
      requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>('button')?.focus());
    }
  };

  return (
    <>
      <p className="mt-3 text-sm leading-6 text-ink-700">{t('photos.account.intro', { days: keptPhotoDays })}</p>
      {error ? (
        <div role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          {localize(error.message, error.code)}{' '}
          <button type="button" onClick={retry} className="font-semibold underline underline-offset-2">
            {t('photos.account.retry')}
          </button>
        </div>
      ) : photos === null ? (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-ink-500">
          <Spinner className="size-4 text-brand-600" />
          {t('photos.account.loading')}
        </p>
      ) : photos.length === 0 ? (
        <p className="mt-4 rounded-xl bg-ink-50 p-3 text-sm text-ink-600" data-testid="my-photos-empty">
          {t('photos.account.empty')}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm font-semibold text-ink-800" data-testid="my-photos-count">
            {t('photos.account.count', { count: photos.length, max: MAX_KEPT_PHOTOS })}
          </p>
          <ul ref={listRef} className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="my-photos-list">
            {photos.map((photo, i) => (
              <li key={photo.id} className="rounded-2xl border border-ink-200 p-2" data-testid="my-photos-item">
                <img
                  src={photo.thumbnailUrl}
                  alt={t('photos.account.alt', { n: i + 1, date: date(photo.createdAt) })}
                  className="aspect-[3/4] w-full rounded-xl bg-ink-100 object-cover"
                />
                <p className="mt-2 text-xs text-ink-500">
                  {t('photos.account.lastUsed', { date: date(photo.lastUsedAt) })}
                </p>
                <button
                  type="button"
                  onClick={() => void onDelete(photo.id)}
                  disabled={busy !== null}
                  className={buttonClasses('secondary', 'sm', 'mt-2 w-full gap-1.5 text-red-700')}
                  data-testid="my-photos-delete"
                >
                  {busy === photo.id ? <Spinner className="size-4" /> : <TrashIcon className="size-4" />}
                  {rich(t('photos.account.delete', { n: i + 1 }), { 0: srOnly })}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {failed ? (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-800">
          {localize(failed.message, failed.code)}
        </p>
      ) : null}
      <p className="sr-only" role="status" aria-live="polite">
        {announce}
      </p>
    </>
  );
}
