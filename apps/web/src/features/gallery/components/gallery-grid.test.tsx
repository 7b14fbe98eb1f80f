import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { TryOnItem } from '@aidressup/contract';
import { activateLocale, i18n } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';
import { describeItem, GalleryGrid } from './gallery-grid';

const t: Translate = (id, values) => i18n._(id, values);
const item: TryOnItem = {
  id: 'r1',
  imageUrl: '/api/results/r1.webp',
  category: 'upper_body',
  engine: 'local',
  createdAt: '2026-03-05T14:04:00.000Z',
  expiresAt: '2026-04-04T14:04:00.000Z',
  shareUrl: 'http://localhost/s/abc',
};
const madeIn = (locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(item.createdAt));

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

describe('gallery grid', () => {
  it('names a result by its category and when it was made, in English as before', () => {
    expect(describeItem(item, t, 'en')).toBe(`Upper Body result from ${madeIn('en')}`);
  });

  it('renders a result card in English', () => {
    render(
      <GalleryGrid
        items={[item]}
        engineLabel={() => 'Quick preview'}
        onShare={vi.fn()}
        onDelete={vi.fn()}
        onReport={vi.fn()}
      />,
    );
    const card = screen.getByTestId('gallery-item');
    expect(within(card).getByTestId('gallery-item-category').textContent).toBe('Upper Body');
    expect(within(card).getByTestId('gallery-item-date').textContent).toBe(madeIn('en'));
    expect(within(card).getByTestId('gallery-item-shared').textContent).toBe('Shared');
    expect(within(card).getByRole('img').getAttribute('alt')).toBe(`Try-on result, Upper Body, ${madeIn('en')}`);
    expect(within(card).getByRole('button', { name: `Delete Upper Body result from ${madeIn('en')}` })).toBeTruthy();
    expect(card.textContent).toContain('Kept until');
    expect(card.textContent).toContain('April 4, 2026');
  });

  it('renders it in the page’s language when it changes', async () => {
    render(
      <GalleryGrid
        items={[item]}
        engineLabel={() => 'Quick preview'}
        onShare={vi.fn()}
        onDelete={vi.fn()}
        onReport={vi.fn()}
      />,
    );
    await act(() => activateLocale('es'));
    const card = screen.getByTestId('gallery-item');
    expect(within(card).getByTestId('gallery-item-category').textContent).toBe('Parte superior');
    expect(within(card).getByTestId('gallery-item-date').textContent).toBe(madeIn('es'));
    expect(within(card).getByTestId('gallery-item-shared').textContent).toBe('Compartido');
    expect(card.textContent).toContain('4 de abril de 2026');
    expect(describeItem(item, t, 'es')).toBe(`Resultado (Parte superior) del ${madeIn('es')}`);
  });
});
