import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { activateLocale } from '../../../i18n/i18n';
import { CompareSlider } from './compare-slider';

afterEach(cleanup);

const props = { beforeUrl: 'blob:person', afterUrl: '/api/results/a.png', beforeAlt: 'before', afterAlt: 'after' };
const slider = () => screen.getByTestId('compare-slider') as HTMLInputElement;
const handleLeft = () => screen.getByTestId('compare-handle').style.left;
const clip = () => screen.getByTestId('compare-before').style.clipPath;

describe('compare slider, left to right', () => {
  it('shows the photo on the left part, and the arrow keys move the handle that way on screen', () => {
    render(<CompareSlider {...props} />);
    expect(screen.getByTestId('compare').getAttribute('dir')).toBe('ltr');
    expect(slider().getAttribute('aria-label')).toBe('Compare before and after');
    fireEvent.change(slider(), { target: { value: '30' } });
    expect(handleLeft()).toBe('30%');
    expect(clip()).toBe('inset(0 70% 0 0)');
    expect(slider().getAttribute('aria-valuetext')).toBe('30% before, 70% after');
    fireEvent.keyDown(slider(), { key: 'ArrowRight' });
    expect(handleLeft()).toBe('31%');
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    expect(handleLeft()).toBe('29%');
    expect(screen.getByTestId('compare-before-label').textContent).toBe('Before');
    expect(screen.getByTestId('compare-before-label').className).toContain('start-3');
    expect(screen.getByTestId('compare-after-label').className).toContain('end-3');
  });
});

describe('compare slider, right to left', () => {
  afterEach(() => act(() => activateLocale('en')));

  it('mirrors: the photo on the right part, the range runs from the right, ArrowLeft still moves the handle left', async () => {
    await act(() => activateLocale('ar'));
    render(<CompareSlider {...props} />);
    expect(screen.getByTestId('compare').getAttribute('dir')).toBe('rtl');
    // Value 30: the photo covers 30 % of the picture from its right edge.
    fireEvent.change(slider(), { target: { value: '30' } });
    expect(handleLeft()).toBe('70%');
    expect(clip()).toBe('inset(0 0 0 70%)');
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    expect(slider().value).toBe('31');
    expect(handleLeft()).toBe('69%');
    fireEvent.keyDown(slider(), { key: 'ArrowRight' });
    fireEvent.keyDown(slider(), { key: 'ArrowRight' });
    expect(handleLeft()).toBe('71%');
    expect(screen.getByTestId('compare-before-label').textContent).toBe('قبل');
    expect(screen.getByTestId('compare-after-label').textContent).toBe('بعد');
    expect(slider().getAttribute('aria-label')).toBe('قارن بين قبل وبعد');
  });
});
