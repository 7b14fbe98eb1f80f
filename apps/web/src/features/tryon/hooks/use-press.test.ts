/**
 * Several garments in one press (useStudio with usePress): each its own post, with the kept photo
 * when one is chosen; the cost said first; the paywall instead of the press when the balance is
 * short, with nothing posted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { MESSAGES, WEB_MESSAGES, type PublicConfig, type TryOnResponse } from '@aidressup/contract';
import { ApiError } from '../../../lib/api-client';
import { useStudio, type StudioDeps } from './use-studio';
import type { ProcessImageInput } from '../api/process-image';
import { testUser } from '../../../test/user';

vi.mock('../../../lib/photos/prepare-upload', () => ({ prepareUpload: (file: File) => Promise.resolve(file) }));

const config: PublicConfig = {
  engines: [{ id: 'local', label: 'Quick preview', kind: 'local' }],
  defaultEngine: 'local',
  billing: { provider: 'demo', environment: null, clientToken: null },
  plans: [],
  freeTrialsLimit: 2,
  supportEmail: 'support@example.com',
  maxUploadBytes: 10 * 1024 * 1024,
};
const photo = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])], name, { type: 'image/jpeg' });
const kept = {
  id: 'kept-1',
  createdAt: '2026-05-01T10:00:00.000Z',
  lastUsedAt: '2026-05-01T10:00:00.000Z',
  thumbnailUrl: '/api/photos/kept-1/thumbnail',
};

function setup(over: Partial<StudioDeps> = {}) {
  let n = 0;
  const process = vi.fn(async (input: ProcessImageInput): Promise<TryOnResponse> => {
    n += 1;
    if (input.clothing.name === 'refused.jpg') throw new ApiError(MESSAGES.garmentWorn, 422, 'GARMENT_WORN', {});
    return { success: true, imageUrl: `/r${n}.png`, usedFreeTrial: false, creditsRemaining: 10 - n, tryonId: `t${n}` };
  });
  const props: StudioDeps = {
    config,
    user: testUser({ free_trials_used: 1, credits: 3, segment: 'customer' }),
    updateUser: vi.fn(),
    setUser: vi.fn(),
    refreshUser: vi.fn(async () => null),
    onNoCredits: vi.fn(),
    process,
    prepare: (f) => Promise.resolve(f),
    openProgress: () => () => undefined,
    classify: () => new Promise<never>(() => undefined),
    ...over,
  };
  return { props, process, ...renderHook((p: StudioDeps) => useStudio(p), { initialProps: props }) };
}

async function pickGarments(result: { current: ReturnType<typeof useStudio> }, names: string[]) {
  act(() => result.current.clothing.select(photo(names[0]!)));
  await waitFor(() => expect(result.current.clothing.file).not.toBeNull());
  for (const name of names.slice(1)) act(() => result.current.more.add(photo(name)));
  await waitFor(() => expect(result.current.garmentCount).toBe(names.length));
}

beforeEach(() => {
  vi.stubGlobal('createImageBitmap', async () => ({ width: 768, height: 1024, close: () => undefined }));
  URL.createObjectURL = () => 'blob:photo';
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  window.sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a press of several garments', () => {
  it('posts each garment as its own try-on with the kept photo, and keeps each result or refusal apart', async () => {
    const { result, process, props } = setup();
    act(() => result.current.chooseKeptPhoto(kept));
    await pickGarments(result, ['a.jpg', 'b.jpg', 'refused.jpg', 'd.jpg']);
    // One free trial and three credits: covered, and said so before the press.
    expect(result.current.pressCost).toEqual({ trials: 1, credits: 3, covered: true });
    expect(result.current.outfitOffered).toBe(false);

    await act(() => result.current.tryOn());
    expect(process).toHaveBeenCalledTimes(4);
    for (const [input] of process.mock.calls) {
      expect(input.person).toBeUndefined();
      expect(input.personPhotoId).toBe('kept-1');
    }
    expect(process.mock.calls.map(([i]) => i.clothing.name).sort()).toEqual(['a.jpg', 'b.jpg', 'd.jpg', 'refused.jpg']);
    const states = result.current.press.items.map((i) => i.state);
    expect(states.map((s) => s.status)).toEqual(['success', 'success', 'error', 'success']);
    expect(states[2]).toMatchObject({ errorCode: 'GARMENT_WORN', error: MESSAGES.garmentWorn });
    expect(new Set(states.filter((s) => s.tryonId).map((s) => s.tryonId)).size).toBe(3);
    // The single result's panel stays idle: the row shows the press.
    expect(result.current.state.status).toBe('idle');
    expect(result.current.step).toBe(4);
    expect(props.onNoCredits).not.toHaveBeenCalled();
  });

  it('opens the paywall instead of pressing when the balance does not cover every garment: nothing is posted', async () => {
    const { result, process, props } = setup({
      user: testUser({ free_trials_used: 2, credits: 3, segment: 'customer' }),
    });
    act(() => result.current.person.select(photo('p.jpg')));
    await pickGarments(result, ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    expect(result.current.pressCost).toEqual({ trials: 0, credits: 4, covered: false });
    await act(() => result.current.tryOn());
    expect(process).not.toHaveBeenCalled();
    expect(props.onNoCredits).toHaveBeenCalledTimes(1);
    expect(result.current.notice).toBe(WEB_MESSAGES.pressNotCovered);
    expect(result.current.press.items).toEqual([]);

    // One garment fewer is covered: the press goes, with the picked photo uploaded each time.
    act(() => result.current.more.remove(result.current.more.items[0]!.key));
    await waitFor(() => expect(result.current.garmentCount).toBe(3));
    expect(result.current.notice).toBeNull();
    await act(() => result.current.tryOn());
    expect(process).toHaveBeenCalledTimes(3);
    for (const [input] of process.mock.calls) expect(input.person?.name).toBe('p.jpg');
  });

  it('a kept photo chosen is chosen again after a reload, as long as it is still kept', async () => {
    const first = setup();
    act(() => first.result.current.chooseKeptPhoto(kept));
    first.unmount();
    const second = setup();
    act(() => second.result.current.restoreKeptPhoto([{ ...kept, id: 'another' }]));
    expect(second.result.current.keptPhotoId).toBeNull();
    act(() => second.result.current.restoreKeptPhoto([kept]));
    expect(second.result.current.keptPhotoId).toBe('kept-1');
    expect(second.result.current.person.previewUrl).toBe(kept.thumbnailUrl);
    // Picking a photo leaves the kept one.
    act(() => second.result.current.person.select(photo('p.jpg')));
    expect(second.result.current.keptPhotoId).toBeNull();
  });
});
