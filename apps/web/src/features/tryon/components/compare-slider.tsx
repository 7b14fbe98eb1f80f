import { useId, useState } from 'react';

export interface CompareSliderProps {
  beforeUrl: string;
  afterUrl: string;
  beforeAlt: string;
  afterAlt: string;
}

/**
 * Before/after comparison: the result with the person photo over its left part, split by a handle.
 * The control is a native range input (arrow keys, Page Up/Down, Home/End), labelled and with a
 * spoken value; it covers the picture so dragging anywhere moves the split.
 */
export function CompareSlider({ beforeUrl, afterUrl, beforeAlt, afterAlt }: CompareSliderProps) {
  const [split, setSplit] = useState(50);
  const hintId = useId();
  return (
    <div data-testid="compare" className="select-none">
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
          style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}
          data-testid="compare-before"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgb(0_0_0/0.15)]"
          style={{ left: `${split}%` }}
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
        <span className="pointer-events-none absolute top-3 left-3 rounded-full bg-white/90 px-2.5 py-1 text-xs font-bold text-ink-800 shadow-sm">
          Before
        </span>
        <span className="pointer-events-none absolute top-3 right-3 rounded-full bg-gradient-to-r from-brand-600 to-fuchsia-600 px-2.5 py-1 text-xs font-bold text-white shadow-sm">
          After
        </span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={split}
          onChange={(e) => setSplit(Number(e.target.value))}
          aria-label="Compare before and after"
          aria-valuetext={`${split}% before, ${100 - split}% after`}
          aria-describedby={hintId}
          data-testid="compare-slider"
          className="absolute inset-0 m-0 h-full w-full cursor-ew-resize opacity-0"
        />
      </div>
      <p id={hintId} className="mt-2 text-center text-xs text-ink-500">
        Drag, or use the arrow keys, to compare your photo (before) with the result (after).
      </p>
    </div>
  );
}
