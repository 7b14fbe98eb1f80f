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

/** Longest wait for an idle moment once fingerprinting is due. */
export const FINGERPRINT_IDLE_TIMEOUT_MS = 1500;
/** Without an interaction, fingerprinting is due this long after it was asked for (once the page has loaded). */
export const FINGERPRINT_SETTLE_MS = 3000;
/**
 * What counts as the shopper's first interaction: from then on the account is about to be needed.
 * (Not `scroll`: the browser scrolls by itself when it restores a reloaded page's position.)
 */
export const FIRST_INTERACTION_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel', 'dragenter'] as const;

/**
 * Resolves when fingerprinting is due, in an idle moment: at the shopper's first interaction with
 * the page (earlier ones count) or, without one, `settleMs` after this is called (and the page has
 * loaded); then at the next idle callback (at most `idleTimeoutMs` later; a short timer where
 * `requestIdleCallback` is missing, as in Safari). FingerprintJS blocks the main thread for tens of
 * milliseconds at a time (font, canvas and WebGL probes), so it must not run while the first page
 * is loading and painting; the anonymous sign-in waits for it.
 */
export function whenFingerprintDue(
  settleMs = FINGERPRINT_SETTLE_MS,
  idleTimeoutMs = FINGERPRINT_IDLE_TIMEOUT_MS,
): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let started = false;
    const stopListening = () => {
      for (const type of FIRST_INTERACTION_EVENTS) window.removeEventListener(type, due, { capture: true });
      window.removeEventListener('load', settle);
      clearTimeout(timer);
    };
    function due() {
      if (started) return;
      started = true;
      stopListening();
      if (typeof window.requestIdleCallback === 'function')
        window.requestIdleCallback(() => resolve(), { timeout: idleTimeoutMs });
      else setTimeout(resolve, Math.min(idleTimeoutMs, 200));
    }
    function settle() {
      timer = setTimeout(due, settleMs);
    }
    // An interaction before this was asked for counts too (the browser remembers that the page was used).
    if (navigator.userActivation?.hasBeenActive) {
      due();
      return;
    }
    for (const type of FIRST_INTERACTION_EVENTS) window.addEventListener(type, due, { capture: true, passive: true });
    if (document.readyState === 'complete') settle();
    else window.addEventListener('load', settle, { once: true });
  });
}

/** Device id from FingerprintJS (loaded only once fingerprinting is due, monitoring off). */
async function fingerprintVisitorId(): Promise<string> {
  if (window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__) throw new Error('Fingerprinting disabled by the test hook');
  await whenFingerprintDue();
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
