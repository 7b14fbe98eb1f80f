import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import type { KeptPhoto } from '@aidressup/contract';
import { Spinner } from '../../../components/ui/spinner';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { useT } from '../../../i18n/use-t';
import type { KeepOutcome, PhotoError } from '../hooks/use-my-photos';

export interface KeepPhotoToggleProps {
  /** The person photo just picked (the toggle is for it); null: none. */
  file: File | null;
  keep: (file: File) => Promise<KeepOutcome>;
  /** The photo is kept now: the page uses the kept photo from then on. */
  onKept: (photo: KeptPhoto) => void;
  /** Days a kept photo stays without use. */
  keptPhotoDays: number;
  disabled?: boolean;
}

/**
 * "Keep this photo for my next try-ons", off by default, under the person photo just picked.
 * Ticked, the photo is kept at once (the server checks it once: a photo with no single person is
 * refused, and the box is unticked with the reason); once kept, it is the kept photo the page uses.
 */
export function KeepPhotoToggle({ file, keep, onKept, keptPhotoDays, disabled }: KeepPhotoToggleProps) {
  const t = useT();
  const localize = useLocalizeMessage();
  /** While the server keeps the photo: ticked at once. */
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PhotoError | null>(null);
  const hintId = useId();
  const errorId = useId();
  // Another photo: the box starts unticked, with nothing to say.
  useEffect(() => setError(null), [file]);
  if (!file) return null;

  const keepIt = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await keep(file);
      if (res.ok) onKept(res.photo);
      else setError(res.error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-3 rounded-2xl bg-ink-50 p-3 text-sm" data-testid="keep-photo">
      <label className="flex cursor-pointer items-start gap-2.5 font-semibold text-ink-900">
        <input
          type="checkbox"
          checked={busy}
          disabled={disabled || busy}
          onChange={(e) => {
            if (e.target.checked) void keepIt();
          }}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          className="mt-0.5 size-5 shrink-0 accent-brand-600"
          data-testid="keep-photo-checkbox"
        />
        <span>{t('photos.keep.label')}</span>
      </label>
      <p id={hintId} className="mt-1 ps-7.5 text-xs text-ink-500">
        {t('photos.keep.hint', { days: keptPhotoDays })}
      </p>
      <p role="status" className="ps-7.5 text-xs font-medium text-ink-700" data-testid="keep-photo-status">
        {busy ? (
          <span className="mt-1 inline-flex items-center gap-1.5">
            <Spinner className="size-3.5 text-brand-600" />
            {t('photos.keep.busy')}
          </span>
        ) : null}
      </p>
      {error ? (
        <p
          id={errorId}
          role="alert"
          className="mt-2 rounded-xl bg-red-50 p-2.5 text-xs font-medium text-red-800"
          data-testid="keep-photo-error"
        >
          {localize(error.message, error.code)}{' '}
          {error.code === 'PHOTO_LIMIT' ? (
            <Link to="/account#my-photos" className="font-semibold underline underline-offset-2">
              {t('photos.keep.manage')}
            </Link>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
