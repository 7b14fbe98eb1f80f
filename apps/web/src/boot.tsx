import './lib/zod-config';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startI18n } from './i18n/i18n';
import { loadResponseSchemas } from './lib/api-client';

/**
 * Starts the app over the static first paint (index.html's copy of the nav bar and hero text):
 * the page's language (its messages are a chunk of their own) and the response schemas (another
 * chunk: the cached user is checked with them at the first render) are loaded first, in parallel,
 * then the app is rendered as a transition, so React yields to the browser every few milliseconds
 * instead of blocking the main thread with one long task; it replaces the static copy when done.
 */
export function boot(): void {
  const container = document.getElementById('root')!;
  const root = createRoot(container);
  // A keyboard user may already be in the static copy when the app replaces it: focus would fall
  // to the page's body. Once the app is there, it goes to the app's own skip link instead, so the
  // next Tab carries on from the top of the page.
  let shellFocused: 'skip' | 'main' | 'other' | null = null;
  const note = (el: Element | null) => {
    if (!el?.closest('[data-prerender-shell]')) shellFocused = null;
    else shellFocused = el.matches('[data-skip-link]') ? 'skip' : el.matches('main') ? 'main' : 'other';
  };
  const noteFocus = (e: FocusEvent) => note(e.target instanceof Element ? e.target : null);
  // Focus may have moved before this code arrived (the first Tab on a slow connection).
  note(document.activeElement);
  container.addEventListener('focusin', noteFocus);
  const schemas = loadResponseSchemas().catch((e: unknown) => console.warn('Could not load the response schemas', e));
  void Promise.allSettled([startI18n(), schemas]).finally(() => {
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
    let frames = 0;
    const restore = () => {
      // Until the app has replaced the static copy (a few frames; given up after ten seconds).
      if (document.querySelector('[data-prerender-shell]') && ++frames < 600)
        return void requestAnimationFrame(restore);
      container.removeEventListener('focusin', noteFocus);
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (!shellFocused || !lost) return;
      // The skip link already followed lands on the app's main content; anything else, on the skip link.
      const next = shellFocused === 'main' ? 'main#main' : '[data-skip-link]';
      document.querySelector<HTMLElement>(next)?.focus();
    };
    requestAnimationFrame(restore);
  });
}
