import { useEffect, useState } from 'react';

/** The longest a browser timer waits (about 24.8 days); a longer wait is taken in steps. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * True until `until` (an ISO time) has passed, then false from that moment on, without a reload:
 * a preview's photos are kept for a while only. False for a missing or past time.
 */
export function useStillKept(until: string | null | undefined): boolean {
  const at = until ? Date.parse(until) : NaN;
  const [gone, setGone] = useState(() => !(at > Date.now()));
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (gone || !(at > 0)) return;
    const timer = setTimeout(
      () => (Date.now() >= at ? setGone(true) : setStep((n) => n + 1)),
      Math.min(LONGEST_TIMER_MS, Math.max(0, at - Date.now())),
    );
    return () => clearTimeout(timer);
  }, [gone, at, step]);
  return !gone && at > 0;
}
