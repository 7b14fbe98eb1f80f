import { describe, expect, it } from 'vitest';
import { LOCALES, TRYON_CATEGORY_VALUES } from '@aidressup/contract';
import { readCatalogFolder } from '@aidressup/contract/catalogs';
import { categoryName, text, type TextId } from '../texts.js';
import { renderShareNotFound, renderSharePage } from './share-page.js';

const input = {
  pageUrl: 'https://app.test/s/abc',
  imageUrl: 'https://app.test/s/abc/image',
  imageType: 'image/png',
  category: 'upper_body',
  createdAt: '2026-03-05T10:00:00.000Z',
  expiresAt: '2026-04-04T10:00:00.000Z',
};

describe('the share page in every language', () => {
  it('keeps English as it was', () => {
    const html = renderSharePage(input);
    expect(html).toContain('<html lang="en">\n');
    expect(html).toContain('<h1>A look made with <span class="accent">AI Dress Up</span></h1>');
    expect(html).toContain(
      '<p class="sub">Upper Body try-on, made on <time datetime="2026-03-05T10:00:00.000Z">March 5, 2026</time></p>',
    );
    expect(html).toContain('alt="AI try-on result, Upper Body"');
    expect(html).toContain('results are kept 30 days.</p>');
    expect(html).toContain('<footer>AI Dress Up: virtual clothing try-on</footer>');
    expect(renderSharePage({ ...input, category: 'unknown' })).toContain('<p class="sub">made on <time');
    expect(renderShareNotFound()).toContain('<h1>This link is not available</h1>');
  });

  it('labels a quick preview and says what it is, escapes "Shoes & Accessories", and labels nothing else', () => {
    expect(renderSharePage(input)).not.toContain('class="preview"');
    const preview = renderSharePage({ ...input, category: 'accessories', preview: true });
    expect(preview).toContain(
      '<p class="preview" data-testid="share-preview"><b>Quick preview</b>Made by the built-in engine: a fast sketch of the fit, not a photo-real picture.</p>',
    );
    expect(preview).toContain('<p class="sub">Shoes &amp; Accessories try-on, made on');
    expect(renderSharePage({ ...input, preview: true }, 'de')).toContain('<b>Schnellvorschau</b>');
  });

  it('writes the texts, category and dates in the visitor’s language', () => {
    const es = renderSharePage(input, 'es');
    expect(es).toContain('<html lang="es" dir="ltr">');
    expect(es).toContain('<title>Un look creado con AI Dress Up</title>');
    expect(es).toContain(
      'Prueba virtual (Parte superior), creada el <time datetime="2026-03-05T10:00:00.000Z">5 de marzo de 2026</time>',
    );
    expect(es).toContain('los resultados se guardan 30\u00a0días.');

    const ar = renderSharePage({ ...input, category: 'dresses' }, 'ar');
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain('alt="نتيجة تجربة القياس بالذكاء الاصطناعي، إطلالة كاملة"');
    expect(ar).toContain('نحتفظ بالنتائج لمدة 30 يومًا.');
    expect(renderShareNotFound('pt-BR')).toContain('<h1>Este link não está disponível</h1>');
  });

  it('has no markup of its own in any text (they are written into HTML)', () => {
    const markup = /[<>&"']/;
    // Every message of the share page (its catalog file, and the quick preview's label it shares
    // with the page), its arguments filled in.
    const ids = [
      ...Object.keys(readCatalogFolder('server', 'en', (f) => f === 'share.json').messages),
      'tryon.result.previewBadge',
      'tryon.result.previewText',
    ] as TextId[];
    expect(ids).toContain('share.until');
    for (const locale of LOCALES) {
      const texts = ids.map((id) => text(locale, id, { category: 'X', brand: 'X', date: 'Y', days: 30 }));
      for (const text of texts) expect(text, `${locale}: ${text}`).not.toMatch(markup);
      // Category names are escaped where they are used ("Shoes & Accessories" has its ampersand).
      for (const category of TRYON_CATEGORY_VALUES) {
        const name = categoryName(locale, category);
        expect(name, `${locale}: ${name}`).not.toMatch(/[<>"']/);
      }
    }
  });
});
