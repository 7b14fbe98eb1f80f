import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { ResultPanel } from './result-panel';
import type { TryOnState } from '../hooks/use-try-on';

afterEach(cleanup);

const errorState = (errorCode: string, error: string): TryOnState => ({
  status: 'error',
  message: null,
  error,
  errorCode,
  resultUrl: null,
  startedAt: null,
  engine: null,
  stage: null,
  estimateSeconds: null,
});

describe('result panel errors', () => {
  it('shows ENGINE_BUSY kindly: a calm "busy right now" note with the server’s message, not a failure', () => {
    render(<ResultPanel state={errorState('ENGINE_BUSY', MESSAGES.engineBusy)} onShowPlans={() => undefined} />);
    const box = screen.getByTestId('busy-box');
    expect(box.getAttribute('role')).toBe('status');
    expect(box.textContent).toContain(WEB_MESSAGES.busyTitle);
    expect(box.textContent).toContain('You have not been charged');
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.queryByText(MESSAGES.processFailed)).toBeNull();
  });

  it('shows other errors as a failure', () => {
    render(<ResultPanel state={errorState('ENGINE_FAILED', MESSAGES.engineFailed)} onShowPlans={() => undefined} />);
    expect(screen.getByTestId('error-box').textContent).toContain(MESSAGES.processFailed);
    expect(screen.queryByTestId('busy-box')).toBeNull();
  });
});
