import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { Category, GarmentClassifyResponse } from '@aidressup/contract';
import { useCategoryChoice, type CategoryChoiceDeps } from './use-category-choice';

const photo = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/jpeg' });
const answer = (category: Category, confidence: number): GarmentClassifyResponse => ({
  success: true,
  category,
  confidence,
});

function setup(classify: CategoryChoiceDeps['classify'], initial: Partial<CategoryChoiceDeps> = {}) {
  return renderHook((props: CategoryChoiceDeps) => useCategoryChoice(props), {
    initialProps: { garment: null, ready: true, classify, ...initial },
  });
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('useCategoryChoice', () => {
  it('follows the engine: accessories only where offered, the pick coming back when it is offered again', () => {
    const withAccessories = ['upper_body', 'lower_body', 'dresses', 'accessories'] as const;
    const clothingOnly = ['upper_body', 'lower_body', 'dresses'] as const;
    const classify = vi.fn(async () => answer('lower_body', 0.99));
    const { result, rerender } = setup(classify, { offered: withAccessories });
    act(() => result.current.choose('accessories'));
    expect(result.current.category).toBe('accessories');
    // The built-in engine: Shoes & Accessories is not offered, so its first category is in force.
    rerender({ garment: null, ready: true, classify, offered: clothingOnly });
    expect(result.current.category).toBe('upper_body');
    rerender({ garment: null, ready: true, classify, offered: withAccessories });
    expect(result.current.category).toBe('accessories');
  });

  it('preselects a confident suggestion for the garment photo and notes it; a new photo clears the note', async () => {
    const classify = vi.fn(async (file: File) =>
      file.name === 'jeans.jpg' ? answer('lower_body', 0.97) : answer('dresses', 0.3),
    );
    const { result, rerender } = setup(classify);
    expect(result.current).toMatchObject({ category: 'upper_body', note: null });
    expect(classify).not.toHaveBeenCalled();

    rerender({ garment: photo('jeans.jpg'), ready: true, classify });
    await waitFor(() => expect(result.current.note).toBe('Looks like Lower Body — change it if not'));
    expect(result.current.category).toBe('lower_body');

    // An unsure answer for the next photo: the note goes, the category stays.
    rerender({ garment: photo('blurry.jpg'), ready: true, classify });
    expect(result.current.note).toBeNull();
    await waitFor(() => expect(classify).toHaveBeenCalledTimes(2));
    await act(async () => {});
    expect(result.current).toMatchObject({ category: 'lower_body', note: null });

    // Removed: no note.
    rerender({ garment: photo('jeans.jpg'), ready: true, classify });
    await waitFor(() => expect(result.current.note).not.toBeNull());
    rerender({ garment: null, ready: true, classify });
    expect(result.current.note).toBeNull();
  });

  it('never changes a category chosen by hand, and stops asking', async () => {
    const classify = vi.fn(async () => answer('lower_body', 0.99));
    const { result, rerender } = setup(classify);
    act(() => result.current.choose('dresses'));
    rerender({ garment: photo('jeans.jpg'), ready: true, classify });
    await act(async () => {});
    expect(result.current).toMatchObject({ category: 'dresses', note: null });
    expect(classify).not.toHaveBeenCalled();
  });

  it('keeps a hand choice made while the answer was on its way', async () => {
    let resolve: (r: GarmentClassifyResponse) => void = () => {};
    const classify = vi.fn(() => new Promise<GarmentClassifyResponse>((r) => (resolve = r)));
    const { result, rerender } = setup(classify);
    rerender({ garment: photo('jeans.jpg'), ready: true, classify });
    await waitFor(() => expect(classify).toHaveBeenCalled());
    act(() => result.current.choose('upper_body'));
    await act(async () => resolve(answer('lower_body', 0.99)));
    expect(result.current).toMatchObject({ category: 'upper_body', note: null });
  });

  it('waits for the session, and leaves everything as it is when the call fails', async () => {
    const classify = vi.fn(async () => {
      throw new Error('network down');
    });
    const garment = photo('jeans.jpg');
    const { result, rerender } = setup(classify, { garment, ready: false });
    await act(async () => {});
    expect(classify).not.toHaveBeenCalled();
    rerender({ garment, ready: true, classify });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(result.current).toMatchObject({ category: 'upper_body', note: null });
  });
});
