import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FINGERPRINT_IDLE_TIMEOUT_MS,
  FINGERPRINT_SETTLE_MS,
  FIRST_INTERACTION_EVENTS,
  whenFingerprintDue,
} from './fingerprint-due';

describe('fingerprinting waits until it is due', () => {
  // The timers are fake (the test runs them); the idle callback is a stub the test calls.
  let idleCalls: Array<{ cb: () => void; timeout?: number }>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    idleCalls = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void, opts?: { timeout?: number }) => {
      idleCalls.push({ cb, timeout: opts?.timeout });
      return idleCalls.length;
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const track = (p: Promise<void>) => {
    const state = { done: false };
    void p.then(() => (state.done = true));
    return state;
  };

  it('is due at the first interaction, then waits for an idle callback (asked with the time-out)', async () => {
    expect(document.readyState).toBe('complete');
    const due = track(whenFingerprintDue());
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS - 1);
    expect(idleCalls).toHaveLength(0);

    window.dispatchEvent(new Event('pointerdown'));
    expect(idleCalls).toHaveLength(1);
    expect(idleCalls[0]!.timeout).toBe(FINGERPRINT_IDLE_TIMEOUT_MS);
    await vi.runAllTimersAsync();
    expect(due.done).toBe(false);
    idleCalls[0]!.cb();
    await vi.waitFor(() => expect(due.done).toBe(true));

    // Later interactions and the settle timer ask for nothing more.
    window.dispatchEvent(new Event('keydown'));
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS * 2);
    expect(idleCalls).toHaveLength(1);
  });

  it('without an interaction, is due the settle time after it was asked for', async () => {
    const due = track(whenFingerprintDue());
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS - 1);
    expect(idleCalls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(idleCalls).toHaveLength(1);
    idleCalls[0]!.cb();
    await vi.waitFor(() => expect(due.done).toBe(true));
  });

  it('every listed interaction counts, and a scroll does not', async () => {
    for (const type of FIRST_INTERACTION_EVENTS) {
      idleCalls = [];
      void whenFingerprintDue();
      window.dispatchEvent(new Event('scroll'));
      expect(idleCalls, 'scroll').toHaveLength(0);
      window.dispatchEvent(new Event(type));
      expect(idleCalls, type).toHaveLength(1);
    }
  });

  it('is due at once when the page was used before it was asked for', async () => {
    Object.defineProperty(navigator, 'userActivation', { value: { hasBeenActive: true }, configurable: true });
    try {
      void whenFingerprintDue();
      expect(idleCalls).toHaveLength(1);
    } finally {
      Reflect.deleteProperty(navigator, 'userActivation');
    }
  });

  it('is due at once with the test hook that makes fingerprinting fail', async () => {
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
    try {
      await whenFingerprintDue(); // never resolves (the test times out) if it waits
    } finally {
      delete window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__;
    }
    expect(idleCalls).toHaveLength(0);
  });

  it('falls back to a short timer without requestIdleCallback', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const due = track(whenFingerprintDue(50));
    await vi.advanceTimersByTimeAsync(50);
    expect(due.done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(due.done).toBe(true);
  });
});
