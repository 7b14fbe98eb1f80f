/**
 * The web app's index.html in the shopper's language: `<html lang dir>` from the language cookie,
 * else Accept-Language, and no English first paint for another language.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { tempDir } from '../test/databases.js';
import { testApps } from '../test/app.js';
import { pickEncoding, withHtmlLocale, withoutPrerenderShell } from './web.js';

/** The web app's real index.html (the build keeps its body as written). */
const INDEX_HTML = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/index.html'),
  'utf8',
);
const HERO = 'See yourself in any outfit';

describe('index.html helpers', () => {
  it('empties the prerender shell and keeps #root and the shell element', () => {
    const html = withoutPrerenderShell(INDEX_HTML);
    expect(html).toContain('<div id="root">');
    expect(html).toMatch(/<div class="[^"]*" data-prerender-shell><\/div>\s*<\/div>/);
    for (const text of [HERO, 'My Gallery', 'Sign In', 'ENGLISH', 'Virtual fitting room'])
      expect(html).not.toContain(text);
    expect(html).toContain('<script type="module"');
    expect(withoutPrerenderShell('<div id="root"></div>')).toBe('<div id="root"></div>');
  });

  it('names the language and direction on <html>, replacing any there', () => {
    expect(withHtmlLocale('<!doctype html><html lang="en"><head>', 'ar')).toBe(
      '<!doctype html><html lang="ar" dir="rtl"><head>',
    );
    expect(withHtmlLocale('<html class="x" dir=ltr>', 'pt-BR')).toBe('<html class="x" lang="pt-BR" dir="ltr">');
  });

  it('picks brotli, else gzip, as the client accepts', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('the first paint in the shopper’s language', () => {
  const make = testApps('sqlite');
  let app: FastifyInstance;
  beforeAll(async () => {
    const dist = tempDir('aidressup-web-');
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    ({ app } = await make({ webDistDir: dist }));
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('sends English, with its static first paint, when nothing names another language', async () => {
    for (const acceptLanguage of [null, 'ja-JP, ja;q=0.9', 'en-GB,en;q=0.9']) {
      const res = await get('/', acceptLanguage === null ? {} : { 'accept-language': acceptLanguage });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<html lang="en" dir="ltr">');
      expect(res.body).toContain(HERO);
      expect(res.body).toContain('<title>AI Dress Up: virtual clothing try-on</title>');
      expect(String(res.headers.vary)).toMatch(/Cookie, Accept-Language/);
    }
  });

  it('follows the language cookie first, then Accept-Language', async () => {
    const es = await get('/', { cookie: 'aidressup_locale=es', 'accept-language': 'de-DE,de;q=0.9' });
    expect(es.body).toContain('<html lang="es" dir="ltr">');
    const ar = await get('/', { cookie: 'other=1; aidressup_locale=ar' });
    expect(ar.body).toContain('<html lang="ar" dir="rtl">');
    const chosenEnglish = await get('/', { cookie: 'aidressup_locale=en', 'accept-language': 'es' });
    expect(chosenEnglish.body).toContain('<html lang="en" dir="ltr">');
    expect(chosenEnglish.body).toContain(HERO);
    // A cookie naming a language we do not speak is ignored.
    const de = await get('/', { cookie: 'aidressup_locale=xx', 'accept-language': 'fr-CA;q=0.5, de-AT' });
    expect(de.body).toContain('<html lang="de" dir="ltr">');
    const pt = await get('/', { 'accept-language': 'pt-PT,pt;q=0.9' });
    expect(pt.body).toContain('<html lang="pt-BR" dir="ltr">');
  });

  it('leaves out the English first paint in another language, on every route', async () => {
    for (const url of ['/', '/gallery', '/terms-of-service']) {
      const res = await get(url, { 'accept-language': 'fr-FR,fr;q=0.9' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers.vary)).toMatch(/Cookie, Accept-Language/);
      expect(res.body).toContain('<html lang="fr" dir="ltr">');
      expect(res.body).toContain('<div id="root">');
      expect(res.body).toContain('data-prerender-shell></div>');
      for (const text of [HERO, 'My Gallery', 'Sign In']) expect(res.body).not.toContain(text);
      expect(res.body).toContain('<title>AI Dress Up\u00a0: essayage virtuel de vêtements</title>');
    }
  });

  it('sends the page compressed to a browser that accepts it', async () => {
    const plain = await get('/', { cookie: 'aidressup_locale=ar' });
    const br = await get('/', { cookie: 'aidressup_locale=ar', 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/gallery', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain('<html lang="en" dir="ltr">');
  });
});
