import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { LOCALES, MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { readCatalog } from '../../../../vite-catalogs';
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
  tryonId: null,
});

describe('result panel errors', () => {
  it('says in two short lines what photo works when the garment could not be placed, and offers a hosted engine only when given one', () => {
    const onRun = vi.fn();
    const state = errorState('GARMENT_NOT_PLACED', MESSAGES.garmentNotPlaced);
    render(<ResultPanel state={state} onShowPlans={() => undefined} />);
    const lines = screen.getByTestId('error-message').querySelectorAll('p');
    expect([...lines].map((l) => l.textContent)).toEqual([
      'The clothing could not be placed on the body in this photo. You have not been charged.',
      'Use a full-length photo of one person standing, facing the camera, arms a little away from the body.',
    ]);
    expect(screen.getByTestId('error-box').textContent).toContain(MESSAGES.processFailed);
    // Without a hosted engine: no word of one.
    expect(screen.getByTestId('error-box').textContent).not.toMatch(/engine/i);
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();

    render(
      <ResultPanel
        state={state}
        onShowPlans={() => undefined}
        alternativeEngine={{ label: 'Nano Banana (Gemini)', onRun, reason: 'notPlaced' }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try with Nano Banana (Gemini)' }));
    expect(onRun).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('alternative-engine').textContent).toContain('which may handle this photo');
  });

  it('keeps the server’s message the two lines, in every language', () => {
    for (const locale of LOCALES) {
      const m = readCatalog('app', locale).messages;
      expect(m['msg.garmentNotPlaced'], locale).toBe(
        `${m['tryon.result.notPlaced.what']} ${m['tryon.result.notPlaced.works']}`,
      );
      expect(m['msg.garmentNotPlaced'], locale).not.toMatch(/engine|moteur|motor|محرك/i);
    }
    expect(readCatalog('app', 'en').messages['msg.garmentNotPlaced']).toBe(MESSAGES.garmentNotPlaced);
  });

  it('shows ENGINE_BUSY kindly: a calm "busy right now" note with the server’s message, not a failure', () => {
    render(<ResultPanel state={errorState('ENGINE_BUSY', MESSAGES.engineBusy)} onShowPlans={() => undefined} />);
    const box = screen.getByTestId('busy-box');
    expect(box.getAttribute('role')).toBe('status');
    expect(box.textContent).toContain(WEB_MESSAGES.busyTitle);
    expect(box.textContent).toContain('You have not been charged');
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.queryByText(MESSAGES.processFailed)).toBeNull();
  });

  it('says "several try-ons under way" for TOO_MANY_REQUESTS and "back in a moment" for an outage, calmly, not as failures', () => {
    for (const [code, message, title] of [
      ['TOO_MANY_REQUESTS', MESSAGES.tooManyTryOns, WEB_MESSAGES.tooManyTitle],
      ['SERVICE_UNAVAILABLE', MESSAGES.tryOnOutage, WEB_MESSAGES.outageTitle],
    ] as const) {
      render(<ResultPanel state={errorState(code, message)} onShowPlans={() => undefined} />);
      const box = screen.getByTestId('busy-box');
      expect(box.getAttribute('role')).toBe('status');
      expect(box.getAttribute('data-code')).toBe(code);
      expect(box.textContent).toContain(title);
      expect(box.textContent).toContain(message);
      expect(screen.queryByTestId('error-box')).toBeNull();
      cleanup();
    }
  });

  it('offers the engine a refusal names as a button, "Try with <engine>", which runs it', () => {
    const onRun = vi.fn();
    render(
      <ResultPanel
        state={errorState('GARMENT_WORN', MESSAGES.garmentWorn)}
        onShowPlans={() => undefined}
        alternativeEngine={{ label: 'Nano Banana (Gemini)', onRun }}
      />,
    );
    const button = screen.getByRole('button', { name: 'Try with Nano Banana (Gemini)' });
    expect(screen.getByTestId('error-box').contains(button)).toBe(true);
    expect(screen.getByTestId('alternative-engine').textContent).toContain('it uses one try-on');
    fireEvent.click(button);
    expect(onRun).toHaveBeenCalledOnce();
  });

  it('shows other errors as a failure', () => {
    render(<ResultPanel state={errorState('ENGINE_FAILED', MESSAGES.engineFailed)} onShowPlans={() => undefined} />);
    expect(screen.getByTestId('error-box').textContent).toContain(MESSAGES.processFailed);
    expect(screen.queryByTestId('busy-box')).toBeNull();
  });
});

const base: TryOnState = {
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
};

describe('result panel progress and result', () => {
  it('keeps the spec’s words for a hosted engine and says seconds for the built-in one', () => {
    const hosted = render(
      <ResultPanel
        state={base}
        onShowPlans={() => undefined}
        engine={{ kind: 'hosted', estimate: { min: 30, max: 60 } }}
      />,
    );
    expect(screen.getByTestId('progress-message').textContent).toBe(MESSAGES.initializing);
    expect(screen.getByTestId('progress-estimate').textContent).toBe(MESSAGES.processingNote);
    hosted.unmount();
    render(
      <ResultPanel
        state={{ ...base, stage: 'queued' }}
        onShowPlans={() => undefined}
        engine={{ kind: 'local', estimate: { min: 1, max: 5 } }}
      />,
    );
    expect(screen.getByTestId('progress-estimate').textContent).toBe('Usually ready in a few seconds.');
    const live = screen.getByTestId('progress-live');
    expect(live.getAttribute('aria-live')).toBe('polite');
    expect(live.textContent).toContain('Waiting for a free engine…');
  });

  it('labels a built-in result as a quick preview, points to a hosted engine, and compares with the photo', async () => {
    const done: TryOnState = {
      ...base,
      status: 'success',
      message: MESSAGES.completed,
      resultUrl: '/api/results/a.png',
      startedAt: null,
    };
    render(
      <ResultPanel
        state={done}
        onShowPlans={() => undefined}
        engine={{ kind: 'local', estimate: { min: 1, max: 5 } }}
        beforeUrl="blob:person"
        hostedEngine={{ label: 'FASHN', selected: false, onUse: () => undefined }}
        onTryAnotherGarment={() => undefined}
      />,
    );
    expect(screen.getByTestId('preview-badge').textContent).toBe('Quick preview');
    expect(screen.getByTestId('hosted-pointer').textContent).toContain('For a photo-real result, choose FASHN.');
    // The slider loads with the first result (the result shows as a plain image until then).
    const slider = await screen.findByRole('slider', { name: 'Compare before and after' });
    expect((slider as HTMLInputElement).value).toBe('50');
    expect(screen.getByText('Before')).toBeTruthy();
    expect(screen.getByText('After')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try another garment' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });

  it('shows no preview label for a hosted engine’s result', () => {
    const done: TryOnState = {
      ...base,
      status: 'success',
      message: MESSAGES.completed,
      resultUrl: '/api/results/a.png',
      engine: 'fashn',
    };
    render(
      <ResultPanel
        state={done}
        onShowPlans={() => undefined}
        engine={{ kind: 'hosted', estimate: { min: 30, max: 60 } }}
      />,
    );
    expect(screen.queryByTestId('preview-badge')).toBeNull();
    expect(screen.getByTestId('result-image')).toBeTruthy();
  });
});

describe('result panel: "Make it photo-real"', () => {
  const preview: TryOnState = {
    ...base,
    status: 'success',
    message: MESSAGES.completed,
    resultUrl: '/api/results/r.jpg',
    tryonId: 't1',
  };
  const local = { kind: 'local' as const, estimate: { min: 1, max: 5 } };

  it('offers the photo-real version while the photos are kept, and runs it on a click', () => {
    let runs = 0;
    render(
      <ResultPanel
        state={preview}
        onShowPlans={() => undefined}
        engine={local}
        photoReal={{
          label: 'Nano Banana (Gemini)',
          keptUntil: new Date(Date.now() + 60_000).toISOString(),
          onRun: () => runs++,
        }}
      />,
    );
    expect(screen.getByTestId('preview-badge').textContent).toBe('Quick preview');
    const button = screen.getByTestId('make-photo-real');
    expect(button.textContent).toBe('Make it photo-real with Nano Banana (Gemini)');
    button.click();
    expect(runs).toBe(1);
    expect(screen.queryByTestId('photos-gone')).toBeNull();
  });

  it('explains that the photos are gone once their time is up, with no button', () => {
    render(
      <ResultPanel
        state={preview}
        onShowPlans={() => undefined}
        engine={local}
        photoReal={{
          label: 'Nano Banana (Gemini)',
          keptUntil: new Date(Date.now() - 1).toISOString(),
          onRun: () => undefined,
        }}
      />,
    );
    expect(screen.getByTestId('photos-gone').textContent).toBe(MESSAGES.photosGone);
    expect(screen.queryByTestId('make-photo-real')).toBeNull();
  });

  it('shows neither label nor offer on a hosted result', () => {
    render(
      <ResultPanel
        state={{ ...preview, engine: 'nano-banana' }}
        onShowPlans={() => undefined}
        engine={{ kind: 'hosted', estimate: { min: 30, max: 60 } }}
      />,
    );
    expect(screen.queryByTestId('preview-note')).toBeNull();
    expect(screen.queryByTestId('make-photo-real')).toBeNull();
  });
});
