import { useCallback, useEffect, useRef, useState } from 'react';
import { WEB_MESSAGES, type KeptPhoto } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { deletePhoto } from '../api/delete-photo';
import { keepPhoto } from '../api/keep-photo';
import { listPhotos } from '../api/list-photos';

/** A refusal as the page shows it: the server's English words and code (translated where shown). */
export interface PhotoError {
  message: string;
  code: string | null;
}

export type KeepOutcome = { ok: true; photo: KeptPhoto } | { ok: false; error: PhotoError };

function errorOf(e: unknown, fallback: string): PhotoError {
  return e instanceof ApiError ? { message: e.message, code: e.code ?? null } : { message: fallback, code: null };
}

export interface MyPhotosApi {
  list: typeof listPhotos;
  keep: typeof keepPhoto;
  remove: typeof deletePhoto;
}

const REAL: MyPhotosApi = { list: listPhotos, keep: keepPhoto, remove: deletePhoto };

/**
 * The session user's kept person photos ("My photos"): loaded for the session (`sessionKey`, null
 * while none is ready, reloads them when it changes: a sign-in brings the account's photos from
 * every device), keeping a new one and deleting one.
 */
export function useMyPhotos(sessionKey: string | null, api: MyPhotosApi = REAL) {
  const [photos, setPhotos] = useState<KeptPhoto[] | null>(null);
  const [error, setError] = useState<PhotoError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const apiRef = useRef(api);
  apiRef.current = api;

  useEffect(() => {
    if (!sessionKey) {
      setPhotos(null);
      return;
    }
    const ctrl = new AbortController();
    setError(null);
    apiRef.current
      .list(ctrl.signal)
      .then(setPhotos)
      .catch((e: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Could not load the kept photos', e);
        setError(errorOf(e, WEB_MESSAGES.photosFailed));
      });
    return () => ctrl.abort();
  }, [sessionKey, attempt]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);

  const keep = useCallback(async (file: File): Promise<KeepOutcome> => {
    try {
      const photo = await apiRef.current.keep(file);
      // The newest is the most recently used: first.
      setPhotos((list) => [photo, ...(list ?? []).filter((p) => p.id !== photo.id)]);
      return { ok: true, photo };
    } catch (e) {
      console.warn('Could not keep the photo', e);
      return { ok: false, error: errorOf(e, WEB_MESSAGES.keepPhotoFailed) };
    }
  }, []);

  const remove = useCallback(async (id: string): Promise<PhotoError | null> => {
    try {
      await apiRef.current.remove(id);
    } catch (e) {
      // Already gone (another device deleted it): it goes from the list all the same.
      if (!(e instanceof ApiError && e.code === 'NOT_FOUND')) {
        console.warn('Could not delete the kept photo', e);
        return errorOf(e, WEB_MESSAGES.deletePhotoFailed);
      }
    }
    setPhotos((list) => (list ?? []).filter((p) => p.id !== id));
    return null;
  }, []);

  /** A photo the server no longer has (a try-on answered 404 for it): it goes from the list. */
  const forget = useCallback((id: string) => setPhotos((list) => (list ? list.filter((p) => p.id !== id) : list)), []);

  /** `photos` is null while loading (or without a session). */
  return { photos, error, retry, keep, remove, forget };
}
