import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
/** `src/i18n/catalogs/<bundle>/<locale>/*.json`: flat `{ "area.key": "ICU message" }` files. */
export const CATALOGS_DIR = path.join(here, 'src/i18n/catalogs');
const PREFIX = 'virtual:catalog/';

/**
 * Files of the `app` folder that the first page never shows: the account pages and the sign-in
 * dialog, My Gallery (and the not-found page), the paywall, the shop widget. They make a bundle of
 * their own, `more`, loaded with the code that shows them (`loadMessages('more')` in
 * src/i18n/i18n.ts); `app` is the rest.
 */
export const MORE_FILES = ['account.json', 'embed.json', 'gallery.json', 'paywall.json'];

/** Every message of one bundle and locale, merged from its files (file order is alphabetical). */
export function readCatalog(bundle: string, locale: string): { messages: Record<string, string>; files: string[] } {
  const dir = path.join(CATALOGS_DIR, bundle === 'more' ? 'app' : bundle, locale);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => (bundle === 'more' ? MORE_FILES.includes(f) : bundle !== 'app' || !MORE_FILES.includes(f)))
    .sort()
    .map((f) => path.join(dir, f));
  const messages: Record<string, string> = {};
  for (const file of files) {
    Object.assign(messages, JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>);
  }
  return { messages, files };
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
