import { describe, expect, it } from 'vitest';
import { isLocale, localeDirection, matchLocale, parseAcceptLanguage } from './locales.js';

describe('locales', () => {
  it('matches exact tags first, then the same language in another region', () => {
    expect(matchLocale(['pt-BR'])).toBe('pt-BR');
    expect(matchLocale(['pt-PT'])).toBe('pt-BR');
    expect(matchLocale(['es-MX', 'en'])).toBe('es');
    expect(matchLocale(['de-AT'])).toBe('de');
    expect(matchLocale(['AR-eg'])).toBe('ar');
    expect(matchLocale(['ja', 'fr-CA', 'en'])).toBe('fr');
    expect(matchLocale(['ja', 'zh'])).toBeNull();
    expect(matchLocale([])).toBeNull();
  });

  it('orders Accept-Language by weight and drops q=0', () => {
    expect(parseAcceptLanguage('en;q=0.5, de-DE, fr;q=0.8, es;q=0')).toEqual(['de-DE', 'fr', 'en']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(matchLocale(parseAcceptLanguage('ja, es-419;q=0.9, en;q=0.8'))).toBe('es');
  });

  it('knows which languages are written right to left', () => {
    expect(localeDirection('ar')).toBe('rtl');
    expect(localeDirection('de')).toBe('ltr');
    expect(isLocale('pt-BR')).toBe(true);
    expect(isLocale('pt')).toBe(false);
  });
});
