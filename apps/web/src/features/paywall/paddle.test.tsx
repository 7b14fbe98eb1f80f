import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findPlan, type PublicConfig, type PublicPlan } from '@aidressup/contract';
import type { InitializePaddleOptions, Paddle, PaddleEventData } from '@paddle/paddle-js';

// A stand-in for the @paddle/paddle-js module: records initialisation and checkout calls.
const calls = vi.hoisted(() => ({
  initialize: [] as InitializePaddleOptions[],
  open: [] as unknown[],
  openThrows: false,
  resolveWith: 'paddle',
}));

vi.mock('@paddle/paddle-js', () => ({
  initializePaddle: vi.fn(async (options: InitializePaddleOptions) => {
    calls.initialize.push(options);
    if (calls.resolveWith === 'reject') throw new Error('Failed to load Paddle.js - v1');
    if (calls.resolveWith === 'undefined') return undefined;
    const paddle = {
      Checkout: {
        open: (o: unknown) => {
          if (calls.openThrows) throw new Error('refused');
          calls.open.push(o);
        },
      },
    } as unknown as Paddle;
    return paddle;
  }),
}));

const { usePaddleCheckout } = await import('./paddle');
const { activateLocale } = await import('../../i18n/i18n');
const paddleJs = await import('@paddle/paddle-js');

const PADDLE_BILLING: PublicConfig['billing'] = {
  provider: 'paddle',
  environment: 'sandbox',
  clientToken: 'test_abc123',
};
const DEMO_BILLING: PublicConfig['billing'] = { provider: 'demo', environment: null, clientToken: null };
const MONTHLY: PublicPlan = { ...findPlan('monthly')!, paddlePriceId: 'pri_01monthly' };

beforeEach(() => {
  calls.initialize.length = 0;
  calls.open.length = 0;
  calls.openThrows = false;
  calls.resolveWith = 'paddle';
  vi.mocked(paddleJs.initializePaddle).mockClear();
});
afterEach(cleanup);

describe('usePaddleCheckout', () => {
  it('loads nothing with demo billing and is never ready', async () => {
    const { result } = renderHook(() => usePaddleCheckout(DEMO_BILLING));
    // A Paddle-billing checkout beside it loads Paddle.js: once that one is ready, the demo one
    // would have loaded it too.
    const paddle = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(paddle.result.current.ready).toBe(true));
    expect(paddleJs.initializePaddle).toHaveBeenCalledTimes(1);
    expect(calls.initialize).toEqual([expect.objectContaining({ token: PADDLE_BILLING.clientToken })]);
    expect(result.current.ready).toBe(false);
    expect(() => result.current.open({ plan: MONTHLY, userId: 'u1', onCompleted: () => {} })).toThrow();
  });

  it('initialises Paddle.js with the environment, the client token and an event callback', async () => {
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    expect(result.current.ready).toBe(false);
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(calls.initialize).toHaveLength(1);
    expect(calls.initialize[0]).toMatchObject({ environment: 'sandbox', token: 'test_abc123' });
    expect(typeof calls.initialize[0]!.eventCallback).toBe('function');
  });

  it('opens the overlay with one item, the custom data and the light English overlay settings', async () => {
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(result.current.ready).toBe(true));
    result.current.open({ plan: MONTHLY, userId: 'user-123', onCompleted: () => {} });
    expect(calls.open).toEqual([
      {
        items: [{ priceId: 'pri_01monthly', quantity: 1 }],
        customData: { userId: 'user-123', planId: 'monthly', credits: 50 },
        settings: { displayMode: 'overlay', theme: 'light', locale: 'en' },
      },
    ]);
  });

  it.each([
    ['es', 'es'],
    ['fr', 'fr'],
    ['de', 'de'],
    ['pt-BR', 'pt'],
    ['ar', 'ar'],
  ] as const)('opens the overlay in the page’s language (%s → Paddle’s %s)', async (locale, paddleLocale) => {
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(result.current.ready).toBe(true));
    try {
      await act(() => activateLocale(locale));
      result.current.open({ plan: MONTHLY, userId: 'user-123', onCompleted: () => {} });
      expect(calls.open[0]).toMatchObject({
        settings: { displayMode: 'overlay', theme: 'light', locale: paddleLocale },
      });
      // Back in English, the next overlay is English again.
      await act(() => activateLocale('en'));
      result.current.open({ plan: MONTHLY, userId: 'user-123', onCompleted: () => {} });
      expect(calls.open[1]).toMatchObject({ settings: { locale: 'en' } });
    } finally {
      await activateLocale('en');
    }
  });

  it("passes a signed-in customer's email to Paddle, and none for an anonymous one", async () => {
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(result.current.ready).toBe(true));
    result.current.open({ plan: MONTHLY, userId: 'user-123', email: 'ana@example.com', onCompleted: () => {} });
    result.current.open({ plan: MONTHLY, userId: 'user-456', email: null, onCompleted: () => {} });
    expect(calls.open[0]).toEqual({
      items: [{ priceId: 'pri_01monthly', quantity: 1 }],
      customData: { userId: 'user-123', planId: 'monthly', credits: 50 },
      customer: { email: 'ana@example.com' },
      settings: { displayMode: 'overlay', theme: 'light', locale: 'en' },
    });
    expect(calls.open[1]).not.toHaveProperty('customer');
  });

  it('calls onCompleted once on checkout.completed, and logs events with ids only', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(result.current.ready).toBe(true));
    const onCompleted = vi.fn();
    result.current.open({ plan: MONTHLY, userId: 'user-123', onCompleted });
    const callback = calls.initialize[0]!.eventCallback!;
    const data = { transaction_id: 'txn_01abc', status: 'completed', customer: { email: 'shopper@example.com' } };
    act(() => {
      callback({ name: 'checkout.loaded', data: { ...data, status: 'draft' } } as unknown as PaddleEventData);
    });
    expect(onCompleted).not.toHaveBeenCalled();
    act(() => {
      callback({ name: 'checkout.completed', data } as unknown as PaddleEventData);
      callback({ name: 'checkout.completed', data } as unknown as PaddleEventData);
    });
    expect(onCompleted).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith('[paddle]', 'checkout.completed', {
      transactionId: 'txn_01abc',
      status: 'completed',
    });
    expect(JSON.stringify(info.mock.calls)).not.toContain('shopper@example.com');
    info.mockRestore();
  });

  it('throws when the overlay cannot open, or the plan has no Paddle price', async () => {
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(() =>
      result.current.open({ plan: { ...MONTHLY, paddlePriceId: null }, userId: 'u', onCompleted: () => {} }),
    ).toThrow();
    calls.openThrows = true;
    expect(() => result.current.open({ plan: MONTHLY, userId: 'u', onCompleted: () => {} })).toThrow('refused');
  });

  it.each(['undefined', 'reject'] as const)('stays not ready when Paddle.js fails to load (%s)', async (how) => {
    calls.resolveWith = how;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result } = renderHook(() => usePaddleCheckout(PADDLE_BILLING));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(result.current.ready).toBe(false);
    expect(() => result.current.open({ plan: MONTHLY, userId: 'u', onCompleted: () => {} })).toThrow();
    error.mockRestore();
  });
});
