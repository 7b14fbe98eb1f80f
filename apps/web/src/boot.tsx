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
  const root = createRoot(document.getElementById('root')!);
  const schemas = loadResponseSchemas().catch((e: unknown) => console.warn('Could not load the response schemas', e));
  void Promise.allSettled([startI18n(), schemas]).finally(() => {
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
}
