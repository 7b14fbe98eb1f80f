/**
 * The one timeout helper of the try-on pipeline (services and queue): a piece of work races a
 * limit, either a number of milliseconds or an AbortSignal (a try-on's deadline). Work that ignores
 * the limit still loses the race; its eventual result is dropped.
 */

/**
 * Resolves or rejects as `work` does, unless the limit comes first: then rejects with `onTimeout()`.
 * A limit of zero or less, or an aborted signal, rejects at once.
 */
export function withTimeout<T>(work: Promise<T>, limit: number | AbortSignal, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const signal = typeof limit === 'number' ? undefined : limit;
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', expire);
    };
    function expire() {
      cleanup();
      reject(onTimeout());
    }
    if (signal) {
      if (signal.aborted) queueMicrotask(expire);
      else signal.addEventListener('abort', expire, { once: true });
    } else {
      timer = setTimeout(expire, Math.max(0, limit as number));
    }
    work.then(
      (v) => {
        cleanup();
        resolve(v);
      },
      (e: unknown) => {
        cleanup();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** `work`'s value, or `fallback` when it fails or takes longer than `ms`. */
export function valueWithin<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  return withTimeout<T | F>(work, ms, () => new Error('timed out')).catch(() => fallback);
}
