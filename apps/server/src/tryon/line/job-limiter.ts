/**
 * Bounded in-process concurrency for engine jobs: at most `limit` run at once; the others wait
 * for a slot. Nothing is refused here: how many may wait, and for how long, is the line's to say
 * (`admission.ts`), before anything is charged.
 *
 * Two lanes: a freed slot goes to the oldest waiting priority job (paying customers' plans with
 * priority processing), else to the oldest normal one. Both lanes share the waiting places.
 */
export type JobPriority = 'priority' | 'normal';

interface Waiter {
  start: () => void;
  abort: () => void;
}

export class JobLimiter {
  private running = 0;
  private readonly lanes: Record<JobPriority, Waiter[]> = { priority: [], normal: [] };

  constructor(readonly limit: number) {
    if (limit < 1) throw new Error('limit must be at least 1');
  }

  get active(): number {
    return this.running;
  }
  get queued(): number {
    return this.lanes.priority.length + this.lanes.normal.length;
  }

  /**
   * Runs `job` when a slot is free (priority jobs before normal ones, each lane in order);
   * rejects with `abortError()` if `signal` aborts while waiting.
   */
  async run<T>(
    job: () => Promise<T>,
    signal: AbortSignal,
    abortError: () => Error,
    priority: JobPriority = 'normal',
  ): Promise<T> {
    await this.acquire(signal, abortError, this.lanes[priority]);
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal, abortError: () => Error, lane: Waiter[]): Promise<void> {
    if (signal.aborted) return Promise.reject(abortError());
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry: Waiter = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          this.running++;
          resolve();
        },
        abort: () => reject(abortError()),
      };
      const onAbort = () => {
        const i = lane.indexOf(entry);
        if (i >= 0) lane.splice(i, 1);
        entry.abort();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      lane.push(entry);
    });
  }

  private release(): void {
    this.running--;
    const next = this.lanes.priority.shift() ?? this.lanes.normal.shift();
    if (next) next.start();
  }
}
