import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage';
import { FINGERPRINT_IDLE_TIMEOUT_MS, getDeviceId, whenIdle } from './device-id';

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

describe('fingerprinting waits for an idle page', () => {
  it('resolves only from an idle callback, asked with the time-out', async () => {
    // The frames and timers before the idle callback are fake: the test runs them, all of them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const calls: Array<{ cb: () => void; timeout?: number }> = [];
    vi.stubGlobal('requestIdleCallback', (cb: () => void, opts?: { timeout?: number }) => {
      calls.push({ cb, timeout: opts?.timeout });
      return 1;
    });
    try {
      let done = false;
      const idle = whenIdle().then(() => {
        done = true;
      });
      await vi.runAllTimersAsync();
      expect(calls).toHaveLength(1);
      expect(calls[0]!.timeout).toBe(FINGERPRINT_IDLE_TIMEOUT_MS);
      // Every timer and frame has run: only the idle callback is left to resolve it.
      await vi.runAllTimersAsync();
      expect(done).toBe(false);
      calls[0]!.cb();
      await idle;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it('falls back to a timer without requestIdleCallback', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    await expect(whenIdle(50)).resolves.toBeUndefined();
    vi.unstubAllGlobals();
  });
});
