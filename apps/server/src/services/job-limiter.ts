/** Bounded in-process concurrency for engine jobs: at most `limit` run at once, the rest wait in order. */
export class JobLimiter {
  private running = 0;
  private readonly waiting: { start: () => void; abort: () => void }[] = [];

  constructor(readonly limit: number) {
    if (limit < 1) throw new Error('limit must be at least 1');
  }

  get active(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `job` when a slot is free; rejects with `abortError()` if `signal` aborts while waiting. */
  async run<T>(job: () => Promise<T>, signal: AbortSignal, abortError: () => Error): Promise<T> {
    await this.acquire(signal, abortError);
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal, abortError: () => Error): Promise<void> {
    if (signal.aborted) return Promise.reject(abortError());
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          this.running++;
          resolve();
        },
        abort: () => reject(abortError()),
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        entry.abort();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(): void {
    this.running--;
    const next = this.waiting.shift();
    if (next) next.start();
  }
}
