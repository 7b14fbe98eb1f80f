import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { CATALOG_BUNDLES, CATALOGS_DIR } from '@aidressup/contract/catalogs';
import { MORE_FILES, readCatalog } from '../../vite-catalogs';

type Catalog = Record<string, string>;
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Catalog;
const bundles = fs.readdirSync(CATALOGS_DIR);
const areaFiles = (bundle: string) =>
  fs
    .readdirSync(path.join(CATALOGS_DIR, bundle, 'en'))
    .filter((f) => f.endsWith('.json'))
    .sort();

/** The arguments a compiled message uses (`{name}`, `{count, plural, …}`), and its markup tags. */
function shape(message: string): { args: string[]; tags: string[] } {
  const args = new Set<string>();
  const walk = (tokens: CompiledMessage | string) => {
    if (typeof tokens === 'string') return;
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      const [name, , format] = token;
      args.add(name);
      if (format && typeof format === 'object')
        for (const [k, v] of Object.entries(format)) if (k !== 'offset') walk(v as CompiledMessage);
    }
  };
  walk(compileMessageOrThrow(message));
  const tags = [...message.matchAll(/<(\w+)>/g)].map((m) => m[1]!).sort();
  return { args: [...args].sort(), tags: [...new Set(tags)] };
}

describe('message catalogs', () => {
  it('has every language in every bundle', () => {
    // `server`: the share page's and the sign-in mail's words, written by the server.
    expect(bundles.sort()).toEqual(['app', 'legal', 'server']);
    expect([...CATALOG_BUNDLES].sort()).toEqual(bundles);
    for (const bundle of bundles)
      expect(fs.readdirSync(path.join(CATALOGS_DIR, bundle)).sort()).toEqual([...LOCALES].sort());
  });

  for (const bundle of bundles) {
    for (const file of areaFiles(bundle)) {
      const area = file.replace(/\.json$/, '');
      const en = read(path.join(CATALOGS_DIR, bundle, 'en', file));

      it(`${bundle}/${file}: ids start with "${area}." and English is not empty`, () => {
        for (const [id, message] of Object.entries(en)) {
          expect(id.startsWith(`${area}.`), id).toBe(true);
          expect(message.trim(), id).not.toBe('');
        }
      });

      for (const locale of LOCALES.filter((l) => l !== 'en')) {
        it(`${bundle}/${locale}/${file} has exactly English's ids, each with the same arguments and tags`, () => {
          const other = read(path.join(CATALOGS_DIR, bundle, locale, file));
          expect(
            Object.keys(other).filter((k) => !(k in en)),
            'ids English lacks',
          ).toEqual([]);
          expect(
            Object.keys(en).filter((k) => !(k in other)),
            'ids missing',
          ).toEqual([]);
          for (const [id, message] of Object.entries(other)) {
            expect(message.trim(), `${locale} ${id}`).not.toBe('');
            expect(shape(message), `${locale} ${id}`).toEqual(shape(en[id]!));
          }
        });
      }
    }
  }

  it('the first page’s messages leave out the areas loaded with their pages, which make the `more` bundle', () => {
    for (const locale of LOCALES) {
      const first = readCatalog('app', locale);
      const more = readCatalog('more', locale);
      expect(more.files.map((f) => path.basename(f))).toEqual([...MORE_FILES].sort());
      expect(first.files.map((f) => path.basename(f)).filter((f) => MORE_FILES.includes(f))).toEqual([]);
      // Together they are the whole app folder, each id in one of them.
      expect(first.files.length + more.files.length).toBe(areaFiles('app').length);
      expect(Object.keys(first.messages).filter((id) => id in more.messages)).toEqual([]);
      expect(Object.keys(first.messages).some((id) => id.startsWith('tryon.'))).toBe(true);
    }
  });

  it('the page never loads the server’s words', () => {
    expect(() => readCatalog('server', 'en')).toThrow('Not a bundle of the page: server');
    for (const bundle of ['app', 'more', 'legal'])
      expect(Object.keys(readCatalog(bundle, 'en').messages).filter((id) => /^(share|mail)\./.test(id))).toEqual([]);
  });

  it('English messages are the contract\u2019s texts, word for word, as the page renders them', () => {
    const en = read(path.join(CATALOGS_DIR, 'app', 'en', 'msg.json'));
    const contract = { ...MESSAGES, ...WEB_MESSAGES };
    expect(Object.keys(en).sort()).toEqual(
      Object.keys(contract)
        .map((k) => `msg.${k}`)
        .sort(),
    );
    // test-setup.ts activated English.
    for (const [key, text] of Object.entries(contract)) expect(i18n._(`msg.${key}`)).toBe(text);
  });
});
