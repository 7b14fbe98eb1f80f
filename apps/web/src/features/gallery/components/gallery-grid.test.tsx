import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { TryOnItem } from '@aidressup/contract';
import { activateLocale, i18n } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';
import { describeItem } from '../utils/describe-item';
import { GalleryGrid } from './gallery-grid';

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
const madeIn = (locale: string, iso = item.createdAt) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function renderGrid(items: TryOnItem[], over: Partial<Parameters<typeof GalleryGrid>[0]> = {}) {
  const props = {
    items,
    engineLabel: () => 'Quick preview',
    onShare: vi.fn(),
    onDelete: vi.fn(),
    onReport: vi.fn(),
    ...over,
  };
  render(<GalleryGrid {...props} />);
  return props;
}

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await act(() => activateLocale('en'));
});

describe('gallery grid', () => {
  it('names a result by its category and when it was made, in English as before', () => {
    expect(describeItem(item, t, 'en')).toBe(`Upper Body result from ${madeIn('en')}`);
  });

  it('renders a result card in English: a caption with the category and the minute it was made', () => {
    renderGrid([item]);
    const card = screen.getByTestId('gallery-item');
    const caption = within(card).getByTestId('gallery-item-caption');
    expect(caption.tagName).toBe('FIGCAPTION');
    expect(within(caption).getByTestId('gallery-item-category').textContent).toBe('Upper Body');
    expect(within(caption).getByTestId('gallery-item-date').textContent).toBe(madeIn('en'));
    expect(madeIn('en')).toMatch(/2026.*\d:04/);
    expect(within(card).getByTestId('gallery-item-shared').textContent).toBe('Shared');
    expect(within(card).getAllByRole('img')[0]!.getAttribute('alt')).toBe(`Try-on result, Upper Body, ${madeIn('en')}`);
    expect(within(card).getByRole('button', { name: `Delete Upper Body result from ${madeIn('en')}` })).toBeTruthy();
    expect(card.textContent).toContain('Kept until');
    expect(card.textContent).toContain('April 4, 2026');
  });

  it('gives two results of one category made a minute apart two different captions', () => {
    renderGrid([item, { ...item, id: 'r2', createdAt: '2026-03-05T14:05:00.000Z', shareUrl: null }]);
    const captions = screen.getAllByTestId('gallery-item-caption').map((c) => c.textContent);
    expect(captions).toHaveLength(2);
    expect(captions[0]).not.toBe(captions[1]);
    expect(screen.getAllByTestId('gallery-item-date')[1]!.textContent).toBe(madeIn('en', '2026-03-05T14:05:00.000Z'));
  });

  it('tells the second when two results of one category share a minute, and only then', () => {
    const seconds = (iso: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
    renderGrid([
      { ...item, createdAt: '2026-03-05T14:04:41.000Z' },
      { ...item, id: 'r2', createdAt: '2026-03-05T14:04:07.000Z' },
      { ...item, id: 'r3', category: 'dresses', createdAt: '2026-03-05T14:04:30.000Z' },
    ]);
    const dates = screen.getAllByTestId('gallery-item-date').map((d) => d.textContent);
    expect(dates).toEqual([
      seconds('2026-03-05T14:04:41.000Z'),
      seconds('2026-03-05T14:04:07.000Z'),
      madeIn('en', '2026-03-05T14:04:30.000Z'),
    ]);
    expect(dates[0]).toMatch(/:41/);
    // The buttons name their result the same way: no two alike.
    const reports = screen.getAllByTestId('result-report').map((b) => b.getAttribute('aria-label'));
    expect(new Set(reports).size).toBe(3);
  });

  it('shows the garment’s photo over the result while it is kept, and the category’s icon once it is not', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-05T14:10:00.000Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const kept: TryOnItem = {
      ...item,
      preview: true,
      photosKeptUntil: '2026-03-05T14:34:00.000Z',
      garmentUrl: '/api/tryons/r1/garment',
    };
    const gone: TryOnItem = { ...item, id: 'r2', preview: true, photosKeptUntil: null, garmentUrl: null };
    renderGrid([kept, gone]);
    const [first, second] = screen.getAllByTestId('gallery-item');
    const garment = within(first!).getByRole('img', { name: 'Garment photo (Upper Body)' });
    expect(garment.getAttribute('src')).toBe('/api/tryons/r1/garment');
    expect(within(first!).queryByTestId('gallery-item-garment-icon')).toBeNull();
    expect(within(second!).queryByTestId('gallery-item-garment')).toBeNull();
    expect(within(second!).getByTestId('gallery-item-garment-icon').querySelector('svg')).toBeTruthy();
    // 24 minutes later the photo's time is over: the icon takes its place without a reload.
    act(() => {
      vi.advanceTimersByTime(24 * 60_000 + 1);
    });
    expect(within(first!).queryByTestId('gallery-item-garment')).toBeNull();
    expect(within(first!).getByTestId('gallery-item-garment-icon')).toBeTruthy();
  });

  it('shows the icon when the garment photo cannot be loaded', () => {
    renderGrid([
      { ...item, preview: true, photosKeptUntil: '2099-01-01T00:00:00.000Z', garmentUrl: '/api/tryons/r1/garment' },
    ]);
    fireEvent.error(screen.getByTestId('gallery-item-garment'));
    expect(screen.queryByTestId('gallery-item-garment')).toBeNull();
    expect(screen.getByTestId('gallery-item-garment-icon')).toBeTruthy();
  });

  it('has a labelled Report button naming the result, and Download named by the try-on', () => {
    const props = renderGrid([item]);
    const name = `Upper Body result from ${madeIn('en')}`;
    const report = screen.getByRole('button', { name: `Report a problem with ${name}` });
    expect(report.textContent).toBe('Report a problem');
    fireEvent.click(report);
    expect(props.onReport).toHaveBeenCalledWith(item);
    const download = screen.getByRole('link', { name: `Download ${name}` });
    expect(download.getAttribute('download')).toBe('ai-dress-up-r1.webp');
    fireEvent.click(screen.getByRole('button', { name: `Share ${name}` }));
    expect(props.onShare).toHaveBeenCalledWith(item);
  });

  it('has no Report button once reported, and says how the report stands', () => {
    renderGrid([{ ...item, report: { status: 'pending', reason: 'wrong_garment' } }]);
    expect(screen.queryByTestId('result-report')).toBeNull();
    expect(screen.getByTestId('gallery-item-report').textContent).toBe('Reported: under review');
  });

  it('renders it in the page’s language when it changes', async () => {
    renderGrid([item]);
    await act(() => activateLocale('es'));
    const card = screen.getByTestId('gallery-item');
    expect(within(card).getByTestId('gallery-item-category').textContent).toBe('Parte superior');
    expect(within(card).getByTestId('gallery-item-date').textContent).toBe(madeIn('es'));
    expect(within(card).getByTestId('gallery-item-shared').textContent).toBe('Compartido');
    expect(within(card).getByTestId('result-report').textContent).toBe('Informar de un problema');
    expect(card.textContent).toContain('4 de abril de 2026');
    expect(describeItem(item, t, 'es')).toBe(`Resultado (Parte superior) del ${madeIn('es')}`);
  });
});
