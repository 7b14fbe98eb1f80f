import { describe, expect, it } from 'vitest';
import { LOCALES, MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { readCatalog } from '../../../../vite-catalogs';
import { missingPhotosNotice } from './missing-photos';

describe('missingPhotosNotice', () => {
  it('keeps the specification’s words and says which photo is missing', () => {
    expect(missingPhotosNotice(true, false)).toBe('Please upload both photos! The clothing photo is missing.');
    expect(missingPhotosNotice(false, true)).toBe('Please upload both photos! The person photo is missing.');
    expect(missingPhotosNotice(false, false)).toBe(
      'Please upload both photos! The person photo and the clothing photo are missing.',
    );
    expect(missingPhotosNotice(true, true)).toBeNull();
  });

  it('starts, in every language, with that language’s words for the specification’s message', () => {
    for (const locale of LOCALES) {
      const catalog = readCatalog('app', locale).messages;
      const both = catalog['msg.uploadBothPhotos']!;
      for (const key of ['uploadPersonMissing', 'uploadClothingMissing', 'uploadBothMissing'] as const) {
        const text = catalog[`msg.${key}`]!;
        expect(text.startsWith(`${both} `), `${locale} ${key}`).toBe(true);
        expect(text.length, `${locale} ${key}`).toBeGreaterThan(both.length + 5);
        if (locale === 'en') expect(text).toBe(WEB_MESSAGES[key]);
      }
      if (locale === 'en') expect(both).toBe(MESSAGES.uploadBothPhotos);
    }
  });
});
