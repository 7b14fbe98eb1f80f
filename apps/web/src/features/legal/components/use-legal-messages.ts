import { createContext, use, useContext } from 'react';
import { setupI18n } from '@lingui/core';
import { loadLegalMessages } from '../../../i18n/i18n';
import { LEGAL_CATALOGS } from '../../../i18n/locales';
import type { Translate } from '../../../i18n/use-t';

let legalReady: Promise<void> | null = null;
let legalLoaded = false;

/**
 * Loads the legal pages' texts (a chunk of their own) once. The router starts it together with the
 * page's code, so the page appears once, complete. A failed load is retried on the next call.
 */
export function preloadLegalMessages(): Promise<void> {
  legalReady ??= loadLegalMessages().then(
    () => {
      legalLoaded = true;
    },
    (err: unknown) => {
      legalReady = null;
      throw err;
    },
  );
  return legalReady;
}

/**
 * Suspends the page until its texts are loaded (the route's Suspense fallback is the page's
 * loading state); the error of a failed load reaches the route's error page. Later language
 * switches load the new language's legal texts before the switch (`activateLocale`).
 */
export function useLegalMessages(): true {
  if (!legalLoaded) use(preloadLegalMessages());
  return true;
}

let englishReady: Promise<Translate> | null = null;

/** The legal texts in English, the governing version, whatever the page's language. */
export function loadEnglishLegal(): Promise<Translate> {
  englishReady ??= LEGAL_CATALOGS.en().then(
    ({ default: messages }) => {
      const en = setupI18n({ locale: 'en', messages: { en: messages } });
      return (id, values) => en._(id, values);
    },
    (err: unknown) => {
      englishReady = null;
      throw err;
    },
  );
  return englishReady;
}

/** What the legal texts are rendered with: the page's language, or English on request. */
export interface LegalText {
  t: Translate;
  english: boolean;
}

export const LegalTextContext = createContext<LegalText | null>(null);

export function useLegalText(): LegalText {
  const value = useContext(LegalTextContext);
  if (!value) throw new Error('useLegalText() outside a <LegalPage>');
  return value;
}
