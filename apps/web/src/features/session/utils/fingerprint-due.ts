/**
 * When the device id is fingerprinted. This module is part of the first page (main.tsx starts
 * listening for the first interaction, the session provider waits with it); the device-id code and
 * FingerprintJS load only once it says fingerprinting is due.
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

let interacted = false;
let listening = false;
const waiting = new Set<() => void>();

function interaction(): void {
  interacted = true;
  for (const type of FIRST_INTERACTION_EVENTS) window.removeEventListener(type, interaction, { capture: true });
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/**
 * Notes the shopper's first interaction with the page from now on. main.tsx calls it at once, so an
 * interaction before the app has started counts too; calling it again does nothing.
 */
export function listenForFirstInteraction(): void {
  if (listening || interacted) return;
  listening = true;
  for (const type of FIRST_INTERACTION_EVENTS)
    window.addEventListener(type, interaction, { capture: true, passive: true });
}

/** Resolves at the shopper's first interaction with the page (at once if there has been one). */
export function firstInteraction(): Promise<void> {
  listenForFirstInteraction();
  return interacted ? Promise.resolve() : new Promise((resolve) => waiting.add(resolve));
}

/** Resolves `ms` after the page has loaded (or after now, if it has). */
function settled(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wait = () => setTimeout(resolve, ms);
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
  });
}

/**
 * Resolves when fingerprinting is due, in an idle moment: at the shopper's first interaction with
 * the page (earlier ones count) or, without one, `settleMs` after this is called (and the page has
 * loaded); then at the next idle callback (at most `idleTimeoutMs` later; a short timer where
 * `requestIdleCallback` is missing, as in Safari). FingerprintJS blocks the main thread for tens of
 * milliseconds at a time (font, canvas and WebGL probes), so it must not run while the first page
 * is loading and painting; the anonymous sign-in waits for it.
 */
export async function whenFingerprintDue(
  settleMs = FINGERPRINT_SETTLE_MS,
  idleTimeoutMs = FINGERPRINT_IDLE_TIMEOUT_MS,
): Promise<void> {
  // With the documented test hook, fingerprinting fails at once (device-id.ts): there is nothing to wait for.
  if (window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__) return;
  await Promise.race([firstInteraction(), settled(settleMs)]);
  await new Promise<void>((resolve) => {
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => resolve(), { timeout: idleTimeoutMs });
    else setTimeout(resolve, Math.min(idleTimeoutMs, 200));
  });
}
