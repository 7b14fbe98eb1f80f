/**
 * The shopper's picked photos, kept in this browser (IndexedDB) so a reload — the result's Try Again
 * reloads the page, as the specification asks — does not lose them. Kept for this browser session
 * only (a tab's sessionStorage marks it), for at most the uploads' retention window (30 minutes, as
 * the legal pages say), and cleared on sign-out and account deletion. Never sent anywhere.
 * Every function fails soft: without IndexedDB (private modes) nothing is kept.
 */
import { UPLOAD_RETENTION_MINUTES } from '@aidressup/contract';

const DB_NAME = 'aidressup-photos';
const STORE = 'photos';
/** Set in sessionStorage while this browser session has kept photos. */
const SESSION_MARK = 'aidressup.photos.session';
const PHOTO_RETENTION_MS = UPLOAD_RETENTION_MINUTES * 60_000;

interface StoredPhoto {
  slot: string;
  blob: Blob;
  name: string;
  type: string;
  savedAt: number;
}

let opening: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    try {
      if (typeof indexedDB === 'undefined') return resolve(null);
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'slot' });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | null> {
  return open().then(
    (db) =>
      new Promise<T | null>((resolve) => {
        if (!db) return resolve(null);
        try {
          const req = work(db.transaction(STORE, mode).objectStore(STORE));
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => resolve(null);
        } catch {
          resolve(null);
        }
      }),
  );
}

function sessionMarked(): boolean {
  try {
    return window.sessionStorage.getItem(SESSION_MARK) === '1';
  } catch {
    return false;
  }
}

function markSession(on: boolean): void {
  try {
    if (on) window.sessionStorage.setItem(SESSION_MARK, '1');
    else window.sessionStorage.removeItem(SESSION_MARK);
  } catch {
    // no sessionStorage: photos are not restored in a later page load
  }
}

/** Keeps the photo of one slot (`person`, `clothing`, `bottom`); null forgets it. */
export async function keepPhoto(slot: string, file: File | null, now = Date.now()): Promise<void> {
  if (!file) {
    await run('readwrite', (s) => s.delete(slot));
    return;
  }
  markSession(true);
  const photo: StoredPhoto = { slot, blob: file, name: file.name, type: file.type, savedAt: now };
  await run('readwrite', (s) => s.put(photo));
}

/**
 * The photo kept for a slot in this browser session and within the retention window, else null.
 * A new session (no mark) or an expired photo clears what is kept.
 */
export async function keptPhoto(slot: string, now = Date.now()): Promise<File | null> {
  if (!sessionMarked()) {
    await forgetPhotos();
    return null;
  }
  const photo = (await run('readonly', (s) => s.get(slot) as IDBRequest<StoredPhoto | undefined>)) ?? null;
  if (!photo) return null;
  if (now - photo.savedAt > PHOTO_RETENTION_MS || now < photo.savedAt) {
    await forgetPhotos();
    return null;
  }
  return new File([photo.blob], photo.name, { type: photo.type, lastModified: photo.savedAt });
}

/** Forgets every kept photo (sign-out, account deletion, a new session, the window passed). */
export async function forgetPhotos(): Promise<void> {
  markSession(false);
  await run('readwrite', (s) => s.clear());
}
