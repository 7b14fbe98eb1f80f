import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_CATEGORY, type Category, type GarmentClassifyResponse } from '@aidressup/contract';
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
}

export interface CategoryChoice {
  category: Category;
  /** A choice in the picker by hand: from then on no suggestion changes the category. */
  choose: (category: Category) => void;
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
}: CategoryChoiceDeps): CategoryChoice {
  const [pick, setPick] = useState<SuggestedPick>({ category: DEFAULT_CATEGORY, suggested: null });
  const touched = useRef(false);
  const t = useT();

  useEffect(() => {
    setPick((p) => (p.suggested ? { ...p, suggested: null } : p));
    if (!garment || !ready || touched.current) return;
    const controller = new AbortController();
    prepare(garment)
      .then((photo) => classify(photo, controller.signal))
      .then((suggestion) => {
        if (controller.signal.aborted) return;
        const handPicked = touched.current;
        setPick((p) => applySuggestion(handPicked, p.category, suggestion));
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) console.warn('Category suggestion failed; the category is left as it is', err);
      });
    return () => controller.abort();
  }, [garment, ready, prepare, classify]);

  const choose = useCallback((category: Category) => {
    touched.current = true;
    setPick({ category, suggested: null });
  }, []);

  return { category: pick.category, choose, note: pick.suggested ? suggestionNote(t, pick.suggested) : null };
}
