import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: it remembers the page's first interaction. */
const load = async () => {
  vi.resetModules();
  return import('./fingerprint-due');
};

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
    const { whenFingerprintDue, FINGERPRINT_SETTLE_MS, FINGERPRINT_IDLE_TIMEOUT_MS } = await load();
    expect(document.readyState).toBe('complete');
    const due = track(whenFingerprintDue());
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS - 1);
    expect(idleCalls).toHaveLength(0);

    window.dispatchEvent(new Event('pointerdown'));
    await vi.advanceTimersByTimeAsync(0);
    expect(idleCalls).toHaveLength(1);
    expect(idleCalls[0]!.timeout).toBe(FINGERPRINT_IDLE_TIMEOUT_MS);
    expect(due.done).toBe(false);
    idleCalls[0]!.cb();
    await vi.waitFor(() => expect(due.done).toBe(true));

    // Later interactions and the settle timer ask for nothing more.
    window.dispatchEvent(new Event('keydown'));
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS * 2);
    expect(idleCalls).toHaveLength(1);
  });

  it('without an interaction, is due the settle time after it was asked for', async () => {
    const { whenFingerprintDue, FINGERPRINT_SETTLE_MS } = await load();
    const due = track(whenFingerprintDue());
    await vi.advanceTimersByTimeAsync(FINGERPRINT_SETTLE_MS - 1);
    expect(idleCalls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(idleCalls).toHaveLength(1);
    idleCalls[0]!.cb();
    await vi.waitFor(() => expect(due.done).toBe(true));
  });

  it('an interaction before it was asked for counts, once the page listens for it', async () => {
    const { whenFingerprintDue, listenForFirstInteraction } = await load();
    listenForFirstInteraction();
    window.dispatchEvent(new Event('keydown'));
    void whenFingerprintDue();
    await vi.advanceTimersByTimeAsync(0);
    expect(idleCalls).toHaveLength(1);
  });

  it('every listed interaction counts, and a scroll does not', async () => {
    const { FIRST_INTERACTION_EVENTS } = await load();
    expect(FIRST_INTERACTION_EVENTS).not.toContain('scroll');
    for (const type of FIRST_INTERACTION_EVENTS) {
      const { whenFingerprintDue } = await load();
      idleCalls = [];
      void whenFingerprintDue();
      window.dispatchEvent(new Event('scroll'));
      await vi.advanceTimersByTimeAsync(0);
      expect(idleCalls, 'scroll').toHaveLength(0);
      window.dispatchEvent(new Event(type));
      await vi.advanceTimersByTimeAsync(0);
      expect(idleCalls, type).toHaveLength(1);
    }
  });

  it('is due at once with the test hook that makes fingerprinting fail', async () => {
    const { whenFingerprintDue } = await load();
    window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__ = true;
    try {
      await whenFingerprintDue(); // never resolves (the test times out) if it waits
    } finally {
      delete window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__;
    }
    expect(idleCalls).toHaveLength(0);
  });

  it('falls back to a short timer without requestIdleCallback', async () => {
    const { whenFingerprintDue } = await load();
    vi.stubGlobal('requestIdleCallback', undefined);
    const due = track(whenFingerprintDue(50));
    await vi.advanceTimersByTimeAsync(50);
    expect(due.done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(due.done).toBe(true);
  });
});
