import { DEVICE_ID_PATTERN } from '@aidressup/contract';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';

declare global {
  interface Window {
    /**
     * Test hook: when true before the page loads, fingerprinting fails so the
     * stored/generated fallback device id is used (set with page.addInitScript).
     */
    __AIDRESSUP_TEST_FAIL_FINGERPRINT__?: boolean;
  }
}

/** Longest wait for an idle moment before fingerprinting anyway. */
export const FINGERPRINT_IDLE_TIMEOUT_MS = 1500;

/**
 * Resolves once the page has loaded, painted and the main thread is idle (or after `timeoutMs`
 * of waiting for idleness), so that fingerprinting never competes with first paint or the first
 * interaction. Falls back to a timer where `requestIdleCallback` is missing (Safari).
 */
export function whenIdle(timeoutMs = FINGERPRINT_IDLE_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve) => {
    const schedule = () => {
      // Two animation frames: the first paint has been presented.
      const afterPaint = () => {
        if (typeof window.requestIdleCallback === 'function')
          window.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
        else setTimeout(resolve, Math.min(timeoutMs, 200));
      };
      if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
        requestAnimationFrame(() => setTimeout(afterPaint, 0));
      else afterPaint();
    };
    if (document.readyState === 'complete') schedule();
    else window.addEventListener('load', schedule, { once: true });
  });
}

/** Device id from FingerprintJS (loaded on demand once the page is idle, monitoring off). */
async function fingerprintVisitorId(): Promise<string> {
  if (window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__) throw new Error('Fingerprinting disabled by the test hook');
  await whenIdle();
  const FingerprintJS = await import('@fingerprintjs/fingerprintjs');
  const agent = await FingerprintJS.load({ monitoring: false });
  const { visitorId } = await agent.get();
  return visitorId;
}

export function generateDeviceId(): string {
  const random =
    typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID().replace(/-/g, '')
      : Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `fb_${random}`;
}

/** The stored fallback device id, or a newly generated one that is then stored. */
export function fallbackDeviceId(): string {
  const stored = readStorage(STORAGE_KEYS.fallbackDeviceId);
  if (stored && DEVICE_ID_PATTERN.test(stored)) return stored;
  const id = generateDeviceId();
  writeStorage(STORAGE_KEYS.fallbackDeviceId, id);
  return id;
}

export async function getDeviceId(fingerprint: () => Promise<string> = fingerprintVisitorId): Promise<string> {
  try {
    const id = await fingerprint();
    if (DEVICE_ID_PATTERN.test(id)) return id;
    throw new Error('Fingerprint gave an unusable id');
  } catch (e) {
    console.warn('Device fingerprint unavailable; using the fallback device id', e);
    return fallbackDeviceId();
  }
}
