/** Busy is a wait: the page shows its place in line, posts again on its own after Retry-After, and can leave. */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { MESSAGES, type TryOnResponse } from '@aidressup/contract';
import { ApiError, loadResponseSchemas } from '../../../lib/api-client';
import { useTryOn, type TryOnDeps } from './use-try-on';
import type { ProcessImageInput } from '../api/process-image';
import type { RerunTryOnInput } from '../api/rerun-tryon';
import { testUser } from '../../../test/user';

const user = testUser({ credits: 0, free_trials_used: 0 });
const file = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/jpeg' });
const TICKET = 'abcdefghijklmnop_TICKET';

function busy(place: number, waitSeconds: number, retryAfterSeconds: number, ticket = TICKET): ApiError {
  const body = {
    success: false,
    code: 'ENGINE_BUSY',
    error: MESSAGES.engineBusy,
    place,
    waitSeconds,
    retryAfterSeconds,
    ticket,
  };
  return new ApiError(MESSAGES.engineBusy, 503, 'ENGINE_BUSY', body);
}

const ok: TryOnResponse = { success: true, imageUrl: '/api/results/r.png', usedFreeTrial: true, creditsRemaining: 0 };

function setup(process: (input: ProcessImageInput) => Promise<TryOnResponse>, over: Partial<TryOnDeps> = {}) {
  const deps: TryOnDeps = {
    user,
    engine: 'local',
    updateUser: vi.fn(),
    setUser: vi.fn(),
    refreshUser: vi.fn(async () => null),
    onNoCredits: vi.fn(),
    process: vi.fn(process),
    ...over,
  };
  return { deps, hook: renderHook(() => useTryOn(deps)) };
}

// The page loads the response schemas before its first render (boot.tsx); so do these tests, so that
// reading a busy answer takes no module load under the fake clock.
beforeAll(async () => {
  await loadResponseSchemas();
});
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('waiting in line', () => {
  it('shows the place and expected wait, posts again after Retry-After with the ticket, then shows the result', async () => {
    const answers: (() => Promise<TryOnResponse>)[] = [
      () => Promise.reject(busy(12, 10, 3)),
      () => Promise.reject(busy(4, 3, 2)),
      () => Promise.resolve(ok),
    ];
    const { deps, hook } = setup(() => answers.shift()!());
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(hook.result.current.state.status).toBe('processing');
    expect(hook.result.current.state.line).toMatchObject({ place: 12, waitSeconds: 10 });
    expect(hook.result.current.state.line?.retryAt).toBeGreaterThan(Date.now());
    expect(deps.process).toHaveBeenCalledTimes(1);
    expect(vi.mocked(deps.process!).mock.calls[0]![0].lineTicket).toBeUndefined();

    // Not before Retry-After.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_900);
    });
    expect(deps.process).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(deps.process).toHaveBeenCalledTimes(2);
    expect(vi.mocked(deps.process!).mock.calls[1]![0].lineTicket).toBe(TICKET);
    expect(hook.result.current.state.line).toMatchObject({ place: 4, waitSeconds: 3 });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
      await done;
    });
    expect(deps.process).toHaveBeenCalledTimes(3);
    expect(hook.result.current.state).toMatchObject({ status: 'success', resultUrl: ok.imageUrl, line: null });
    expect(deps.updateUser).toHaveBeenCalledTimes(1);
  });

  it('a place from the progress stream while the server holds the request; the line ends when the try-on starts', async () => {
    let emit!: Parameters<NonNullable<TryOnDeps['openProgress']>>[1];
    let resolve!: (r: TryOnResponse) => void;
    const { hook } = setup(() => new Promise((r) => (resolve = r)), {
      openProgress: (_id, onEvent) => {
        emit = onEvent;
        return () => undefined;
      },
      makeProgressId: () => '3b241101-e2bb-4255-8caf-4136c566a962',
    });
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    const est = { min: 1, max: 5 };
    act(() => emit({ stage: 'queued', estimateSeconds: est, elapsedMs: 5, place: 7, waitSeconds: 6 }));
    expect(hook.result.current.state.line).toEqual({ place: 7, waitSeconds: 6, retryAt: null });
    act(() => emit({ stage: 'queued', estimateSeconds: est, elapsedMs: 900, place: 2, waitSeconds: 1 }));
    expect(hook.result.current.state.line).toEqual({ place: 2, waitSeconds: 1, retryAt: null });
    // Admitted and charged: no place any more.
    act(() => emit({ stage: 'queued', estimateSeconds: est, elapsedMs: 1500 }));
    expect(hook.result.current.state.line).toBeNull();
    act(() => emit({ stage: 'fitting', estimateSeconds: est, elapsedMs: 1600 }));
    expect(hook.result.current.state).toMatchObject({ status: 'processing', stage: 'fitting', line: null });
    await act(async () => {
      resolve(ok);
      await done;
    });
    expect(hook.result.current.state.status).toBe('success');
  });

  it('leaving the line stops waiting: no further post, back to idle with the "nothing charged" note, no counters changed', async () => {
    const leaveLine = vi.fn(async () => ({ success: true as const, left: true }));
    const { deps, hook } = setup(() => Promise.reject(busy(3, 2, 5)), { leaveLine });
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(hook.result.current.state.line).toMatchObject({ place: 3 });
    await act(async () => {
      hook.result.current.cancel();
      await done;
    });
    expect(hook.result.current.state).toMatchObject({ status: 'idle', cancelled: true, error: null });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(deps.process).toHaveBeenCalledTimes(1);
    expect(deps.updateUser).not.toHaveBeenCalled();
    expect(deps.onNoCredits).not.toHaveBeenCalled();
    // The place the ticket kept is given up on the server too.
    expect(leaveLine).toHaveBeenCalledTimes(1);
    expect(leaveLine).toHaveBeenCalledWith({ ticket: TICKET, api: 'local' });
  });

  it('leaving while the server holds the request aborts the post (which gives its place up as it closes)', async () => {
    let signal!: AbortSignal;
    const leaveLine = vi.fn(async () => ({ success: true as const, left: true }));
    const { hook } = setup(
      (input) =>
        new Promise((_, reject) => {
          signal = input.signal;
          input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
      { leaveLine },
    );
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    await act(async () => {
      hook.result.current.cancel();
      await done;
    });
    expect(signal.aborted).toBe(true);
    expect(hook.result.current.state).toMatchObject({ status: 'idle', cancelled: true });
    // No ticket yet: nothing else to give up.
    expect(leaveLine).not.toHaveBeenCalled();
  });

  it('an ENGINE_BUSY without a place (an older server) is still a wait, after 15 s', async () => {
    const answers: (() => Promise<TryOnResponse>)[] = [
      () =>
        Promise.reject(
          new ApiError(MESSAGES.engineBusy, 503, 'ENGINE_BUSY', {
            success: false,
            code: 'ENGINE_BUSY',
            error: MESSAGES.engineBusy,
          }),
        ),
      () => Promise.resolve(ok),
    ];
    const { deps, hook } = setup(() => answers.shift()!());
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(hook.result.current.state.line).toMatchObject({ place: null, waitSeconds: null });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
      await done;
    });
    expect(deps.process).toHaveBeenCalledTimes(2);
    expect(hook.result.current.state.status).toBe('success');
  });

  it('"Make it photo-real" waits in line like a try-on: it posts again with the ticket after Retry-After', async () => {
    const answers: (() => Promise<TryOnResponse>)[] = [
      () => Promise.reject(busy(2, 30, 4)),
      () => Promise.reject(busy(1, 15, 2)),
      () => Promise.resolve(ok),
    ];
    const rerun = vi.fn((_input: RerunTryOnInput) => answers.shift()!());
    const { hook } = setup(() => Promise.reject(new Error('not a try-on')), { rerun });
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.rerun('preview-1', 'nano-banana');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(hook.result.current.state).toMatchObject({ status: 'processing', line: { place: 2, waitSeconds: 30 } });
    expect(rerun.mock.calls[0]![0]).toMatchObject({ tryonId: 'preview-1', api: 'nano-banana' });
    expect(rerun.mock.calls[0]![0].lineTicket).toBeUndefined();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_000);
    });
    expect(rerun).toHaveBeenCalledTimes(2);
    expect(rerun.mock.calls[1]![0].lineTicket).toBe(TICKET);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000);
      await done;
    });
    expect(rerun).toHaveBeenCalledTimes(3);
    expect(rerun.mock.calls[2]![0].lineTicket).toBe(TICKET);
    expect(hook.result.current.state).toMatchObject({ status: 'success', engine: 'nano-banana', line: null });
  });

  it('"Make it photo-real": leaving the line stops waiting and gives the place up, nothing charged', async () => {
    const rerun = vi.fn((_input: RerunTryOnInput) => Promise.reject(busy(3, 20, 5)));
    const leaveLine = vi.fn(async () => ({ success: true as const, left: true }));
    const { deps, hook } = setup(() => Promise.reject(new Error('not a try-on')), { rerun, leaveLine });
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.rerun('preview-1', 'nano-banana');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(hook.result.current.state.line).toMatchObject({ place: 3 });
    await act(async () => {
      hook.result.current.cancel();
      await done;
    });
    expect(hook.result.current.state).toMatchObject({ status: 'idle', cancelled: true });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(rerun).toHaveBeenCalledTimes(1);
    expect(deps.updateUser).not.toHaveBeenCalled();
    expect(leaveLine).toHaveBeenCalledWith({ ticket: TICKET, api: 'nano-banana' });
  });
});
