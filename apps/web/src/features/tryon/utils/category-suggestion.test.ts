import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { activateLocale } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';
import { CATEGORY_SUGGESTION_MIN_CONFIDENCE } from '@aidressup/contract';
import { applySuggestion, suggestionNote } from './category-suggestion';

const t: Translate = (id, values) => i18n._(id, values);

describe('category suggestion', () => {
  it('preselects a confident suggestion while the shopper has not chosen by hand, and names it', () => {
    expect(applySuggestion(false, 'upper_body', { category: 'lower_body', confidence: 0.93 })).toEqual({
      category: 'lower_body',
      suggested: 'lower_body',
    });
    expect(applySuggestion(false, 'dresses', { category: 'dresses', confidence: 0.8 })).toEqual({
      category: 'dresses',
      suggested: 'dresses',
    });
  });

  it('suggests nothing the chosen engine does not offer', () => {
    expect(
      applySuggestion(false, 'accessories', { category: 'dresses', confidence: 0.99 }, ['accessories', 'upper_body']),
    ).toEqual({ category: 'accessories', suggested: null });
    expect(
      applySuggestion(false, 'accessories', { category: 'upper_body', confidence: 0.99 }, [
        'accessories',
        'upper_body',
      ]),
    ).toEqual({ category: 'upper_body', suggested: 'upper_body' });
  });

  it('takes the threshold itself as confident enough', () => {
    expect(
      applySuggestion(false, 'upper_body', { category: 'dresses', confidence: CATEGORY_SUGGESTION_MIN_CONFIDENCE }),
    ).toEqual({ category: 'dresses', suggested: 'dresses' });
  });

  it('never changes a category chosen by hand, and shows no note then', () => {
    expect(applySuggestion(true, 'dresses', { category: 'lower_body', confidence: 0.99 })).toEqual({
      category: 'dresses',
      suggested: null,
    });
    expect(applySuggestion(true, 'lower_body', { category: 'lower_body', confidence: 0.99 })).toEqual({
      category: 'lower_body',
      suggested: null,
    });
  });

  it('changes nothing for an unsure suggestion or none', () => {
    expect(applySuggestion(false, 'lower_body', { category: 'upper_body', confidence: 0.59 })).toEqual({
      category: 'lower_body',
      suggested: null,
    });
    expect(applySuggestion(false, 'upper_body', { category: 'upper_body', confidence: 0 })).toEqual({
      category: 'upper_body',
      suggested: null,
    });
    expect(applySuggestion(false, 'upper_body', { category: 'dresses', confidence: Number.NaN })).toEqual({
      category: 'upper_body',
      suggested: null,
    });
    expect(applySuggestion(false, 'dresses', null)).toEqual({ category: 'dresses', suggested: null });
  });

  it('names the category by its label', () => {
    expect(suggestionNote(t, 'lower_body')).toBe('Looks like Lower Body — change it if not');
    expect(suggestionNote(t, 'dresses')).toBe('Looks like Full Outfit — change it if not');
  });

  describe('in another language', () => {
    afterEach(() => activateLocale('en'));
    it('names the category in that language', async () => {
      await activateLocale('es');
      expect(suggestionNote(t, 'lower_body')).toBe('Parece Parte inferior: si no lo es, cambia la categoría');
    });
  });
});
