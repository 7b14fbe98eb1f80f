import type { TryOnCategory } from '@aidressup/contract';
import type { MessageId, Translate } from './use-t';

const CATEGORY_IDS: Record<TryOnCategory, MessageId> = {
  upper_body: 'common.category.upper_body',
  lower_body: 'common.category.lower_body',
  dresses: 'common.category.dresses',
  accessories: 'common.category.accessories',
};

/** A clothing category's name in the page's language ("Upper Body"), the same on every page. */
export function categoryLabel(t: Translate, category: TryOnCategory): string {
  return t(CATEGORY_IDS[category]);
}
