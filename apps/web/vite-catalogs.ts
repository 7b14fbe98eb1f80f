import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';
// The contract's source by path: Vite loads its config (and Vitest this plugin) before any export
// condition applies, so the package name would ask for a build of the contract first.
import { readCatalogFolder } from '../../packages/contract/src/catalogs.ts';

const PREFIX = 'virtual:catalog/';

/**
 * Files of the `app` folder that the first page never shows: the account pages and the sign-in
 * dialog, My Gallery (and the not-found page), the paywall, the shop widget. They make a bundle of
 * their own, `more`, loaded with the code that shows them (`loadMessages('more')` in
 * src/i18n/i18n.ts); `app` is the rest.
 */
export const MORE_FILES = ['account.json', 'embed.json', 'gallery.json', 'paywall.json'];

/** The page's bundles. The contract's `server` folder (the share page's and the mail's words) is not one. */
const PAGE_BUNDLES = ['app', 'more', 'legal'];

/**
 * Every message of one of the page's bundles and one locale, merged from its files in the contract's
 * catalogs (`packages/contract/catalogs`; file order is alphabetical).
 */
export function readCatalog(bundle: string, locale: string): { messages: Record<string, string>; files: string[] } {
  if (!PAGE_BUNDLES.includes(bundle)) throw new Error(`Not a bundle of the page: ${bundle}`);
  if (bundle === 'legal') return readCatalogFolder('legal', locale);
  return readCatalogFolder('app', locale, (f) => (bundle === 'more') === MORE_FILES.includes(f));
}

/**
 * `import('virtual:catalog/<bundle>-<locale>')` (a chunk named so) gives that bundle's messages compiled from ICU
 * MessageFormat to Lingui's runtime form at build time, so the page ships no message parser.
 * A message that does not compile fails the build, naming its key.
 */
export function catalogs(): Plugin {
  return {
    name: 'aidressup-catalogs',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const name = id.slice(PREFIX.length + 1);
      const bundle = name.slice(0, name.indexOf('-'));
      const locale = name.slice(name.indexOf('-') + 1);
      if (!/^[a-z]+$/.test(bundle) || !/^[a-zA-Z-]+$/.test(locale)) throw new Error(`Bad catalog id: ${id}`);
      const { messages, files } = readCatalog(bundle, locale);
      for (const file of files) this.addWatchFile(file);
      const compiled: Record<string, unknown> = {};
      for (const [key, message] of Object.entries(messages)) {
        try {
          compiled[key] = compileMessageOrThrow(message);
        } catch (err) {
          throw new Error(`Catalog ${bundle}/${locale}: message "${key}" does not compile: ${String(err)}`);
        }
      }
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}
