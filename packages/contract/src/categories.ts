/** Clothing categories. `icon` names an icon the web app draws. */
export const CATEGORIES = [
  { value: 'upper_body', label: 'Upper Body', description: 'T-shirts, Shirts, Jackets', icon: 'shirt' },
  { value: 'lower_body', label: 'Lower Body', description: 'Pants, Jeans, Shorts', icon: 'trousers' },
  { value: 'dresses', label: 'Full Outfit', description: 'Dresses, Suits, Outfits', icon: 'dress' },
] as const;

export type Category = (typeof CATEGORIES)[number]['value'];
export type CategoryInfo = (typeof CATEGORIES)[number];
export const CATEGORY_VALUES = CATEGORIES.map((c) => c.value) as [Category, ...Category[]];
export const DEFAULT_CATEGORY: Category = 'upper_body';

export function categoryInfo(value: Category): CategoryInfo {
  const found = CATEGORIES.find((c) => c.value === value);
  if (!found) throw new Error(`unknown category ${value}`);
  return found;
}
