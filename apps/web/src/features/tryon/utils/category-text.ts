import type { TryOnCategory } from '@aidressup/contract';
import type { Translate } from '../../../i18n/use-t';

/** A clothing category's examples in the page's language ("T-shirts, Shirts, Jackets"). */
export function categoryDescription(t: Translate, category: TryOnCategory): string {
  return t(`tryon.category.${category}.description`);
}
