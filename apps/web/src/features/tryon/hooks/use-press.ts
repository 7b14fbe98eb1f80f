import { useCallback, useState } from 'react';
import type { TryOnCategory } from '@aidressup/contract';
import { useTryOn, type PersonSource, type TryOnDeps, type TryOnState } from './use-try-on';

/** One garment of a press and its try-on. */
export interface PressItem {
  /** The garment photo's preview, for the result's card. */
  garmentUrl: string | null;
  category: TryOnCategory;
  state: TryOnState;
  /** Leaves the line while this try-on waits for the engine (nothing was charged). */
  cancel: () => void;
}

/** A garment to try in a press. */
export interface PressGarment {
  file: File;
  previewUrl: string | null;
}

/**
 * Several garments in one press of Try with AI (up to MAX_GARMENTS_PER_PRESS, four): each is its
 * own try-on, posted at once, with its own charge or refund, its own place in the line and its own
 * result; their states side by side. One `useTryOn` per place (a fixed number of hooks), so each
 * try-on waits in line, follows its progress and settles exactly as a single one does.
 */
export function usePress(deps: TryOnDeps) {
  const slots = [useTryOn(deps), useTryOn(deps), useTryOn(deps), useTryOn(deps)];
  const [garments, setGarments] = useState<{ url: string | null; category: TryOnCategory }[]>([]);

  const [s0, s1, s2, s3] = slots;
  const runs = [s0!.run, s1!.run, s2!.run, s3!.run];
  const resets = [s0!.reset, s1!.reset, s2!.reset, s3!.reset];
  const run = useCallback(
    (person: PersonSource, items: PressGarment[], category: TryOnCategory) => {
      const press = items.slice(0, runs.length);
      setGarments(press.map((g) => ({ url: g.previewUrl, category })));
      for (const reset of resets) reset();
      return Promise.all(press.map((g, i) => runs[i]!(person, g.file, category)));
    },
    // The hooks' functions are stable (useCallback with no changing inputs).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [s0!.run, s1!.run, s2!.run, s3!.run],
  );

  const clear = useCallback(() => {
    setGarments([]);
    for (const reset of resets) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [s0!.reset, s1!.reset, s2!.reset, s3!.reset]);

  const items: PressItem[] = garments.map((g, i) => ({
    garmentUrl: g.url,
    category: g.category,
    state: slots[i]!.state,
    cancel: slots[i]!.cancel,
  }));
  return {
    /** The press's try-ons (none before a press, or after `clear`). */
    items,
    processing: items.some((i) => i.state.status === 'processing'),
    run,
    clear,
  };
}
