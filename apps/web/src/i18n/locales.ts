import type { Messages } from '@lingui/core';
import type { Locale } from '@aidressup/contract';

export interface LocaleInfo {
  /** The language in its own name, as the language menu lists it. */
  name: string;
  /** The language button's label (the specification's "ENGLISH" for English). */
  label: string;
  /** Paddle Checkout's `settings.locale` for this language. */
  paddle: string;
}

export const LOCALE_INFO: Record<Locale, LocaleInfo> = {
  en: { name: 'English', label: 'ENGLISH', paddle: 'en' },
  es: { name: 'Español', label: 'ESPAÑOL', paddle: 'es' },
  fr: { name: 'Français', label: 'FRANÇAIS', paddle: 'fr' },
  de: { name: 'Deutsch', label: 'DEUTSCH', paddle: 'de' },
  'pt-BR': { name: 'Português (Brasil)', label: 'PORTUGUÊS', paddle: 'pt' },
  ar: { name: 'العربية', label: 'العربية', paddle: 'ar' },
};

type Loader = () => Promise<{ default: Messages }>;

/**
 * Each language's messages are a chunk of their own, loaded when that language is used: the first
 * page's (`app`), and the rest in two more chunks loaded with the code that shows them.
 */
export const APP_CATALOGS: Record<Locale, Loader> = {
  en: () => import('virtual:catalog/app-en'),
  es: () => import('virtual:catalog/app-es'),
  fr: () => import('virtual:catalog/app-fr'),
  de: () => import('virtual:catalog/app-de'),
  'pt-BR': () => import('virtual:catalog/app-pt-BR'),
  ar: () => import('virtual:catalog/app-ar'),
};

/** The texts of the account pages and sign-in dialog, My Gallery, the paywall and the shop widget, loaded with them. */
export const MORE_CATALOGS: Record<Locale, Loader> = {
  en: () => import('virtual:catalog/more-en'),
  es: () => import('virtual:catalog/more-es'),
  fr: () => import('virtual:catalog/more-fr'),
  de: () => import('virtual:catalog/more-de'),
  'pt-BR': () => import('virtual:catalog/more-pt-BR'),
  ar: () => import('virtual:catalog/more-ar'),
};

/** The legal pages' texts, loaded by those pages only. */
export const LEGAL_CATALOGS: Record<Locale, Loader> = {
  en: () => import('virtual:catalog/legal-en'),
  es: () => import('virtual:catalog/legal-es'),
  fr: () => import('virtual:catalog/legal-fr'),
  de: () => import('virtual:catalog/legal-de'),
  'pt-BR': () => import('virtual:catalog/legal-pt-BR'),
  ar: () => import('virtual:catalog/legal-ar'),
};
