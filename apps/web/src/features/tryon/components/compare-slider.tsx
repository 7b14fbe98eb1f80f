import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
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
/** A finger must move this far, mostly sideways, before it drags the split (else the page scrolls). */
const TOUCH_SLOP_PX = 10;

/**
 * Before/after comparison: the result with the person photo over its start side (left, or right in
 * a right-to-left language), split by a handle. The control is a native range input (Page Up/Down,
 * Home/End, dragging), labelled and with a spoken value; it covers the picture so dragging anywhere
 * moves the split. Its value is how much of the picture, from the start side, shows the photo:
 * a range input in a right-to-left page runs from right to left, so dragging follows the pointer.
 * The Left and Right arrow keys move the handle that way on screen in either direction.
 *
 * A pointer drags the split itself (the range input takes no pointer events, so a touch never snaps
 * it to the finger): a mouse at once, a finger only once it has moved sideways more than up or
 * down. The picture lets vertical panning through (`touch-action: pan-y`): a swipe up or down that
 * starts on it scrolls the page and leaves the split where it was.
 */
export function CompareSlider({ beforeUrl, afterUrl, beforeAlt, afterAlt }: CompareSliderProps) {
  const [split, setSplit] = useState(50);
  const hintId = useId();
  const t = useT();
  const dir = localeDirection(useLocale());
  const rtl = dir === 'rtl';
  /** The handle's distance from the picture's left edge, percent. */
  const fromLeft = rtl ? 100 - split : split;
  const boxRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const drag = useRef<{ id: number; x: number; y: number; dragging: boolean } | null>(null);
  /** The split under a pointer at `clientX`, as the range's value (from the start side). */
  const splitAt = (clientX: number) => {
    const rect = boxRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return split;
    const pct = Math.round(Math.min(100, Math.max(0, ((clientX - rect.left) / rect.width) * 100)));
    return rtl ? 100 - pct : pct;
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const dragging = e.pointerType !== 'touch';
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, dragging };
    if (!dragging) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    inputRef.current?.focus({ preventScroll: true });
    setSplit(splitAt(e.clientX));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    if (!d.dragging) {
      const dx = Math.abs(e.clientX - d.x);
      const dy = Math.abs(e.clientY - d.y);
      if (dy >= TOUCH_SLOP_PX && dy >= dx) {
        drag.current = null; // a vertical swipe: the page scrolls
        return;
      }
      if (dx < TOUCH_SLOP_PX) return;
      d.dragging = true;
      e.currentTarget.setPointerCapture(e.pointerId);
    }
    setSplit(splitAt(e.clientX));
  };
  const endDrag = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.id === e.pointerId) drag.current = null;
  };
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
      <div
        ref={boxRef}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        className="relative mx-auto w-fit max-w-full cursor-ew-resize touch-pan-y overflow-hidden rounded-2xl bg-ink-100 ring-1 ring-ink-200 has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-500"
        data-testid="compare-picture"
      >
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
          ref={inputRef}
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
          className="pointer-events-none absolute inset-0 m-0 h-full w-full opacity-0"
        />
      </div>
      <p id={hintId} className="mt-2 text-center text-xs text-ink-500">
        {t('tryon.compare.hint')}
      </p>
    </div>
  );
}
