import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { checkPhoto, measureImage, shrinkLazily } from '../../../lib/photos/check-photo';

/** A garment photo added to the first one, for a press of several try-ons. */
export interface MoreGarment {
  key: number;
  file: File;
  previewUrl: string;
}

/**
 * The garment photos beyond the clothing card's first one (a press of several try-ons), each
 * through the same checks as any photo picked; at most `max` of them. Not kept over a reload.
 */
export function useMoreGarments(maxBytes: number, max: number) {
  const [items, setItems] = useState<MoreGarment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(0);
  const nextKey = useRef(1);
  const urls = useRef(new Set<string>());

  useEffect(() => {
    const held = urls.current;
    return () => {
      for (const url of held) URL.revokeObjectURL(url);
      held.clear();
    };
  }, []);

  /** Adds garment photos, checked one after the other so that they keep the order they were picked in. */
  const add = useCallback(
    (picked: File | readonly File[] | null | undefined) => {
      const files = picked ? (Array.isArray(picked) ? [...picked] : [picked as File]) : [];
      if (files.length === 0) return;
      setChecking((n) => n + 1);
      void (async () => {
        for (const file of files) {
          try {
            const checked = await checkPhoto(file, 'garment', maxBytes, {
              measure: measureImage,
              shrink: shrinkLazily,
            });
            if (!checked.ok) {
              setError(checked.message);
              continue;
            }
            const previewUrl = URL.createObjectURL(checked.file);
            urls.current.add(previewUrl);
            setError(null);
            // Ready for upload by the time Try with AI is pressed.
            void import('../../../lib/photos/prepare-upload')
              .then((m) => m.prepareUpload(checked.file))
              .catch(() => undefined);
            setItems((list) => {
              if (list.length >= max) {
                URL.revokeObjectURL(previewUrl);
                urls.current.delete(previewUrl);
                return list;
              }
              return [...list, { key: nextKey.current++, file: checked.file, previewUrl }];
            });
          } catch (e) {
            console.warn('Photo check failed', e);
            setError(MESSAGES.uploadFailed);
          }
        }
      })().finally(() => setChecking((n) => n - 1));
    },
    [maxBytes, max],
  );

  const remove = useCallback((key: number) => {
    setItems((list) => {
      const gone = list.find((g) => g.key === key);
      if (gone) {
        URL.revokeObjectURL(gone.previewUrl);
        urls.current.delete(gone.previewUrl);
      }
      return list.filter((g) => g.key !== key);
    });
  }, []);

  const clear = useCallback(() => {
    setItems((list) => {
      for (const g of list) {
        URL.revokeObjectURL(g.previewUrl);
        urls.current.delete(g.previewUrl);
      }
      return [];
    });
    setError(null);
  }, []);

  return { items, error, checking: checking > 0, add, remove, clear, full: items.length >= max };
}
