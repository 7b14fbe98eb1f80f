/** The result panel while the try-on waits in line: the place, a polite announcement, the countdown, Leave the line. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MESSAGES } from '@aidressup/contract';
import { ResultPanel } from './result-panel';
import type { TryOnState } from '../hooks/use-try-on';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const waiting = (line: TryOnState['line']): TryOnState => ({
  status: 'processing',
  message: MESSAGES.initializing,
  error: null,
  errorCode: null,
  resultUrl: null,
  startedAt: Date.now(),
  engine: 'local',
  stage: null,
  estimateSeconds: null,
  tryonId: null,
  line,
});

describe('result panel in line', () => {
  it('shows the place and expected wait, says nothing is charged, counts down to the next try and offers to leave', () => {
    const onLeave = vi.fn();
    render(
      <ResultPanel
        state={waiting({ place: 12, waitSeconds: 10, retryAt: Date.now() + 4_000 })}
        onShowPlans={() => undefined}
        onLeaveLine={onLeave}
      />,
    );
    expect(screen.getByTestId('line-place').textContent).toBe('You are number 12 — about 10 s');
    const live = screen.getByTestId('line-live');
    expect([live.getAttribute('role'), live.getAttribute('aria-live')]).toEqual(['status', 'polite']);
    expect(live.textContent).toBe('You are number 12 — about 10 s');
    expect(screen.getByTestId('line-wait').textContent).toContain('Nothing is charged until your try-on starts.');
    expect(screen.getByTestId('line-retry').textContent).toBe('Checking again in 4 s');
    // The spinner's processing view gives way to the line.
    expect(screen.queryByTestId('progress-live')).toBeNull();
    fireEvent.click(screen.getByTestId('leave-line'));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('a screen reader hears a moving place at most every 5 s; the screen shows every move', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <ResultPanel state={waiting({ place: 9, waitSeconds: 5, retryAt: null })} onShowPlans={() => undefined} />,
    );
    expect(screen.getByTestId('line-live').textContent).toBe('You are number 9 — about 5 s');
    rerender(
      <ResultPanel state={waiting({ place: 8, waitSeconds: 4, retryAt: null })} onShowPlans={() => undefined} />,
    );
    expect(screen.getByTestId('line-place').textContent).toBe('You are number 8 — about 4 s');
    expect(screen.getByTestId('line-live').textContent).toBe('You are number 9 — about 5 s');
    // Held by the server: no countdown.
    expect(screen.queryByTestId('line-retry')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.getByTestId('line-live').textContent).toBe('You are number 8 — about 4 s');
  });

  it('without a known place: "Waiting for your turn…"', () => {
    render(
      <ResultPanel state={waiting({ place: null, waitSeconds: null, retryAt: null })} onShowPlans={() => undefined} />,
    );
    expect(screen.getByTestId('line-place').textContent).toBe('Waiting for your turn…');
  });

  it('after leaving: back to idle with a focused "nothing was charged" note', () => {
    const idle: TryOnState = { ...waiting(null), status: 'idle', message: null, startedAt: null, cancelled: true };
    render(<ResultPanel state={idle} onShowPlans={() => undefined} />);
    const note = screen.getByTestId('line-cancelled');
    expect(note.textContent).toBe('You left the line. Nothing was charged.');
    expect(note.getAttribute('role')).toBe('status');
    expect(document.activeElement).toBe(note);
    expect(screen.queryByTestId('line-wait')).toBeNull();
  });
});
