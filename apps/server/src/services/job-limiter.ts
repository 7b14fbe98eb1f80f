/**
 * Bounded in-process concurrency for engine jobs: at most `limit` run at once, at most
 * `maxWaiting` wait in order; past that a job is refused at once with `busyError()`.
 */
export class JobLimiter {
  private running = 0;
  private readonly waiting: { start: () => void; abort: () => void }[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting = Infinity,
    private readonly busyError: () => Error = () => new Error('too many jobs waiting'),
  ) {
    if (limit < 1) throw new Error('limit must be at least 1');
    if (maxWaiting < 0) throw new Error('maxWaiting must not be negative');
  }

  /** True when a new job would be refused (every slot busy and every waiting place taken). */
  get saturated(): boolean {
    return this.running >= this.limit && this.waiting.length >= this.maxWaiting;
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
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(this.busyError());
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
