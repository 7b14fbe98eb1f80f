import { useCallback, useEffect, useRef } from 'react';

export interface ResumeAfterPurchaseDeps {
  /** Purchases completed on this page so far (the paywall's count). */
  purchases: number;
  /** Not now: a dialog is open (the paywall, the sign-in), a try-on is under way, or there is no user. */
  blocked: boolean;
  /** The balance covers the try-on asked for. */
  covered: boolean;
  /** What that try-on uses (the photos, category, engine): once one of them changes, it is no longer asked for. */
  inputs: readonly unknown[];
  /** Runs the try-on asked for. */
  resume: () => void;
}

/**
 * A try-on refused for want of credits (NO_CREDITS, or a press its balance does not cover) runs
 * by itself once a purchase has completed after the refusal, the paywall has closed and the new
 * balance covers it: once, with the same photos, category and engine. A checkout closed without a
 * purchase runs nothing; so does a refusal whose photos, category or engine have changed since.
 * `noteRefusal` is called at the refusal.
 */
export function useResumeAfterPurchase({ purchases, blocked, covered, inputs, resume }: ResumeAfterPurchaseDeps) {
  /** The count of purchases at the refusal still waiting for one; null: none waits. */
  const pending = useRef<number | null>(null);
  const purchasesRef = useRef(purchases);
  purchasesRef.current = purchases;
  const resumeRef = useRef(resume);
  resumeRef.current = resume;

  const noteRefusal = useCallback(() => {
    pending.current = purchasesRef.current;
  }, []);

  // Other photos, category or engine: the refused try-on is no longer the one asked for.
  const lastInputs = useRef(inputs);
  useEffect(() => {
    const before = lastInputs.current;
    lastInputs.current = inputs;
    if (before.length !== inputs.length || before.some((v, i) => !Object.is(v, inputs[i]))) pending.current = null;
  });

  useEffect(() => {
    const at = pending.current;
    if (at === null || purchases <= at || blocked || !covered) return;
    // Taken before it runs: it never runs twice.
    pending.current = null;
    resumeRef.current();
  }, [purchases, blocked, covered]);

  return { noteRefusal };
}
