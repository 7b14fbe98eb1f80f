import { Fragment, createElement, useCallback, useSyncExternalStore, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { isLocale, type Locale } from '@aidressup/contract';
import type common from '@aidressup/contract/catalogs/app/en/common.json';
import type tryon from '@aidressup/contract/catalogs/app/en/tryon.json';
import type account from '@aidressup/contract/catalogs/app/en/account.json';
import type paywall from '@aidressup/contract/catalogs/app/en/paywall.json';
import type gallery from '@aidressup/contract/catalogs/app/en/gallery.json';
import type report from '@aidressup/contract/catalogs/app/en/report.json';
import type layout from '@aidressup/contract/catalogs/app/en/layout.json';
import type msg from '@aidressup/contract/catalogs/app/en/msg.json';
import type embed from '@aidressup/contract/catalogs/app/en/embed.json';
import type photos from '@aidressup/contract/catalogs/app/en/photos.json';
import type press from '@aidressup/contract/catalogs/app/en/press.json';
import type legal from '@aidressup/contract/catalogs/legal/en/legal.json';

/** Every message id English has: a typo in an id fails the type check. */
export type MessageId =
  | keyof typeof common
  | keyof typeof tryon
  | keyof typeof account
  | keyof typeof paywall
  | keyof typeof gallery
  | keyof typeof report
  | keyof typeof layout
  | keyof typeof msg
  | keyof typeof embed
  | keyof typeof photos
  | keyof typeof press
  | keyof typeof legal;

type MessageValues = Record<string, string | number>;
export type Translate = (id: MessageId, values?: MessageValues) => string;

/** Counts every change of language or catalogs, so readers know when to render again. */
let version = 0;
i18n.on('change', () => {
  version += 1;
});

function subscribe(onChange: () => void): () => void {
  return i18n.on('change', onChange);
}
const snapshot = () => version;

function useCatalogVersion(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The page's language, re-rendering the component when it changes. */
export function useLocale(): Locale {
  useCatalogVersion();
  return isLocale(i18n.locale) ? i18n.locale : 'en';
}

/**
 * The current language's `t(id, values)`: ICU MessageFormat with plurals (`{count, plural, …}`).
 * Components re-render when the language changes (or a catalog is added to it); the function's
 * identity changes with it, so memoised users re-run.
 */
export function useT(): Translate {
  const v = useCatalogVersion();
  return useCallback<Translate>(
    (id, values) => (i18n.locale ? i18n._(id, values) : id),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [v],
  );
}
/**
 * A translated message with tags for markup: `<0>terms</0>` in the message becomes
 * `tags[0]('terms')`. Tags do not nest.
 */
export function rich(message: string, tags: Record<string, (children: string) => ReactNode>): ReactNode {
  const parts: ReactNode[] = [];
  const re = /<(\w+)>(.*?)<\/\1>/gs;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(message))) {
    if (m.index > last) parts.push(message.slice(last, m.index));
    const render = tags[m[1]!];
    parts.push(createElement(Fragment, { key: parts.length }, render ? render(m[2]!) : m[2]));
    last = re.lastIndex;
  }
  if (last < message.length) parts.push(message.slice(last));
  return createElement(Fragment, null, ...parts);
}
