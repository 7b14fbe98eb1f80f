/**
 * The product's words, one home for all: ICU MessageFormat catalogs in `packages/contract/catalogs`,
 * `<bundle>/<locale>/<area>.json`, each a flat `{ "<area>.key": "message" }` object. Bundles:
 * - `app`: the web app's (the Vite plugin `apps/web/vite-catalogs.ts` splits it into the first
 *   page's messages and the rest);
 * - `legal`: the legal pages';
 * - `server`: what the server writes itself, the share page (`share.json`) and the sign-in mail
 *   (`mail.json`); the page never loads it.
 * Node only (it reads files): the Vite plugin, the server and tests use it, never the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The catalogs' folder: beside `src/` and `dist/`, so sources and the build find the same one. */
export const CATALOGS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../catalogs');

export const CATALOG_BUNDLES = ['app', 'legal', 'server'] as const;
export type CatalogBundle = (typeof CATALOG_BUNDLES)[number];

export type CatalogMessages = Record<string, string>;

/**
 * Every message of one bundle folder in one language, merged from its area files in alphabetical
 * order (`keep` picks files by name), and the files read.
 */
export function readCatalogFolder(
  bundle: CatalogBundle,
  locale: string,
  keep: (file: string) => boolean = () => true,
): { messages: CatalogMessages; files: string[] } {
  const dir = path.join(CATALOGS_DIR, bundle, locale);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && keep(f))
    .sort()
    .map((f) => path.join(dir, f));
  const messages: CatalogMessages = {};
  for (const file of files) Object.assign(messages, JSON.parse(fs.readFileSync(file, 'utf8')) as CatalogMessages);
  return { messages, files };
}
