/**
 * Sources and licences of the showcase images, from apps/web/public/showcase/ATTRIBUTION.md
 * (written by `npm run showcase`; keep both in step when the showcase changes). Descriptions are catalog ids
 * (their English in `packages/contract/catalogs/app/en/gallery.json`); file names, authors and licence names
 * are shown as they are.
 */
import type { MessageId } from '../../i18n/use-t';

export interface ImageSource {
  /** The source photo's file name in the engine's test fixtures. */
  file: string;
  what: MessageId;
  /** Where it comes from. */
  source: MessageId;
  sourceUrl: string;
  author: string;
  licence: string;
  licenceUrl: string;
  note?: MessageId;
}

export interface ShowcaseCredit {
  title: MessageId;
  /** File prefix in /showcase. */
  name: string;
  person: ImageSource;
  garment: ImageSource;
  /** Whether /showcase/<name>-result.webp exists: the built-in engine's quick preview, derived from both photos. */
  result: boolean;
}

const BAGISTO = {
  source: 'gallery.credits.source.bagisto',
  sourceUrl: 'https://github.com/bagisto/bagisto',
  author: '© 2010-2025 Webkul Software',
  licence: 'MIT License',
  licenceUrl: 'https://opensource.org/license/mit',
  note: 'gallery.credits.note.aiGenerated',
} as const;

const CLOTHING_DATASET = {
  source: 'gallery.credits.source.clothingDataset',
  sourceUrl: 'https://github.com/alexeygrigorev/clothing-dataset',
  author: 'Alexey Grigorev and contributors',
  licence: 'CC0 1.0 (public domain dedication)',
  licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
} as const;

export const SHOWCASE_CREDITS: ShowcaseCredit[] = [
  {
    title: 'gallery.credits.showcase.casual',
    name: 'casual',
    person: { file: 'woman_blouse_skirt.jpg', what: 'gallery.credits.what.womanBlouseSkirt', ...BAGISTO },
    garment: { file: 'dress_blue_sleeves.jpg', what: 'gallery.credits.what.blueDress', ...CLOTHING_DATASET },
    result: true,
  },
  {
    title: 'gallery.credits.showcase.swap',
    name: 'swap',
    person: { file: 'woman_croptop_skirt.jpg', what: 'gallery.credits.what.womanCropTopSkirt', ...BAGISTO },
    garment: { file: 'polo_striped.jpg', what: 'gallery.credits.what.stripedPolo', ...CLOTHING_DATASET },
    result: true,
  },
  {
    title: 'gallery.credits.showcase.pro',
    name: 'pro',
    person: { file: 'woman_blouse_skirt.jpg', what: 'gallery.credits.what.womanBlouseSkirt', ...BAGISTO },
    garment: { file: 'polo_navy.jpg', what: 'gallery.credits.what.navyPolo', ...CLOTHING_DATASET },
    result: false,
  },
];
