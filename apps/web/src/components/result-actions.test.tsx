import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { activateLocale } from '../i18n/i18n';
import { resultFileName } from '../lib/result-file';
import { ResultActions } from './result-actions';

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

describe('result actions', () => {
  it('names every download by its try-on id, as the server does, whatever the image’s type', () => {
    expect(resultFileName('abc123', '/api/results/x.webp')).toBe('ai-dress-up-abc123.webp');
    expect(resultFileName('abc123', '/api/results/x.JPEG')).toBe('ai-dress-up-abc123.jpg');
    expect(resultFileName(null, '/api/results/x.png?v=1')).toBe('ai-dress-up-result.png');
    expect(resultFileName('abc123', 'blob:http://localhost/5f2c')).toBe('ai-dress-up-abc123.png');
  });

  it('offers Download, Share and Report with their words, each naming the result', () => {
    const onShare = vi.fn();
    const onReport = vi.fn();
    render(
      <ResultActions
        tryonId="t9"
        imageUrl="/api/results/r9.webp"
        name="Result 2"
        onShare={onShare}
        onReport={onReport}
      />,
    );
    const download = screen.getByRole('link', { name: 'Download Result 2' });
    expect(download.getAttribute('href')).toBe('/api/results/r9.webp');
    expect(download.getAttribute('download')).toBe('ai-dress-up-t9.webp');
    fireEvent.click(screen.getByRole('button', { name: 'Share Result 2' }));
    expect(onShare).toHaveBeenCalledTimes(1);
    const report = screen.getByRole('button', { name: 'Report a problem with Result 2' });
    // A labelled button: its words are on it, not an icon alone.
    expect(report.textContent).toBe('Report a problem');
    expect(report.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(report);
    expect(onReport).toHaveBeenCalledTimes(1);
  });

  it('shows only what it is given: no Share without onShare, the note instead of Report once reported', () => {
    render(
      <ResultActions tryonId="t9" imageUrl="/api/results/r9.png" onReport={vi.fn()} reportedNote="Reported: given back">
        <button type="button">Try again</button>
      </ResultActions>,
    );
    expect(screen.getByRole('link', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByTestId('result-share')).toBeNull();
    expect(screen.queryByTestId('result-report')).toBeNull();
    expect(screen.getByTestId('result-reported').textContent).toBe('Reported: given back');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('speaks the page’s language', async () => {
    render(<ResultActions tryonId="t9" imageUrl="/api/results/r9.png" onShare={vi.fn()} onReport={vi.fn()} />);
    await act(() => activateLocale('ar'));
    expect(screen.getByTestId('result-download').textContent).toBe('تنزيل');
    expect(screen.getByTestId('result-share').textContent).toBe('مشاركة');
    expect(screen.getByTestId('result-report').textContent).toBe('الإبلاغ عن مشكلة');
  });
});
