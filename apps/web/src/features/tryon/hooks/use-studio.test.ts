import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { MESSAGES, WEB_MESSAGES, type PublicConfig, type TryOnResponse } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { useStudio, type StudioDeps } from './use-studio';
import { testUser } from '../../../test/user';

// A picked photo starts its reduction at once; here it is left as it is.
vi.mock('../../../lib/photos/prepare-upload', () => ({ prepareUpload: (file: File) => Promise.resolve(file) }));

const config: PublicConfig = {
  engines: [
    { id: 'local', label: 'Quick preview', kind: 'local' },
    { id: 'hosted-a', label: 'Photo-real', kind: 'hosted' },
  ],
  defaultEngine: 'local',
  billing: { provider: 'demo', environment: null, clientToken: null },
  plans: [],
  freeTrialsLimit: 2,
  supportEmail: 'support@example.com',
  maxUploadBytes: 10 * 1024 * 1024,
};
const exhausted = testUser({ free_trials_used: 2, segment: 'trial_exhausted' });
/** A JPEG by its first bytes (the page checks them); the stubbed decoder says 768 × 1024. */
const photo = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])], name, { type: 'image/jpeg' });
const asIs = (file: File) => Promise.resolve(file);
const noProgress = () => () => undefined;
const classify = () => new Promise<never>(() => undefined);
const done: TryOnResponse = { success: true, imageUrl: '/r.png', usedFreeTrial: false, creditsRemaining: 49 };

function setup(over: Partial<StudioDeps> = {}) {
  const props: StudioDeps = {
    config,
    user: exhausted,
    updateUser: vi.fn(),
    setUser: vi.fn(),
    refreshUser: vi.fn(async () => null),
    onNoCredits: vi.fn(),
    process: vi.fn(async () => done),
    prepare: asIs,
    openProgress: noProgress,
    classify,
    ...over,
  };
  return { props, hook: renderHook((p: StudioDeps) => useStudio(p), { initialProps: props }) };
}

/** Picks both photos and waits until the button is enabled. */
async function pickBoth(result: { current: ReturnType<typeof useStudio> }) {
  act(() => {
    result.current.person.select(photo('p.jpg'));
    result.current.clothing.select(photo('c.jpg'));
  });
  await waitFor(() => expect(result.current.canTry).toBe(true));
}

beforeEach(() => {
  vi.stubGlobal('createImageBitmap', async () => ({ width: 768, height: 1024, close: () => undefined }));
  URL.createObjectURL = () => 'blob:photo';
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useStudio', () => {
  it('a NO_CREDITS refusal is cleared once the user has credits again (after a purchase)', async () => {
    const process = vi.fn(async () => {
      throw new ApiError(MESSAGES.noCredits, 402, 'NO_CREDITS', {});
    });
    const { props, hook } = setup({ process });
    const { result, rerender } = hook;
    await pickBoth(result);

    await act(() => result.current.tryOn());
    expect(result.current.state).toMatchObject({ status: 'error', errorCode: 'NO_CREDITS' });
    expect(props.onNoCredits).toHaveBeenCalledTimes(1);

    // A refresh that brings no credits keeps the refusal.
    rerender({ ...props, user: { ...exhausted } });
    expect(result.current.state.errorCode).toBe('NO_CREDITS');

    rerender({ ...props, user: { ...exhausted, credits: 50, segment: 'subscriber' } });
    expect(result.current.state).toMatchObject({ status: 'idle', errorCode: null });
  });

  it('tries on with the chosen engine, falls back to the default one the server offers, and points to a hosted one', async () => {
    const process = vi.fn(async () => done);
    const { result } = setup({ process, user: { ...exhausted, credits: 5, segment: 'subscriber' } }).hook;
    await pickBoth(result);
    expect(result.current.engineId).toBe('local');
    expect(result.current.hostedEngine).toMatchObject({ label: 'Photo-real', selected: false });

    act(() => result.current.hostedEngine!.onUse());
    expect(result.current.engineId).toBe('hosted-a');
    expect(result.current.hostedEngine?.selected).toBe(true);
    expect(result.current.resultEngine.kind).toBe('hosted');
    await act(() => result.current.tryOn());
    expect(process).toHaveBeenLastCalledWith(expect.objectContaining({ api: 'hosted-a' }));

    // An engine the server does not offer is never asked for.
    act(() => result.current.chooseEngine('gone'));
    expect(result.current.engineId).toBe('local');
    await act(() => result.current.tryOn());
    expect(process).toHaveBeenLastCalledWith(expect.objectContaining({ api: 'local' }));
  });

  it('a press while the session starts says so, then runs by itself once the user is there, once', async () => {
    const process = vi.fn(async () => done);
    const user = { ...exhausted, credits: 5, segment: 'subscriber' as const };
    const { props, hook } = setup({ process, user: null });
    const { result, rerender } = hook;
    await pickBoth(result);

    await act(() => result.current.tryOn());
    expect(result.current.notice).toBe(MESSAGES.userLoading);
    expect(result.current.pressWaiting).toBe(true);
    // A second press while the first waits adds nothing.
    await act(() => result.current.tryOn());
    expect(process).not.toHaveBeenCalled();

    rerender({ ...props, user });
    await waitFor(() => expect(result.current.state.status).toBe('success'));
    expect(process).toHaveBeenCalledTimes(1);
    expect(process).toHaveBeenCalledWith(expect.objectContaining({ userId: user.id }));
    expect(result.current.notice).toBeNull();
    expect(result.current.pressWaiting).toBe(false);
  });

  it('a press while the session starts says why when the session fails, and sends nothing', async () => {
    const process = vi.fn(async () => done);
    const { props, hook } = setup({ process, user: null });
    const { result, rerender } = hook;
    await pickBoth(result);
    await act(() => result.current.tryOn());
    expect(result.current.notice).toBe(MESSAGES.userLoading);

    rerender({ ...props, sessionError: MESSAGES.authFailed });
    await waitFor(() => expect(result.current.notice).toBe(WEB_MESSAGES.sessionFailed));
    expect(result.current.pressWaiting).toBe(false);
    // Pressed again after the failure: the same words at once, still nothing sent.
    await act(() => result.current.tryOn());
    expect(result.current.notice).toBe(WEB_MESSAGES.sessionFailed);
    expect(process).not.toHaveBeenCalled();
  });
});
