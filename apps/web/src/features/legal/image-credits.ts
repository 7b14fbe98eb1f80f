/**
 * Sources and licences of the showcase images, from apps/web/public/showcase/ATTRIBUTION.md
 * (kept there too; keep both in step when the showcase changes).
 */
export interface ImageSource {
  /** The source photo's file name in the engine's test fixtures. */
  file: string;
  what: string;
  /** Where it comes from. */
  source: string;
  sourceUrl: string;
  author: string;
  licence: string;
  licenceUrl: string;
  note?: string;
}

export interface ShowcaseCredit {
  title: string;
  /** File prefix in /showcase. */
  name: string;
  person: ImageSource;
  garment: ImageSource;
}

const BAGISTO = {
  source: 'The Bagisto project',
  sourceUrl: 'https://github.com/bagisto/bagisto',
  author: '© 2010-2025 Webkul Software',
  licence: 'MIT License',
  licenceUrl: 'https://opensource.org/license/mit',
  note: 'These people look AI-generated, not photographs of real models.',
} as const;

const CLOTHING_DATASET = {
  source: 'The Clothing Dataset',
  sourceUrl: 'https://github.com/alexeygrigorev/clothing-dataset',
  author: 'Alexey Grigorev and contributors',
  licence: 'CC0 1.0 (public domain dedication)',
  licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
} as const;

export const SHOWCASE_CREDITS: ShowcaseCredit[] = [
  {
    title: 'Casual to Elegant',
    name: 'casual',
    person: { file: 'woman_tee_jeans_fullbody.jpg', what: 'Person photo: a woman in a T-shirt and jeans', ...BAGISTO },
    garment: { file: 'dress_blue_sleeves.jpg', what: 'Garment photo: a blue dress with sleeves', ...CLOTHING_DATASET },
  },
  {
    title: 'Style Swap Magic',
    name: 'swap',
    person: { file: 'woman_blouse_skirt.jpg', what: 'Person photo: a woman in a blouse and a skirt', ...BAGISTO },
    garment: { file: 'polo_navy.jpg', what: 'Garment photo: a navy polo shirt', ...CLOTHING_DATASET },
  },
  {
    title: 'Professional Try-on',
    name: 'pro',
    person: { file: 'woman_croptop_skirt.jpg', what: 'Person photo: a woman in a crop top and a skirt', ...BAGISTO },
    garment: { file: 'polo_navy.jpg', what: 'Garment photo: a navy polo shirt', ...CLOTHING_DATASET },
  },
];
