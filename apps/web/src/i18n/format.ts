import { useMemo } from 'react';
import type { Locale } from '@aidressup/contract';
import { useLocale } from './use-t';

/** Numbers, prices and dates written the page language's way (prices stay in their own currency). */
export interface Formatters {
  locale: Locale;
  number: (value: number) => string;
  /** "$9.99" in English, "9,99 US$" in Spanish, "US$ 9,99" in Brazilian Portuguese… */
  price: (value: number, currency?: string) => string;
  /** "March 5, 2026" in English, "5 de marzo de 2026" in Spanish… */
  date: (value: string | Date) => string;
  /** A date with its time, short ("Mar 5, 2026, 2:30 PM"), in the browser's time zone; with the seconds when asked. */
  dateTime: (value: string | Date, withSeconds?: boolean) => string;
}

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

const dateTimeCache = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: Locale, withSeconds: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withSeconds}`;
  let f = dateTimeCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: withSeconds ? 'medium' : 'short' });
    dateTimeCache.set(key, f);
  }
  return f;
}

const toDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);

export function formatters(locale: Locale): Formatters {
  return {
    locale,
    number: (value) => numberFormat(locale, {}).format(value),
    price: (value, currency = 'USD') => {
      try {
        return numberFormat(locale, { style: 'currency', currency }).format(value);
      } catch {
        return `${numberFormat(locale, { minimumFractionDigits: 2 }).format(value)} ${currency}`;
      }
    },
    date: (value) => {
      const d = toDate(value);
      return Number.isNaN(d.getTime())
        ? ''
        : d.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
    },
    dateTime: (value, withSeconds = false) => {
      const d = toDate(value);
      return Number.isNaN(d.getTime()) ? '' : dateTimeFormat(locale, withSeconds).format(d);
    },
  };
}

export function useFormat(): Formatters {
  const locale = useLocale();
  return useMemo(() => formatters(locale), [locale]);
}

/**
 * Text that reads left to right whatever the page's direction (an email address, an id, a file
 * name), isolated for use inside a translated sentence or a label: its characters keep their order
 * and the sentence's own order is left alone (Unicode's left-to-right isolate). In markup, prefer
 * `<bdi dir="ltr">`.
 */
export function isolateLtr(text: string): string {
  return `\u2066${text}\u2069`;
}
