import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { findPlan, type PublicConfig, type PublicPlan, type User } from '@aidressup/contract';
import type { PaddleCheckout } from '../paddle';
import { testUser } from '../../../test/user';

// Paddle's overlay, ready at once: the test completes the checkout itself.
const paddle = vi.hoisted(() => ({ completed: null as (() => void) | null }));
vi.mock('../paddle', () => ({
  usePaddleCheckout: (): PaddleCheckout => ({
    ready: true,
    open: ({ onCompleted }) => {
      paddle.completed = onCompleted;
    },
  }),
}));

// The demo checkout's answer: the test says whether the purchase goes through.
const demo = vi.hoisted(() => ({ fails: false }));
vi.mock('../api/demo-checkout', () => ({
  demoCheckout: async () => {
    if (demo.fails) throw new Error('network down');
    return { ...buyer, credits: 50 };
  },
}));

const { useCheckout } = await import('./use-checkout');

const BILLING: PublicConfig['billing'] = { provider: 'paddle', environment: 'sandbox', clientToken: 'test_abc' };
const MONTHLY: PublicPlan = { ...findPlan('monthly')!, paddlePriceId: 'pri_01monthly' };
const buyer = testUser({ free_trials_used: 2, segment: 'trial_exhausted' });

function setup(refreshUser: () => Promise<User | null>, onSaveWithEmail?: () => void) {
  const onClose = vi.fn();
  const onPurchased = vi.fn();
  const hook = renderHook(() =>
    useCheckout({
      billing: BILLING,
      user: buyer,
      setUser: vi.fn(),
      refreshUser,
      onClose,
      onSaveWithEmail,
      onPurchased,
    }),
  );
  act(() => hook.result.current.start(MONTHLY));
  act(() => paddle.completed?.());
  return { ...hook, onClose, onPurchased };
}

beforeEach(() => {
  vi.useFakeTimers();
  paddle.completed = null;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useCheckout after Paddle’s checkout', () => {
  it('polls the user until the grant shows, then offers an anonymous buyer to save the credits', async () => {
    const refreshUser = vi
      .fn<() => Promise<User | null>>()
      .mockResolvedValueOnce(buyer)
      .mockResolvedValue({ ...buyer, credits: 50 });
    const { result, onClose, onPurchased } = setup(refreshUser, () => undefined);
    expect(result.current.view).toEqual({ kind: 'awaiting', plan: MONTHLY, slow: false });

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(result.current.view.kind).toBe('awaiting');
    // Paid, but the credits are not there yet: not a completed purchase.
    expect(onPurchased).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(result.current.view).toEqual({ kind: 'done', plan: MONTHLY });
    expect(refreshUser).toHaveBeenCalledTimes(2);
    expect(onClose).not.toHaveBeenCalled();
    expect(onPurchased).toHaveBeenCalledTimes(1);
  });

  it('closes once the grant shows when there is nothing to save', async () => {
    const { onClose } = setup(async () => ({ ...buyer, credits: 50 }));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says the confirmation is slow after two minutes, and stops polling', async () => {
    const refreshUser = vi.fn(async () => buyer);
    const { result, onPurchased } = setup(refreshUser);
    await act(() => vi.advanceTimersByTimeAsync(118_000));
    expect(result.current.view).toMatchObject({ kind: 'awaiting', slow: false });
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(result.current.view).toMatchObject({ kind: 'awaiting', slow: true });
    const polls = refreshUser.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(refreshUser).toHaveBeenCalledTimes(polls);
    expect(onPurchased).not.toHaveBeenCalled();
  });
});

describe('useCheckout with demo billing', () => {
  const DEMO: PublicConfig['billing'] = { provider: 'demo', environment: null, clientToken: null };

  it('says a purchase completed once the demo checkout has given the credits, and not when it failed', async () => {
    for (const fails of [true, false]) {
      demo.fails = fails;
      const onPurchased = vi.fn();
      const setUser = vi.fn();
      const { result } = renderHook(() =>
        useCheckout({
          billing: DEMO,
          user: buyer,
          setUser,
          refreshUser: async () => null,
          onClose: vi.fn(),
          onPurchased,
        }),
      );
      act(() => result.current.start(MONTHLY));
      await act(() => result.current.completeDemo(MONTHLY));
      expect(result.current.view.kind).toBe(fails ? 'demo' : 'done');
      expect(onPurchased).toHaveBeenCalledTimes(fails ? 0 : 1);
      expect(setUser).toHaveBeenCalledTimes(fails ? 0 : 1);
    }
  });
});
