/** Clothing categories (the specification's three). `icon` names an icon the web app draws. */
export const CATEGORIES = [
  { value: 'upper_body', label: 'Upper Body', description: 'T-shirts, Shirts, Jackets', icon: 'shirt' },
  { value: 'lower_body', label: 'Lower Body', description: 'Pants, Jeans, Shorts', icon: 'trousers' },
  { value: 'dresses', label: 'Full Outfit', description: 'Dresses, Suits, Outfits', icon: 'dress' },
] as const;

export type Category = (typeof CATEGORIES)[number]['value'];
export type CategoryInfo = (typeof CATEGORIES)[number];
export const CATEGORY_VALUES = CATEGORIES.map((c) => c.value) as [Category, ...Category[]];
export const DEFAULT_CATEGORY: Category = 'upper_body';

/**
 * The fourth category: shoes, bags, hats and jewellery. Offered only by engines that declare it
 * (`/api/config` lists each engine's `categories`); the built-in engine dresses clothing only.
 */
export const ACCESSORIES_CATEGORY = {
  value: 'accessories',
  label: 'Shoes & Accessories',
  description: 'Shoes, Bags, Hats, Jewellery',
  icon: 'accessories',
} as const;

/** Every category a try-on may name: the three clothing categories, then accessories. */
export const TRYON_CATEGORIES = [...CATEGORIES, ACCESSORIES_CATEGORY] as const;
export type TryOnCategory = (typeof TRYON_CATEGORIES)[number]['value'];
export type TryOnCategoryInfo = (typeof TRYON_CATEGORIES)[number];
export const TRYON_CATEGORY_VALUES = TRYON_CATEGORIES.map((c) => c.value) as [TryOnCategory, ...TryOnCategory[]];

/** The categories an engine that declares none offers: the three clothing ones. */
export const CLOTHING_CATEGORY_VALUES: readonly TryOnCategory[] = CATEGORY_VALUES;

/** True for the three clothing categories (what the built-in engine can dress). */
export function isClothingCategory(value: TryOnCategory): value is Category {
  return (CATEGORY_VALUES as readonly string[]).includes(value);
}

export function categoryInfo(value: TryOnCategory): TryOnCategoryInfo {
  const found = TRYON_CATEGORIES.find((c) => c.value === value);
  if (!found) throw new Error(`unknown category ${value}`);
  return found;
}
