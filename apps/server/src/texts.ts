/**
 * The words the server writes itself, the share page (`http/share-page.ts`) and the sign-in mail
 * (`mail/sign-in-mail.ts`), from the contract's message catalogs, where the page's words are too:
 * the `server` bundle (`share.json`, `mail.json`; the page never loads it) and the ids the server
 * shares with the page (`SHARED_IDS`: category names, the quick preview's label, the mail's
 * subject). Read and compiled once, when the server starts, by the compiler the web build uses
 * (ICU MessageFormat: arguments, plurals by the language's rules); a message that a language lacks
 * or that does not compile stops the start, naming it.
 */
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { LOCALES, TRYON_CATEGORY_VALUES, type Locale, type TryOnCategory } from '@aidressup/contract';
import { readCatalogFolder } from '@aidressup/contract/catalogs';
import type share from '@aidressup/contract/catalogs/server/en/share.json';
import type mail from '@aidressup/contract/catalogs/server/en/mail.json';
import { escapeHtml } from './html.js';

/** The page's messages that the server writes too, in the very words the page shows. */
const SHARED_IDS = [
  ...TRYON_CATEGORY_VALUES.map((category) => `common.category.${category}` as const),
  'tryon.result.previewBadge',
  'tryon.result.previewText',
  'msg.signInMailSubject',
] as const;

export type TextId = keyof typeof share | keyof typeof mail | (typeof SHARED_IDS)[number];
export type TextValues = Record<string, string | number>;

/** The `app` files that hold them: an id starts with its file's name (`common.category.dresses`). */
const SHARED_FILES = new Set(SHARED_IDS.map((id) => `${id.slice(0, id.indexOf('.'))}.json`));

/** The messages of one language, compiled, in an i18n instance of their own. */
function load(locale: Locale): I18n {
  const app = readCatalogFolder('app', locale, (file) => SHARED_FILES.has(file)).messages;
  const messages: Record<string, string> = { ...readCatalogFolder('server', locale).messages };
  for (const id of SHARED_IDS) {
    const message = app[id];
    if (message === undefined) throw new Error(`Catalog app/${locale} has no message "${id}"`);
    messages[id] = message;
  }
  const compiled: Record<string, ReturnType<typeof compileMessageOrThrow>> = {};
  for (const [id, message] of Object.entries(messages)) {
    try {
      compiled[id] = compileMessageOrThrow(message);
    } catch (err) {
      throw new Error(`Catalog ${locale}: message "${id}" does not compile: ${String(err)}`);
    }
  }
  return setupI18n({ locale, messages: { [locale]: compiled } });
}

const catalogs = new Map<Locale, I18n>(LOCALES.map((locale) => [locale, load(locale)]));
const english = catalogs.get('en')!;
for (const [locale, i18n] of catalogs) {
  const missing = Object.keys(english.messages).find((id) => !(id in i18n.messages));
  if (missing) throw new Error(`Catalog server/${locale} has no message "${missing}"`);
}

/** A message in `locale` as plain text, its arguments filled in. */
export function text(locale: Locale, id: TextId, values?: TextValues): string {
  return catalogs.get(locale)!._(id, values);
}

/** A category's name as the page shows it ("Upper Body"). */
export function categoryName(locale: Locale, category: TryOnCategory): string {
  return text(locale, `common.category.${category}`);
}

/**
 * A message written into HTML: its words and `values` escaped, each of `markup` (HTML the caller
 * made, such as a `<time>` element) put in as it is.
 */
export function htmlText(
  locale: Locale,
  id: TextId,
  values: TextValues = {},
  markup: Record<string, string> = {},
): string {
  const names = Object.keys(markup);
  // Stand-ins (private-use characters around an index) that no message holds and escaping keeps,
  // swapped for the markup once the rest is escaped.
  const standIns = Object.fromEntries(names.map((name, i) => [name, `\ue000${i}\ue001`]));
  const escaped = escapeHtml(text(locale, id, { ...values, ...standIns }));
  return escaped.replace(/\ue000(\d+)\ue001/g, (_, i: string) => markup[names[Number(i)]!]!);
}
