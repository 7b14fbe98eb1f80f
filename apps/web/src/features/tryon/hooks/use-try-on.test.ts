import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { applyTryOnResult, useTryOn, type TryOnDeps } from './use-try-on';
import { testUser } from '../../../test/user';

const user = testUser({ credits: 4, free_trials_used: 1 });
const file = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/jpeg' });

function setup(over: Partial<TryOnDeps> = {}) {
  const deps: TryOnDeps = {
    user,
    engine: 'local',
    updateUser: vi.fn(),
    setUser: vi.fn(),
    refreshUser: vi.fn(async () => null),
    onNoCredits: vi.fn(),
    ...over,
  };
  return { deps, hook: renderHook(() => useTryOn(deps)) };
}

let alert: ReturnType<typeof vi.fn>;
beforeEach(() => {
  alert = vi.fn();
  vi.stubGlobal('alert', alert);
  window.alert = alert as unknown as typeof window.alert;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('local counters after a try-on', () => {
  it('a free trial raises free_trials_used by one and leaves credits alone', () => {
    expect(applyTryOnResult(user, { usedFreeTrial: true, creditsRemaining: 99 })).toMatchObject({
      free_trials_used: 2,
      credits: 4,
    });
  });
  it('a paid try-on sets credits to creditsRemaining', () => {
    expect(applyTryOnResult(user, { usedFreeTrial: false, creditsRemaining: 3 })).toMatchObject({
      free_trials_used: 1,
      credits: 3,
    });
  });
  it('a whole outfit counts both of its try-ons: two trials, a trial and a credit, or two credits', () => {
    const fresh = { ...user, free_trials_used: 0 };
    expect(
      applyTryOnResult(fresh, { usedFreeTrial: true, creditsRemaining: 4, tryOnsUsed: 2, freeTrialsUsed: 2 }),
    ).toMatchObject({ free_trials_used: 2, credits: 4 });
    expect(
      applyTryOnResult(user, { usedFreeTrial: true, creditsRemaining: 3, tryOnsUsed: 2, freeTrialsUsed: 1 }),
    ).toMatchObject({ free_trials_used: 2, credits: 3 });
    expect(
      applyTryOnResult(user, { usedFreeTrial: false, creditsRemaining: 2, tryOnsUsed: 2, freeTrialsUsed: 0 }),
    ).toMatchObject({ free_trials_used: 1, credits: 2 });
  });
});

describe('try-on states', () => {
  it('says when a photo is missing or the user is loading (the page’s notice, no alert box), without calling the server', async () => {
    const process = vi.fn();
    const { hook } = setup({ process });
    await act(() => hook.result.current.run(file('p.jpg'), null, 'upper_body'));
    expect(hook.result.current.notice).toBe(WEB_MESSAGES.uploadClothingMissing);
    await act(() => hook.result.current.run(null, file('c.jpg'), 'upper_body'));
    expect(hook.result.current.notice).toBe(WEB_MESSAGES.uploadPersonMissing);
    await act(() => hook.result.current.run(null, null, 'upper_body'));
    expect(hook.result.current.notice).toBe(WEB_MESSAGES.uploadBothMissing);
    expect(hook.result.current.notice?.startsWith(MESSAGES.uploadBothPhotos)).toBe(true);
    expect(hook.result.current.state.status).toBe('idle');
    act(() => hook.result.current.clearNotice());
    expect(hook.result.current.notice).toBeNull();
    const loading = setup({ user: null, process });
    await act(() => loading.hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(loading.hook.result.current.notice).toBe(MESSAGES.userLoading);
    expect(process).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('goes idle → processing → success and sends the form fields', async () => {
    let resolve!: (v: { success: true; imageUrl: string; usedFreeTrial: boolean; creditsRemaining: number }) => void;
    const process = vi.fn(() => new Promise<Parameters<typeof resolve>[0]>((r) => (resolve = r)));
    const { hook, deps } = setup({ process });
    expect(hook.result.current.state.status).toBe('idle');
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'dresses');
    });
    expect(hook.result.current.state).toMatchObject({ status: 'processing', message: MESSAGES.initializing });
    expect(process).toHaveBeenCalledWith(
      expect.objectContaining({ category: 'dresses', userId: 'user-0001', api: 'local' }),
    );
    await act(async () => {
      resolve({ success: true, imageUrl: '/api/results/x.png', usedFreeTrial: true, creditsRemaining: 4 });
      await done;
    });
    expect(hook.result.current.state).toMatchObject({
      status: 'success',
      message: MESSAGES.completed,
      resultUrl: '/api/results/x.png',
    });
    expect(deps.updateUser).toHaveBeenCalledTimes(1);
  });

  it('sends a bottom with Upper Body (a whole outfit), and never with another category', async () => {
    const process = vi.fn(async () => ({
      success: true as const,
      imageUrl: '/api/results/x.png',
      usedFreeTrial: true,
      creditsRemaining: 4,
      tryOnsUsed: 2,
      freeTrialsUsed: 2,
    }));
    const { hook } = setup({ process });
    const bottom = file('b.jpg');
    await act(() => hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body', bottom));
    expect(process).toHaveBeenLastCalledWith(
      expect.objectContaining({ category: 'upper_body', lowerClothing: bottom }),
    );
    await act(() => hook.result.current.run(file('p.jpg'), file('c.jpg'), 'dresses', bottom));
    expect(process).toHaveBeenLastCalledWith(expect.not.objectContaining({ lowerClothing: expect.anything() }));
  });

  it('on NO_CREDITS shows the spec message, takes the server user and opens the paywall', async () => {
    const serverUser = { ...user, credits: 0, free_trials_used: 2, segment: 'trial_exhausted' as const };
    const process = vi.fn(async () => {
      throw new ApiError(MESSAGES.noCredits, 402, 'NO_CREDITS', {
        success: false,
        code: 'NO_CREDITS',
        error: 'x',
        user: serverUser,
      });
    });
    const { hook, deps } = setup({ process });
    await act(() => hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(hook.result.current.state).toMatchObject({
      status: 'error',
      error: MESSAGES.noCredits,
      errorCode: 'NO_CREDITS',
    });
    expect(deps.setUser).toHaveBeenCalledWith(serverUser);
    expect(deps.onNoCredits).toHaveBeenCalledTimes(1);
  });

  it("shows the server's error, else the network error, else 'Unknown error occurred'", async () => {
    const server = setup({
      process: vi.fn(async () => Promise.reject(new ApiError(MESSAGES.personNotFound, 422, 'PERSON_NOT_FOUND', {}))),
    });
    await act(() => server.hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(server.hook.result.current.state.error).toBe(MESSAGES.personNotFound);

    const network = setup({ process: vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) });
    await act(() => network.hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(network.hook.result.current.state.error).toBe('Failed to fetch');

    const unknown = setup({ process: vi.fn(async () => Promise.reject('boom')) });
    await act(() => unknown.hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(unknown.hook.result.current.state.error).toBe(MESSAGES.unknownError);
  });

  it('keeps the engine a GARMENT_WORN refusal offers, and runs the same photos and category on it', async () => {
    const refusal = {
      success: false,
      code: 'GARMENT_WORN',
      error: MESSAGES.garmentWorn,
      alternativeEngine: { id: 'nano-banana', label: 'Nano Banana (Gemini)' },
    };
    const process = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(MESSAGES.garmentWorn, 422, 'GARMENT_WORN', refusal))
      .mockResolvedValueOnce({
        success: true,
        imageUrl: '/api/results/r.png',
        usedFreeTrial: true,
        creditsRemaining: 4,
      });
    const { hook } = setup({ process });
    const person = file('p.jpg');
    const clothing = file('c.jpg');
    await act(() => hook.result.current.run(person, clothing, 'dresses'));
    expect(hook.result.current.state).toMatchObject({
      status: 'error',
      errorCode: 'GARMENT_WORN',
      engine: 'local',
      alternativeEngine: { id: 'nano-banana', label: 'Nano Banana (Gemini)' },
    });

    await act(() => hook.result.current.retryOn('nano-banana'));
    expect(process).toHaveBeenCalledTimes(2);
    expect(process.mock.calls[1]![0]).toMatchObject({ person, clothing, category: 'dresses', api: 'nano-banana' });
    expect(hook.result.current.state).toMatchObject({
      status: 'success',
      engine: 'nano-banana',
      alternativeEngine: null,
    });

    // Another refusal offers nothing.
    const other = setup({
      process: vi.fn(async () => Promise.reject(new ApiError(MESSAGES.personNotFound, 422, 'PERSON_NOT_FOUND', {}))),
    });
    await act(() => other.hook.result.current.run(person, clothing, 'upper_body'));
    expect(other.hook.result.current.state.alternativeEngine).toBeNull();
  });

  it('aborts after the client timeout', async () => {
    const process = vi.fn(
      ({ signal }: { signal: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const { hook } = setup({ process: process as unknown as TryOnDeps['process'], timeoutMs: 20 });
    await act(() => hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: WEB_MESSAGES.requestTimedOut });
  });
});

describe('progress and prepared uploads', () => {
  it('follows the progress stream with the id it posts, shows each stage, and stops listening when the answer comes', async () => {
    let emit!: Parameters<NonNullable<TryOnDeps['openProgress']>>[1];
    const stop = vi.fn();
    const openProgress = vi.fn((_id: string, onEvent: typeof emit) => {
      emit = onEvent;
      return stop;
    });
    let resolve!: (v: { success: true; imageUrl: string; usedFreeTrial: boolean; creditsRemaining: number }) => void;
    const process = vi.fn(() => new Promise<Parameters<typeof resolve>[0]>((r) => (resolve = r)));
    const prepare = vi.fn(async (f: File) => new File([f], `small-${f.name}`, { type: 'image/jpeg' }));
    const { hook } = setup({
      process,
      openProgress,
      prepare,
      makeProgressId: () => '3b241101-e2bb-4255-8caf-4136c566a962',
    });
    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body');
    });
    expect(openProgress).toHaveBeenCalledWith('3b241101-e2bb-4255-8caf-4136c566a962', expect.any(Function));
    await vi.waitFor(() => expect(process).toHaveBeenCalled());
    const sent = (process.mock.calls[0] as unknown as [{ person: File; clothing: File; progressId: string }])[0];
    expect(sent.progressId).toBe('3b241101-e2bb-4255-8caf-4136c566a962');
    expect(sent.person.name).toBe('small-p.jpg');
    expect(sent.clothing.name).toBe('small-c.jpg');

    act(() => emit({ stage: 'fitting', estimateSeconds: { min: 1, max: 5 }, elapsedMs: 300 }));
    expect(hook.result.current.state).toMatchObject({
      status: 'processing',
      message: MESSAGES.initializing,
      stage: 'fitting',
      estimateSeconds: { min: 1, max: 5 },
    });
    act(() => emit({ stage: 'failed', estimateSeconds: { min: 1, max: 5 }, elapsedMs: 400 }));
    expect(hook.result.current.state.stage).toBe('fitting');

    await act(async () => {
      resolve({ success: true, imageUrl: '/api/results/x.png', usedFreeTrial: true, creditsRemaining: 4 });
      await done;
    });
    expect(stop).toHaveBeenCalledTimes(1);
    expect(hook.result.current.state).toMatchObject({ status: 'success', stage: null, engine: 'local' });
    act(() => emit({ stage: 'done', estimateSeconds: { min: 1, max: 5 }, elapsedMs: 500 }));
    expect(hook.result.current.state.status).toBe('success');
  });

  it('works as before when the progress stream cannot open', async () => {
    const process = vi.fn(async () => ({
      success: true as const,
      imageUrl: '/api/results/y.png',
      usedFreeTrial: false,
      creditsRemaining: 3,
    }));
    const { hook } = setup({
      process,
      openProgress: () => {
        throw new Error('no EventSource');
      },
    });
    await act(() => hook.result.current.run(file('p.jpg'), file('c.jpg'), 'upper_body'));
    expect(hook.result.current.state).toMatchObject({ status: 'success', resultUrl: '/api/results/y.png' });
    expect((process.mock.calls[0] as unknown as [{ progressId?: string }])[0].progressId).toBeUndefined();
  });
});
