/**
 * The file actually uploaded for a picked photo: reduced in the browser (see reduce-plan.ts), in a
 * worker where the browser allows it, else on the main thread; the original on any failure.
 * Loaded lazily (not part of the first page's script); results are remembered per File.
 */
import { domCanvasKit, reduceImage } from './reduce-core';
import { reducedFileName } from './reduce-plan';

/** Past this, the original goes up rather than keeping the shopper waiting. */
const REDUCE_TIMEOUT_MS = 15_000;

const cache = new WeakMap<File, Promise<File>>();
/** Photos over the upload limit, shrunk (see `shrinkForUpload`). */
const shrunk = new WeakMap<File, Promise<File | null>>();
let nextId = 1;

type WorkerAnswer = { id: number; blob?: Blob | null; unsupported?: true; error?: string };

function inWorker(file: File, mustShrink: boolean): Promise<Blob | null> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./reduce-image.worker.ts', import.meta.url), { type: 'module' });
    } catch (err) {
      reject(err instanceof Error ? err : new Error('no worker'));
      return;
    }
    const id = nextId++;
    const done = () => worker.terminate();
    worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      if (e.data.id !== id) return;
      done();
      if (e.data.unsupported || e.data.error) reject(new Error(e.data.error ?? 'unsupported'));
      else resolve(e.data.blob ?? null);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      done();
      reject(new Error('worker failed'));
    };
    worker.postMessage({ id, file, mustShrink });
  });
}

async function reduce(file: File, mustShrink = false): Promise<Blob | null> {
  if (typeof createImageBitmap !== 'function') return null;
  if (typeof Worker === 'function' && typeof OffscreenCanvas === 'function') {
    try {
      return await inWorker(file, mustShrink);
    } catch {
      // fall through to the main thread
    }
  }
  return reduceImage(file, domCanvasKit, mustShrink);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Never rejects: the reduced photo, or the original. */
export function prepareUpload(file: File): Promise<File> {
  const known = cache.get(file);
  if (known) return known;
  const p = withTimeout(reduce(file), REDUCE_TIMEOUT_MS)
    .then((blob) =>
      blob
        ? new File([blob], reducedFileName(file.name, blob.type), { type: blob.type, lastModified: file.lastModified })
        : file,
    )
    .catch((err: unknown) => {
      console.warn('Photo reduction failed; uploading the original', err);
      return file;
    });
  cache.set(file, p);
  return p;
}

/** Past this, a photo over the limit that is still being shrunk is given up on. */
const SHRINK_TIMEOUT_MS = 30_000;

/**
 * A photo the original of which cannot be sent (over the upload limit in bytes or pixels), shrunk
 * in the browser: EXIF orientation applied, longest side at most 2048 px, re-encoded (JPEG unless
 * transparent). Null when the browser cannot shrink it; the caller checks the result's size
 * against the limit again. Never rejects.
 */
export function shrinkForUpload(file: File): Promise<File | null> {
  const known = shrunk.get(file);
  if (known) return known;
  const p = withTimeout(reduce(file, true), SHRINK_TIMEOUT_MS)
    .then((blob) =>
      blob
        ? new File([blob], reducedFileName(file.name, blob.type), { type: blob.type, lastModified: file.lastModified })
        : null,
    )
    .catch((err: unknown) => {
      console.warn('Could not shrink the photo', err);
      return null;
    });
  shrunk.set(file, p);
  return p;
}
