import { useMemo } from 'react';
import type { Locale, TryOnItem } from '@aidressup/contract';
import { categoryLabel } from '../../../i18n/category';
import { formatters, useFormat } from '../../../i18n/format';
import { useT, type Translate } from '../../../i18n/use-t';

/**
 * When a result was made, to the minute (date and time), or to the second when asked, in the
 * page's language and the browser's time zone.
 */
export function formatMadeAt(iso: string, locale: Locale, withSeconds = false): string {
  return formatters(locale).dateTime(iso, withSeconds);
}

/** How a result is named to screen readers: its category and when it was made. */
export function describeItem(item: TryOnItem, t: Translate, locale: Locale, withSeconds = false): string {
  return t('gallery.item.describe', {
    category: categoryLabel(t, item.category),
    date: formatMadeAt(item.createdAt, locale, withSeconds),
  });
}

/**
 * The ids of the results whose caption (category and minute) another result of the list shares:
 * those are told to the second, so that no two cards read alike by accident.
 */
export function sameMinuteIds(items: readonly TryOnItem[], locale: Locale): Set<string> {
  const byCaption = new Map<string, string[]>();
  for (const item of items) {
    const caption = `${item.category}|${formatMadeAt(item.createdAt, locale)}`;
    byCaption.set(caption, [...(byCaption.get(caption) ?? []), item.id]);
  }
  return new Set([...byCaption.values()].filter((ids) => ids.length > 1).flat());
}

/** `describeItem` in the page's language. */
export function useDescribeItem(): (item: TryOnItem) => string {
  const t = useT();
  const { locale } = useFormat();
  return useMemo(() => (item: TryOnItem) => describeItem(item, t, locale), [t, locale]);
}
