/**
 * The shop widget's frame (`/embed?key=pk_…`, docs/embed.md): an entry of its own, without the
 * app's router, session or paywall. The server puts the frame's settings and the shop page's
 * language into the page (`apps/server/src/http/embed-page.ts`).
 */
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DEFAULT_LOCALE, isLocale } from '@aidressup/contract';
import { EmbedApp, type EmbedSettings } from './features/embed/components/embed-app';
import { CompareSlider } from './features/tryon/components/compare-slider';
import { activateLocale, wantMessages } from './i18n/i18n';
import './index.css';

function readSettings(): EmbedSettings & { locale: string } {
  try {
    const raw = JSON.parse(document.getElementById('aidressup-embed')?.textContent ?? '{}') as Record<string, unknown>;
    return {
      key: typeof raw.key === 'string' ? raw.key : '',
      merchant: typeof raw.merchant === 'string' ? raw.merchant : null,
      locale: typeof raw.locale === 'string' ? raw.locale : DEFAULT_LOCALE,
    };
  } catch {
    return { key: '', merchant: null, locale: DEFAULT_LOCALE };
  }
}

const settings = readSettings();
const locale = isLocale(settings.locale) ? settings.locale : DEFAULT_LOCALE;
const root = createRoot(document.getElementById('root')!);
// The widget's own texts are in the `more` messages.
wantMessages('more');
void activateLocale(locale)
  .catch(() => activateLocale(DEFAULT_LOCALE))
  .finally(() => {
    root.render(
      <StrictMode>
        <EmbedApp settings={settings} Compare={CompareSlider} />
      </StrictMode>,
    );
  });
