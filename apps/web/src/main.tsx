import './lib/zod-config';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startI18n } from './i18n/i18n';
import './index.css';

// index.html already paints a static copy of the nav bar and hero text; rendering the app as a
// transition lets React yield to the browser every few milliseconds instead of blocking the main
// thread with one long task, and it replaces that copy when done.
// The page's language (its messages are a chunk of their own) is loaded first.
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
