import { describe, expect, it, vi } from 'vitest';
import { JobLimiter } from './job-limiter.js';

/**
 * Lets the jobs that hold `release` functions finish one by one, oldest first: each time, waits
 * until a started job is holding (the limiter has handed a slot on), then releases it.
 */
async function releaseInTurn(release: (() => void)[], jobs: number): Promise<void> {
  for (let i = 0; i < jobs; i++) {
    await vi.waitFor(() => expect(release.length).toBeGreaterThan(0));
    release.shift()!();
  }
}

describe('engine job limiter', () => {
  it('runs at most `limit` jobs at once, the rest in order', async () => {
    const limiter = new JobLimiter(2);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const jobs = Array.from({ length: 5 }, (_, i) =>
      limiter.run(
        async () => {
          started.push(i);
          active++;
          peak = Math.max(peak, active);
          await new Promise<void>((r) => release.push(r));
          active--;
          return i;
        },
        new AbortController().signal,
        () => new Error('aborted'),
      ),
    );
    await vi.waitFor(() => expect(started).toEqual([0, 1]));
    expect([limiter.active, limiter.queued]).toEqual([2, 3]);
    await releaseInTurn(release, 5);
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('drops a waiting job whose deadline passes, without running it', async () => {
    const limiter = new JobLimiter(1);
    let finishFirst!: () => void;
    const first = limiter.run(
      () => new Promise<void>((r) => (finishFirst = r)),
      new AbortController().signal,
      () => new Error('x'),
    );
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(
      async () => {
        ran = true;
      },
      controller.signal,
      () => new Error('deadline passed while waiting'),
    );
    await vi.waitFor(() => expect([limiter.active, limiter.queued]).toEqual([1, 1]));
    controller.abort();
    await expect(second).rejects.toThrow('deadline passed while waiting');
    expect(limiter.queued).toBe(0);
    finishFirst();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it('starts waiting priority jobs before normal ones, each lane in order', async () => {
    const limiter = new JobLimiter(1);
    const started: string[] = [];
    const release: (() => void)[] = [];
    const job = (name: string, lane: 'priority' | 'normal') =>
      limiter.run(
        async () => {
          started.push(name);
          await new Promise<void>((r) => release.push(r));
        },
        new AbortController().signal,
        () => new Error('aborted'),
        lane,
      );
    const all = [
      job('n1', 'normal'),
      job('n2', 'normal'),
      job('p1', 'priority'),
      job('n3', 'normal'),
      job('p2', 'priority'),
    ];
    await vi.waitFor(() => expect(started).toEqual(['n1']));
    expect(limiter.queued).toBe(4);
    await releaseInTurn(release, 5);
    await Promise.all(all);
    expect(started).toEqual(['n1', 'p1', 'p2', 'n2', 'n3']);
  });

  it('drops an aborted priority job from its lane; the normal job still runs', async () => {
    const limiter = new JobLimiter(1);
    let finish!: () => void;
    const first = limiter.run(
      () => new Promise<void>((r) => (finish = r)),
      new AbortController().signal,
      () => new Error('x'),
    );
    const controller = new AbortController();
    let ran = false;
    const prio = limiter.run(
      async () => {
        ran = true;
      },
      controller.signal,
      () => new Error('deadline'),
      'priority',
    );
    const normal = limiter.run(
      async () => 'normal ran',
      new AbortController().signal,
      () => new Error('x'),
    );
    controller.abort();
    await expect(prio).rejects.toThrow('deadline');
    expect(limiter.queued).toBe(1);
    finish();
    await first;
    expect(await normal).toBe('normal ran');
    expect(ran).toBe(false);
  });
});
