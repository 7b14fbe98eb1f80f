import { useId, useState, type KeyboardEvent } from 'react';
import { localeDirection } from '@aidressup/contract';
import { useLocale, useT } from '../../../i18n/use-t';

export interface CompareSliderProps {
  beforeUrl: string;
  afterUrl: string;
  beforeAlt: string;
  afterAlt: string;
}

/** Moves the split by this many percent per arrow key press. */
const KEY_STEP = 1;

/**
 * Before/after comparison: the result with the person photo over its start side (left, or right in
 * a right-to-left language), split by a handle. The control is a native range input (Page Up/Down,
 * Home/End, dragging), labelled and with a spoken value; it covers the picture so dragging anywhere
 * moves the split. Its value is how much of the picture, from the start side, shows the photo:
 * a range input in a right-to-left page runs from right to left, so dragging follows the pointer.
 * The Left and Right arrow keys move the handle that way on screen in either direction.
 */
export function CompareSlider({ beforeUrl, afterUrl, beforeAlt, afterAlt }: CompareSliderProps) {
  const [split, setSplit] = useState(50);
  const hintId = useId();
  const t = useT();
  const dir = localeDirection(useLocale());
  const rtl = dir === 'rtl';
  /** The handle's distance from the picture's left edge, percent. */
  const fromLeft = rtl ? 100 - split : split;
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const towardsRight = e.key === 'ArrowRight';
    // Moving right on screen grows the photo's part in a left-to-right page, shrinks it in a right-to-left one.
    const change = towardsRight === rtl ? -KEY_STEP : KEY_STEP;
    setSplit((s) => Math.min(100, Math.max(0, s + change)));
  };
  return (
    <div data-testid="compare" dir={dir} className="select-none">
      <div className="relative mx-auto w-fit max-w-full overflow-hidden rounded-2xl bg-ink-100 ring-1 ring-ink-200 has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-500">
        <img
          src={afterUrl}
          alt={afterAlt}
          className="block max-h-[70vh] w-auto max-w-full object-contain"
          data-testid="result-image"
        />
        <img
          src={beforeUrl}
          alt={beforeAlt}
          className="absolute inset-0 h-full w-full bg-ink-100 object-contain"
          style={{ clipPath: rtl ? `inset(0 0 0 ${100 - split}%)` : `inset(0 ${100 - split}% 0 0)` }}
          data-testid="compare-before"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgb(0_0_0/0.15)]"
          style={{ left: `${fromLeft}%` }}
          data-testid="compare-handle"
        >
          <span className="absolute top-1/2 left-1/2 grid size-9 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-brand-700 shadow-md ring-1 ring-ink-200">
            <svg
              viewBox="0 0 24 24"
              className="size-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="m9 6-6 6 6 6M15 6l6 6-6 6" />
            </svg>
          </span>
        </div>
        <span
          className="pointer-events-none absolute start-3 top-3 rounded-full bg-white/90 px-2.5 py-1 text-xs font-bold text-ink-800 shadow-sm"
          data-testid="compare-before-label"
        >
          {t('tryon.label.before')}
        </span>
        <span
          className="pointer-events-none absolute end-3 top-3 rounded-full bg-gradient-to-r from-brand-600 to-fuchsia-600 px-2.5 py-1 text-xs font-bold text-white shadow-sm"
          data-testid="compare-after-label"
        >
          {t('tryon.label.after')}
        </span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={split}
          onChange={(e) => setSplit(Number(e.target.value))}
          onKeyDown={onKeyDown}
          aria-label={t('tryon.compare.label')}
          aria-valuetext={t('tryon.compare.valueText', { before: split, after: 100 - split })}
          aria-describedby={hintId}
          data-testid="compare-slider"
          className="absolute inset-0 m-0 h-full w-full cursor-ew-resize opacity-0"
        />
      </div>
      <p id={hintId} className="mt-2 text-center text-xs text-ink-500">
        {t('tryon.compare.hint')}
      </p>
    </div>
  );
}
