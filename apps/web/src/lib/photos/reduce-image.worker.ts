/**
 * Reduces a photo off the main thread (OffscreenCanvas + convertToBlob).
 * In: { id, file, mustShrink? }. Out: { id, blob } (null: upload the original), { id, unsupported: true } or { id, error }.
 */
import { offscreenKit, reduceImage } from './reduce-core';

interface WorkerScope {
  onmessage: ((e: MessageEvent<{ id: number; file: File; mustShrink?: boolean }>) => void) | null;
  postMessage: (message: unknown) => void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const { id, file, mustShrink } = e.data;
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap !== 'function') {
    scope.postMessage({ id, unsupported: true });
    return;
  }
  reduceImage(file, offscreenKit, mustShrink === true).then(
    (blob) => scope.postMessage({ id, blob }),
    (err: unknown) => scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
};
