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
import { APP_CATALOGS, LEGAL_CATALOGS, MORE_CATALOGS } from './locales';

export { i18n };

/** A saved choice wins, then the browser's languages, then English. */
function initialLocale(): Locale {
  const saved = readStorage(STORAGE_KEYS.locale);
  if (isLocale(saved)) return saved;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return matchLocale(browser.filter(Boolean)) ?? DEFAULT_LOCALE;
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}

/** The first page's messages (`app`), those of the other pages, the paywall and the shop widget (`more`), the legal texts. */
export type MessageBundle = 'app' | 'more' | 'legal';
const CATALOGS = { app: APP_CATALOGS, more: MORE_CATALOGS, legal: LEGAL_CATALOGS };

const loaded = new Set<string>();

async function load(bundle: MessageBundle, locale: Locale): Promise<void> {
  const key = `${bundle}/${locale}`;
  if (loaded.has(key)) return;
  const { default: messages } = await CATALOGS[bundle][locale]();
  i18n.load(locale, messages);
  loaded.add(key);
}

/** The bundles in use: loaded for every language the page switches to. */
const wanted = new Set<MessageBundle>(['app']);

/** The bundle will be needed: `activateLocale` loads it with the rest. */
export function wantMessages(bundle: MessageBundle): void {
  wanted.add(bundle);
}

/**
 * Loads the language's messages (every bundle in use), then makes it the page's language:
 * `<html lang dir>` follow. A language whose messages cannot be loaded (offline) leaves the page
 * as it was and rejects.
 */
export async function activateLocale(locale: Locale): Promise<void> {
  await Promise.all([...wanted].map((bundle) => load(bundle, locale)));
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

/** A bundle's messages in the current language (and in any language chosen later). */
export async function loadMessages(bundle: MessageBundle): Promise<void> {
  wanted.add(bundle);
  const locale = currentLocale();
  if (loaded.has(`${bundle}/${locale}`)) return;
  await load(bundle, locale);
  // Re-render readers of the catalog now that it holds these texts.
  i18n.activate(locale);
}

/** The legal pages' texts in the current language (and in any language chosen later). */
export function loadLegalMessages(): Promise<void> {
  return loadMessages('legal');
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
