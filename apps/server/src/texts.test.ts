import { describe, expect, it } from 'vitest';
import { LOCALES, MESSAGES, TRYON_CATEGORIES } from '@aidressup/contract';
import { readCatalogFolder } from '@aidressup/contract/catalogs';
import { categoryName, htmlText, text } from './texts.js';

describe('the server’s words', () => {
  it('are the catalogs’ messages, the shared ones in the very words the page shows', () => {
    for (const locale of LOCALES) {
      const app = readCatalogFolder('app', locale).messages;
      const server = readCatalogFolder('server', locale).messages;
      expect(text(locale, 'share.cta')).toBe(server['share.cta']);
      expect(text(locale, 'msg.signInMailSubject')).toBe(app['msg.signInMailSubject']);
      for (const { value } of TRYON_CATEGORIES)
        expect(categoryName(locale, value)).toBe(app[`common.category.${value}`]);
    }
    expect(text('en', 'msg.signInMailSubject')).toBe(MESSAGES.signInMailSubject);
    for (const { value, label } of TRYON_CATEGORIES) expect(categoryName('en', value)).toBe(label);
  });

  it('fill in arguments and count by each language’s plural rules', () => {
    expect(text('en', 'mail.signIn.codeLine', { code: '042917' })).toBe('Your AI Dress Up sign-in code is 042917');
    expect(text('en', 'mail.signIn.validity', { minutes: 1 })).toBe('The code and the link work once, for 1 minute.');
    expect(text('en', 'mail.signIn.validity', { minutes: 10 })).toBe(
      'The code and the link work once, for 10 minutes.',
    );
    const arabicDays = (days: number) => text('ar', 'share.notFound.text', { days }).replace(/^.*لمدة /, '');
    expect([1, 2, 3, 11, 100].map(arabicDays)).toEqual(['يوم واحد.', 'يومين.', '3 أيام.', '11 يومًا.', '100 يوم.']);
    expect(text('fr', 'share.until', { date: 'T', days: 1 })).toMatch(/conservés 1\u00a0jour\.$/);
  });

  it('written into HTML, escape the words and values but not the markup given', () => {
    const time = '<time datetime="2026-03-05">5 March</time>';
    expect(htmlText('en', 'share.made', { category: 'Shoes & <Bags>' }, { date: time })).toBe(
      `Shoes &amp; &lt;Bags&gt; try-on, made on ${time}`,
    );
    expect(htmlText('de', 'common.category.accessories')).toBe('Schuhe &amp; Accessoires');
    expect(htmlText('en', 'share.heading', {}, { brand: '<b>AI Dress Up</b>' })).toBe(
      'A look made with <b>AI Dress Up</b>',
    );
  });
});
