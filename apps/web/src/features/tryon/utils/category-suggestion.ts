import { CATEGORY_SUGGESTION_MIN_CONFIDENCE, type Category, type TryOnCategory } from '@aidressup/contract';
import type { Translate } from '../../../i18n/use-t';
import { categoryLabel } from '../../../i18n/category';

/** The classifier's answer for the garment photo. */
export interface CategorySuggestion {
  category: Category;
  confidence: number;
}

/** The picker after a suggestion: its category, and the category the note names (null: no note). */
export interface SuggestedPick {
  category: TryOnCategory;
  suggested: TryOnCategory | null;
}

/**
 * What a suggestion does to the category picker. A category the shopper chose by hand (`touched`)
 * is never changed and gets no note; a suggestion below the confidence threshold (or none), or of
 * a category the chosen engine does not offer, changes nothing and shows no note; otherwise the suggestion is preselected and named in the note.
 */
export function applySuggestion(
  touched: boolean,
  current: TryOnCategory,
  suggestion: CategorySuggestion | null,
  offered?: readonly TryOnCategory[],
): SuggestedPick {
  if (
    touched ||
    !suggestion ||
    !(suggestion.confidence >= CATEGORY_SUGGESTION_MIN_CONFIDENCE) ||
    (offered && !offered.includes(suggestion.category))
  )
    return { category: current, suggested: null };
  return { category: suggestion.category, suggested: suggestion.category };
}

/** The polite note under the picker: "Looks like Lower Body — change it if not". */
export function suggestionNote(t: Translate, category: TryOnCategory): string {
  return t('tryon.category.suggestion', { category: categoryLabel(t, category) });
}
