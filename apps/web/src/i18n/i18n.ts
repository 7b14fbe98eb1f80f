import { i18n } from '@lingui/core';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  localeDirection,
  matchLocale,
  type Locale,
} from '@aidressup/contract';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import { APP_CATALOGS, LEGAL_CATALOGS } from './locales';

export { i18n };

/** A saved choice wins, then the browser's languages, then English. */
export function initialLocale(): Locale {
  const saved = readStorage(STORAGE_KEYS.locale);
  if (isLocale(saved)) return saved;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return matchLocale(browser.filter(Boolean)) ?? DEFAULT_LOCALE;
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}

const loaded = new Set<string>();

async function load(bundle: 'app' | 'legal', locale: Locale): Promise<void> {
  const key = `${bundle}/${locale}`;
  if (loaded.has(key)) return;
  const catalogs = bundle === 'app' ? APP_CATALOGS : LEGAL_CATALOGS;
  const { default: messages } = await catalogs[locale]();
  i18n.load(locale, messages);
  loaded.add(key);
}

let legalWanted = false;

/**
 * Loads the language's messages, then makes it the page's language: `<html lang dir>` follow.
 * A language whose messages cannot be loaded (offline) leaves the page as it was and rejects.
 */
export async function activateLocale(locale: Locale): Promise<void> {
  await load('app', locale);
  if (legalWanted) await load('legal', locale);
  i18n.activate(locale);
  const root = document.documentElement;
  root.lang = locale;
  root.dir = localeDirection(locale);
}

function rememberChoice(locale: Locale): void {
  writeStorage(STORAGE_KEYS.locale, locale);
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/** The shopper's choice from the language menu: used now, and on every later visit. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  rememberChoice(locale);
}

/** The legal pages' texts in the current language (and in any language chosen later). */
export async function loadLegalMessages(): Promise<void> {
  legalWanted = true;
  const locale = currentLocale();
  await load('legal', locale);
  // Re-render readers of the catalog now that it holds the legal texts.
  i18n.activate(locale);
}

/** Starts the page in its language; falls back to English when that language's messages fail to load. */
export async function startI18n(): Promise<void> {
  const locale = initialLocale();
  // A saved choice also renews the cookie that gives the server the first paint's language.
  if (isLocale(readStorage(STORAGE_KEYS.locale))) rememberChoice(locale);
  try {
    await activateLocale(locale);
  } catch {
    if (locale !== DEFAULT_LOCALE) await activateLocale(DEFAULT_LOCALE);
  }
}
