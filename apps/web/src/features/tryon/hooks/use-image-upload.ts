import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { keepPhoto, keptPhoto } from '../../../lib/photo-store';
import { checkPhoto, measureImage, shrinkLazily, type PhotoRole } from '../../../lib/photos/check-photo';

export interface ImageUpload {
  file: File | null;
  previewUrl: string | null;
  error: string | null;
  /** A photo over the upload limit is being shrunk in the browser. */
  shrinking: boolean;
  /** Counts the photos the shopper picked here (not those restored after a reload). */
  picks: number;
  select: (file: File | null | undefined) => void;
  remove: () => void;
}

export interface ImageUploadOptions {
  /** What the photo is for: its minimum size. */
  role: PhotoRole;
  /** Keep the photo in this browser under this name so a reload (Try Again) restores it. */
  keepAs?: string;
}

/** One upload card's photo: the checks before upload, preview, replace and remove, kept over a reload. */
export function useImageUpload(maxBytes: number, { role, keepAs }: ImageUploadOptions): ImageUpload {
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shrinking, setShrinking] = useState(false);
  const [picks, setPicks] = useState(0);
  const urlRef = useRef<string | null>(null);
  const seq = useRef(0);

  const revoke = () => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
  };

  useEffect(() => () => revoke(), []);

  const accept = useCallback(
    (picked: File, { restored }: { restored: boolean }) => {
      const mine = ++seq.current;
      const current = () => mine === seq.current;
      void checkPhoto(picked, role, maxBytes, {
        measure: measureImage,
        shrink: shrinkLazily,
        onShrinking: () => {
          if (current()) setShrinking(true);
        },
      })
        .then((checked) => {
          if (!current()) return;
          setShrinking(false);
          if (!checked.ok) {
            if (restored) void keepPhoto(keepAs ?? '', null);
            else setError(checked.message);
            return;
          }
          let url: string;
          try {
            url = URL.createObjectURL(checked.file);
          } catch {
            setError(MESSAGES.uploadFailed);
            return;
          }
          revoke();
          urlRef.current = url;
          // Start reducing the photo for upload now, so it is ready when Try with AI is pressed.
          void import('../../../lib/photos/prepare-upload')
            .then((m) => m.prepareUpload(checked.file))
            .catch(() => undefined);
          setFile(checked.file);
          setPreviewUrl(url);
          setError(null);
          if (!restored) setPicks((n) => n + 1);
          if (keepAs && !restored) void keepPhoto(keepAs, checked.file);
        })
        .catch((e: unknown) => {
          console.warn('Photo check failed', e);
          if (!current()) return;
          setShrinking(false);
          if (!restored) setError(MESSAGES.uploadFailed);
        });
    },
    [maxBytes, role, keepAs],
  );

  const select = useCallback(
    (picked: File | null | undefined) => {
      if (picked) accept(picked, { restored: false });
    },
    [accept],
  );

  // After a reload (Try Again), the photo picked before it, when this browser session kept one.
  useEffect(() => {
    if (!keepAs) return;
    const before = seq.current;
    void keptPhoto(keepAs).then((kept) => {
      // The shopper picked or removed a photo meanwhile: theirs wins.
      if (kept && seq.current === before) accept(kept, { restored: true });
    });
    // Once, on mount: `accept` changes with the limit, which must not restore again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keepAs]);

  const remove = useCallback(() => {
    seq.current++;
    revoke();
    setFile(null);
    setPreviewUrl(null);
    setError(null);
    setShrinking(false);
    if (keepAs) void keepPhoto(keepAs, null);
  }, [keepAs]);

  return { file, previewUrl, error, shrinking, picks, select, remove };
}
