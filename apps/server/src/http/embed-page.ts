/**
 * The widget's frame page, `/embed?key=pk_…` (docs/embed.md): the built `embed.html` with the
 * page's language and the frame's settings, and the Content-Security-Policy whose
 * `frame-ancestors` lists exactly the merchant's allowed origins, so a browser shows the frame on
 * those sites only. A missing or unknown key is still shown (anywhere: it does nothing but say
 * the button is not set up), so the shopper reads a clear message inside the frame.
 */
import { isAllowedOrigin, localeDirection, matchLocale, type Locale } from '@aidressup/contract';

export interface EmbedPageSettings {
  key: string;
  /** The shop's name; null: the key is missing or unknown. */
  merchant: string | null;
  locale: Locale;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The product's CSP with `frame-ancestors` replaced: the merchant's allowed origins, only those
 * `isAllowedOrigin` takes (none left: `'none'`); `'any'` (the key-missing message) lets any site
 * frame the page.
 */
export function embedCsp(
  base: Record<string, readonly string[]>,
  ancestors: readonly string[] | 'any',
  upgradeInsecure: boolean,
): string {
  const directives = Object.entries(base)
    .filter(([name]) => name !== 'frameAncestors')
    .map(([name, values]) => `${kebab(name)} ${values.join(' ')}`);
  const allowed = ancestors === 'any' ? ['*'] : ancestors.filter(isAllowedOrigin);
  directives.push(`frame-ancestors ${allowed.length > 0 ? allowed.join(' ') : "'none'"}`);
  if (upgradeInsecure) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** The language of the frame: the shop page's (`lang`), else the browser's. */
export function embedLocale(lang: string | undefined, fallback: Locale): Locale {
  return (lang ? matchLocale([lang]) : null) ?? fallback;
}

/** embed.html with `<html lang dir>` and the settings as a JSON island (never executed). */
export function embedPageHtml(html: string, settings: EmbedPageSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return html
    .replace(/<html\b[^>]*>/i, `<html lang="${settings.locale}" dir="${localeDirection(settings.locale)}">`)
    .replace('</head>', `<script type="application/json" id="aidressup-embed">${json}</script></head>`);
}

export const EMBED_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AI Dress Up</title></head>
<body><p>The web app is not built. Run <code>npm run build</code>, then restart the server.</p></body></html>`;
