import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { MESSAGES, type PublicConfig, type TryOnResponse } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { useStudio, type StudioDeps } from './use-studio';
import { testUser } from '../../../test/user';

// A picked photo starts its reduction at once; here it is left as it is.
vi.mock('../utils/prepare-upload', () => ({ prepareUpload: (file: File) => Promise.resolve(file) }));

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
const bought = { ...exhausted, credits: 50, segment: 'subscriber' as const };
const photo = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])], name, { type: 'image/jpeg' });
const done: TryOnResponse = { success: true, imageUrl: '/r.png', usedFreeTrial: false, creditsRemaining: 49 };
const noCredits = () => new ApiError(MESSAGES.noCredits, 402, 'NO_CREDITS', {});

function setup(over: Partial<StudioDeps> = {}) {
  const props: StudioDeps = {
    config,
    user: exhausted,
    updateUser: vi.fn(),
    setUser: vi.fn(),
    refreshUser: vi.fn(async () => null),
    onNoCredits: vi.fn(),
    process: vi.fn(async () => done),
    prepare: (file: File) => Promise.resolve(file),
    openProgress: () => () => undefined,
    classify: () => new Promise<never>(() => undefined),
    ...over,
  };
  return { props, ...renderHook((p: StudioDeps) => useStudio(p), { initialProps: props }) };
}

async function pickBoth(result: { current: ReturnType<typeof useStudio> }) {
  act(() => {
    result.current.person.select(photo('p.jpg'));
    result.current.clothing.select(photo('c.jpg'));
  });
  await waitFor(() => expect(result.current.canTry).toBe(true));
}

/** Presses Try with AI, is refused for want of credits, and the paywall (a dialog) opens. */
async function refused(over: Partial<StudioDeps> = {}) {
  const process = vi
    .fn<NonNullable<StudioDeps['process']>>()
    .mockRejectedValueOnce(noCredits())
    .mockResolvedValue(done);
  const s = setup({ process, ...over });
  await pickBoth(s.result);
  await act(() => s.result.current.tryOn());
  expect(s.result.current.state.errorCode).toBe('NO_CREDITS');
  expect(s.props.onNoCredits).toHaveBeenCalledTimes(1);
  const paywall = { ...s.props, dialogOpen: true };
  s.rerender(paywall);
  return { ...s, process, paywall };
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

describe('a try-on refused for want of credits, after a purchase', () => {
  it('runs by itself once the purchase is done and the paywall closes: once, with the same photos, category and engine', async () => {
    const { result, rerender, process, paywall } = await refused();
    const first = process.mock.calls[0]![0];
    // The purchase completes while the paywall is open: nothing runs behind it.
    rerender({ ...paywall, user: bought, purchases: 1 });
    expect(process).toHaveBeenCalledTimes(1);

    // "Start creating" closes it: the try-on asked for runs.
    rerender({ ...paywall, user: bought, purchases: 1, dialogOpen: false });
    await waitFor(() => expect(result.current.state.status).toBe('success'));
    expect(process).toHaveBeenCalledTimes(2);
    const again = process.mock.calls[1]![0];
    expect(again.clothing).toBe(first.clothing);
    expect(again.person).toBe(first.person);
    expect([again.category, again.api]).toEqual([first.category, 'local']);

    // Never twice: the paywall opened and closed again, another render, nothing more.
    rerender({ ...paywall, user: { ...bought, credits: 49 }, purchases: 1, dialogOpen: true });
    rerender({ ...paywall, user: { ...bought, credits: 49 }, purchases: 1, dialogOpen: false });
    await act(() => Promise.resolve());
    expect(process).toHaveBeenCalledTimes(2);
  });

  it('runs nothing when the checkout closes without a purchase, nor when credits come another way', async () => {
    const { rerender, process, paywall } = await refused();
    rerender({ ...paywall, dialogOpen: false });
    await act(() => Promise.resolve());
    expect(process).toHaveBeenCalledTimes(1);
    // Credits without a purchase on this page (signing in to an account that has some): nothing runs.
    rerender({ ...paywall, dialogOpen: false, user: bought });
    await act(() => Promise.resolve());
    expect(process).toHaveBeenCalledTimes(1);
  });

  it('runs nothing when the garment changed since the refusal, or the purchase does not cover it', async () => {
    const changed = await refused();
    act(() => changed.result.current.clothing.select(photo('other.jpg')));
    await waitFor(() => expect(changed.result.current.clothing.file?.name).toBe('other.jpg'));
    changed.rerender({ ...changed.paywall, user: bought, purchases: 1, dialogOpen: false });
    await act(() => Promise.resolve());
    expect(changed.process).toHaveBeenCalledTimes(1);
    changed.unmount();

    const short = await refused();
    short.rerender({ ...short.paywall, purchases: 1, dialogOpen: false });
    await act(() => Promise.resolve());
    expect(short.process).toHaveBeenCalledTimes(1);
  });

  it('waits while another dialog is open (signing in to keep the credits), then runs', async () => {
    const { result, rerender, process, paywall } = await refused();
    rerender({ ...paywall, user: bought, purchases: 1, dialogOpen: true });
    await act(() => Promise.resolve());
    expect(process).toHaveBeenCalledTimes(1);
    rerender({ ...paywall, user: bought, purchases: 1, dialogOpen: false });
    await waitFor(() => expect(result.current.state.status).toBe('success'));
    expect(process).toHaveBeenCalledTimes(2);
  });
});

describe('a garment the built-in engine could not place', () => {
  const notPlaced = () => new ApiError(MESSAGES.garmentNotPlaced, 422, 'GARMENT_NOT_PLACED', {});

  it('offers the hosted engine that is up, which runs the same try-on on it', async () => {
    const process = vi
      .fn<NonNullable<StudioDeps['process']>>()
      .mockRejectedValueOnce(notPlaced())
      .mockResolvedValue(done);
    const { result } = setup({ process, user: bought });
    await pickBoth(result);
    await act(() => result.current.tryOn());
    expect(result.current.state.errorCode).toBe('GARMENT_NOT_PLACED');
    expect(result.current.alternativeEngine).toMatchObject({ label: 'Photo-real', reason: 'notPlaced' });
    await act(async () => result.current.alternativeEngine!.onRun());
    await waitFor(() => expect(result.current.state.status).toBe('success'));
    const [first, again] = process.mock.calls.map((c) => c[0]);
    expect(again!.api).toBe('hosted-a');
    expect([again!.person, again!.clothing, again!.category]).toEqual([
      first!.person,
      first!.clothing,
      first!.category,
    ]);
    expect(result.current.engineId).toBe('hosted-a');
  });

  it('offers nothing when no hosted engine is configured, or it is down', async () => {
    for (const engines of [
      [{ id: 'local', label: 'Quick preview', kind: 'local' as const }],
      [
        { id: 'local', label: 'Quick preview', kind: 'local' as const },
        { id: 'hosted-a', label: 'Photo-real', kind: 'hosted' as const, status: 'down' as const },
      ],
    ]) {
      const process = vi.fn(async (): Promise<TryOnResponse> => {
        throw notPlaced();
      });
      const { result, unmount } = setup({ process, user: bought, config: { ...config, engines } });
      await pickBoth(result);
      await act(() => result.current.tryOn());
      expect(result.current.state.errorCode).toBe('GARMENT_NOT_PLACED');
      expect(result.current.alternativeEngine).toBeUndefined();
      unmount();
    }
  });
});
