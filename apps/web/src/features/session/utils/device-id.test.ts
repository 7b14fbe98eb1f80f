import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage';
import {
  FINGERPRINT_IDLE_TIMEOUT_MS,
  FINGERPRINT_SETTLE_MS,
  FIRST_INTERACTION_EVENTS,
  getDeviceId,
  whenFingerprintDue,
} from './device-id';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('device id', () => {
  it('uses the fingerprint visitor id when fingerprinting works', async () => {
    expect(await getDeviceId(async () => '0123456789abcdef0123456789abcdef')).toBe('0123456789abcdef0123456789abcdef');
    expect(localStorage.getItem(STORAGE_KEYS.fallbackDeviceId)).toBeNull();
  });

  it('falls back to a generated id, stores it, and reuses it', async () => {
    const fail = async () => {
      throw new Error('no canvas');
    };
    const first = await getDeviceId(fail);
    expect(first).toMatch(/^fb_[0-9a-f]{32}$/);
    expect(localStorage.getItem(STORAGE_KEYS.fallbackDeviceId)).toBe(first);
    expect(await getDeviceId(fail)).toBe(first);
  });

  it('uses an already stored fallback id', async () => {
    localStorage.setItem(STORAGE_KEYS.fallbackDeviceId, 'fb_stored_device_1');
    expect(await getDeviceId(async () => 'bad id!')).toBe('fb_stored_device_1');
  });
});

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

  it('falls back to a short timer without requestIdleCallback', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const due = track(whenFingerprintDue(50));
    await vi.advanceTimersByTimeAsync(50);
    expect(due.done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(due.done).toBe(true);
  });
});
