import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CATEGORY_VALUES,
  DEFAULT_CATEGORY,
  type GarmentClassifyResponse,
  type TryOnCategory,
} from '@aidressup/contract';
import { useT } from '../../../i18n/use-t';
import { classifyGarment } from '../api/classify-garment';
import { applySuggestion, suggestionNote, type SuggestedPick } from '../utils/category-suggestion';

export interface CategoryChoiceDeps {
  /** The garment photo chosen (upload, drop or paste), or null. */
  garment: File | null;
  /** The session is there (the classifier needs it); until then nothing is asked. */
  ready: boolean;
  /** The file actually sent (the reduced photo the try-on will upload too). */
  prepare?: (file: File) => Promise<File>;
  classify?: (photo: File, signal: AbortSignal) => Promise<GarmentClassifyResponse>;
  /** The categories the chosen engine offers; default the three clothing ones. */
  offered?: readonly TryOnCategory[];
}

export interface CategoryChoice {
  /** The category in force: the pick, or Upper Body when the chosen engine does not offer the pick. */
  category: TryOnCategory;
  /** A choice in the picker by hand: from then on no suggestion changes the category. */
  choose: (category: TryOnCategory) => void;
  /** "Looks like Lower Body — change it if not" while a suggestion was preselected, else null. */
  note: string | null;
}

const asIs = (file: File) => Promise.resolve(file);

/**
 * The clothing category: the shopper's choice, or, until they choose one by hand, the category the
 * server suggests for the garment photo (asked in the background; a failure changes nothing). The
 * note belongs to one photo: replacing or removing it clears the note.
 */
export function useCategoryChoice({
  garment,
  ready,
  prepare = asIs,
  classify = classifyGarment,
  offered = CATEGORY_VALUES,
}: CategoryChoiceDeps): CategoryChoice {
  const [pick, setPick] = useState<SuggestedPick>({ category: DEFAULT_CATEGORY, suggested: null });
  const touched = useRef(false);
  const t = useT();
  const offeredRef = useRef(offered);
  offeredRef.current = offered;

  useEffect(() => {
    setPick((p) => (p.suggested ? { ...p, suggested: null } : p));
    if (!garment || !ready || touched.current) return;
    const controller = new AbortController();
    prepare(garment)
      .then((photo) => classify(photo, controller.signal))
      .then((suggestion) => {
        if (controller.signal.aborted) return;
        const handPicked = touched.current;
        setPick((p) => applySuggestion(handPicked, p.category, suggestion, offeredRef.current));
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) console.warn('Category suggestion failed; the category is left as it is', err);
      });
    return () => controller.abort();
  }, [garment, ready, prepare, classify]);

  const choose = useCallback((category: TryOnCategory) => {
    touched.current = true;
    setPick({ category, suggested: null });
  }, []);

  // Another engine that does not offer the pick (accessories): its first category, until the pick
  // is offered again (the pick itself is kept).
  const category = offered.includes(pick.category) ? pick.category : (offered[0] ?? DEFAULT_CATEGORY);
  const note = pick.suggested && pick.suggested === category ? suggestionNote(t, pick.suggested) : null;
  return { category, choose, note };
}
