import './lib/zod-config';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startI18n } from './i18n/i18n';

/**
 * Starts the app over the static first paint (index.html's copy of the nav bar and hero text):
 * the page's language (its messages are a chunk of their own) is loaded first, then the app is
 * rendered as a transition, so React yields to the browser every few milliseconds instead of
 * blocking the main thread with one long task; it replaces the static copy when done.
 */
export function boot(): void {
  const root = createRoot(document.getElementById('root')!);
  void startI18n().finally(() => {
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
}
