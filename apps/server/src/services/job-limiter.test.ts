import { describe, expect, it } from 'vitest';
import { JobLimiter } from './job-limiter.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

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
    await tick();
    expect([limiter.active, limiter.queued, started]).toEqual([2, 3, [0, 1]]);
    while (release.length > 0 || limiter.active > 0) {
      release.shift()?.();
      await tick();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('drops a waiting job whose deadline passes, without running it', async () => {
    const limiter = new JobLimiter(1);
    let finishFirst!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (finishFirst = r)), new AbortController().signal, () => new Error('x'));
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(
      async () => {
        ran = true;
      },
      controller.signal,
      () => new Error('deadline passed while waiting'),
    );
    await tick();
    controller.abort();
    await expect(second).rejects.toThrow('deadline passed while waiting');
    expect(limiter.queued).toBe(0);
    finishFirst();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active).toBe(0);
  });

  it('refuses at once past `maxWaiting` waiting jobs, and takes jobs again once there is room', async () => {
    const limiter = new JobLimiter(1, 1, () => new Error('busy'));
    const ctrl = new AbortController();
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)), ctrl.signal, () => new Error('aborted'));
    const second = limiter.run(async () => 'second', ctrl.signal, () => new Error('aborted'));
    expect(limiter.saturated).toBe(true);
    await expect(limiter.run(async () => 'third', ctrl.signal, () => new Error('aborted'))).rejects.toThrow('busy');
    release();
    await first;
    expect(await second).toBe('second');
    expect(limiter.saturated).toBe(false);
    expect(await limiter.run(async () => 'fourth', ctrl.signal, () => new Error('aborted'))).toBe('fourth');
  });
});
