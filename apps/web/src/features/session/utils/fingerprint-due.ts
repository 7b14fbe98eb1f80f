/**
 * When the device id is fingerprinted. This module is part of the first page (the session provider
 * waits with it); the device-id code and FingerprintJS load only once it says fingerprinting is due.
 */

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
  // With the documented test hook, fingerprinting fails at once (device-id.ts): there is nothing to wait for.
  if (window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__) return Promise.resolve();
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
