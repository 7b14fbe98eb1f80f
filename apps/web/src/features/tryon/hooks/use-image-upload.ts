import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '@aidressup/contract';
import { validateImageFile } from '../utils/validate-image';

export interface ImageUpload {
  file: File | null;
  previewUrl: string | null;
  error: string | null;
  select: (file: File | null | undefined) => void;
  remove: () => void;
}

/** True when the browser can decode the file as an image. */
async function decodes(file: File, url: string): Promise<boolean> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      bitmap.close();
      return true;
    } catch {
      return false;
    }
  }
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(true);
    img.onerror = () => resolve(false);
    img.src = url;
  });
}

/** One upload card's photo: validation, preview, replace and remove. */
export function useImageUpload(maxBytes: number): ImageUpload {
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const urlRef = useRef<string | null>(null);
  const seq = useRef(0);

  const revoke = () => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
  };

  useEffect(() => () => revoke(), []);

  const select = useCallback(
    (picked: File | null | undefined) => {
      if (!picked) return;
      const problem = validateImageFile(picked, maxBytes);
      if (problem) {
        setError(problem);
        return;
      }
      const mine = ++seq.current;
      let url: string;
      try {
        url = URL.createObjectURL(picked);
      } catch {
        setError(MESSAGES.uploadFailed);
        return;
      }
      void decodes(picked, url).then((ok) => {
        if (mine !== seq.current) {
          URL.revokeObjectURL(url);
          return;
        }
        if (!ok) {
          URL.revokeObjectURL(url);
          setError(MESSAGES.uploadFailed);
          return;
        }
        revoke();
        urlRef.current = url;
        // Start reducing the photo for upload now, so it is ready when Try with AI is pressed.
        void import('../utils/prepare-upload').then((m) => m.prepareUpload(picked)).catch(() => undefined);
        setFile(picked);
        setPreviewUrl(url);
        setError(null);
      });
    },
    [maxBytes],
  );

  const remove = useCallback(() => {
    seq.current++;
    revoke();
    setFile(null);
    setPreviewUrl(null);
    setError(null);
  }, []);

  return { file, previewUrl, error, select, remove };
}
