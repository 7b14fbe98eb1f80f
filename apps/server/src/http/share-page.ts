/**
 * The public page of a shared result (`/s/<token>`): standalone HTML with its own small inline
 * stylesheet in the web app's colours (no script, no external assets), and Open Graph and
 * Twitter tags so a pasted link shows the image. Not indexed by search engines. Written in the
 * visitor's language (the `share.*` messages of the contract's catalogs, through `texts.ts`),
 * English when none is given.
 */
import {
  TRYON_CATEGORY_VALUES,
  DEFAULT_LOCALE,
  localeDirection,
  RESULT_RETENTION_DAYS,
  type TryOnCategory,
  type Locale,
} from '@aidressup/contract';
import { escapeHtml } from '../html.js';
import { categoryName, htmlText, text } from '../texts.js';

const PRODUCT_NAME = 'AI Dress Up';

const dayFormats = new Map<Locale, Intl.DateTimeFormat>();
function dayFormat(locale: Locale): Intl.DateTimeFormat {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format;
}

const BRAND_MARK = `<svg viewBox="0 0 64 64" width="32" height="32" aria-hidden="true" focusable="false"><defs><linearGradient id="brand-mark-gradient" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#c026d3"/></linearGradient></defs><rect width="64" height="64" rx="16" fill="url(#brand-mark-gradient)"/><path d="M23 14 15 19l-3 9 6 2.5V50h28V30.5l6-2.5-3-9-8-5c-1.2 3-4.4 5-9 5s-7.8-2-9-5Z" fill="#fff"/></svg>`;

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#fafafa;color:#18181b;
font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif;line-height:1.5;-webkit-font-smoothing:antialiased}
a{color:inherit}
:focus-visible{outline:3px solid #8b5cf6;outline-offset:2px}
header{border-bottom:1px solid #e4e4e7;background:#fff}
.bar{max-width:72rem;margin:0 auto;padding:0 1rem;height:4rem;display:flex;align-items:center}
.brand{display:inline-flex;align-items:center;gap:.625rem;font-size:1.125rem;font-weight:800;letter-spacing:-.025em;text-decoration:none;color:#09090b;border-radius:.5rem}
main{flex:1;width:100%;max-width:40rem;margin:0 auto;padding:2rem 1rem 3rem;text-align:center}
h1{margin:0;font-size:1.875rem;line-height:1.2;font-weight:800;letter-spacing:-.025em;color:#09090b}
.accent{white-space:nowrap;background:linear-gradient(90deg,#7c3aed,#c026d3);-webkit-background-clip:text;background-clip:text;color:transparent}
.sub{margin:.5rem 0 0;color:#52525b}
figure{margin:1.5rem 0 0;overflow:hidden;border:1px solid #e4e4e7;border-radius:1.5rem;background:#f4f4f5;box-shadow:0 1px 2px rgba(0,0,0,.05)}
figure img{display:block;width:100%;height:auto;max-height:75vh;object-fit:contain}
.cta{display:inline-flex;align-items:center;justify-content:center;gap:.5rem;margin-top:1.75rem;height:3.5rem;padding:0 2rem;border-radius:.75rem;
background:linear-gradient(90deg,#7c3aed,#c026d3);color:#fff;font-weight:600;font-size:1rem;text-decoration:none;box-shadow:0 10px 15px -3px rgba(124,58,237,.25)}
.cta:hover{background:linear-gradient(90deg,#6d28d9,#a21caf)}
.note{margin:1rem 0 0;font-size:.875rem;color:#71717a}
.preview{margin:1rem auto 0;max-width:36rem;padding:.75rem 1rem;border:1px solid #fde68a;border-radius:1rem;background:#fffbeb;color:#451a03;font-size:.875rem}
.preview b{display:inline-block;margin-inline-end:.5rem;padding:.125rem .625rem;border-radius:999px;background:#fde68a;font-size:.75rem}
footer{border-top:1px solid #e4e4e7;background:#fff;padding:1.25rem 1rem;text-align:center;font-size:.875rem;color:#71717a}
@media (min-width:640px){h1{font-size:2.25rem}main{padding-top:3rem}.bar{padding:0 1.5rem}}
`;

function page(locale: Locale, head: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}"${locale === DEFAULT_LOCALE ? '' : ` dir="${localeDirection(locale)}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="theme-color" content="#7c3aed">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
${head}
<style>${STYLE}</style>
</head>
<body>
<header><div class="bar"><a class="brand" href="/">${BRAND_MARK}<span>${PRODUCT_NAME}</span></a></div></header>
<main>
${body}
</main>
<footer>${htmlText(locale, 'share.footer')}</footer>
</body>
</html>
`;
}

export interface SharePageInput {
  /** Absolute URL of this page. */
  pageUrl: string;
  /** Absolute URL of the shared image. */
  imageUrl: string;
  imageType: string;
  category: string;
  createdAt: string;
  expiresAt: string;
  /** A quick preview of the built-in engine: shown with its label and what it means. */
  preview?: boolean;
}

export function renderSharePage(input: SharePageInput, locale: Locale = DEFAULT_LOCALE): string {
  const label = (TRYON_CATEGORY_VALUES as readonly string[]).includes(input.category)
    ? categoryName(locale, input.category as TryOnCategory)
    : null;
  const title = text(locale, 'share.title');
  const description = text(locale, 'share.description');
  const alt =
    label === null ? text(locale, 'share.imageAltNoCategory') : text(locale, 'share.imageAlt', { category: label });
  const e = escapeHtml;
  const head = `<title>${e(title)}</title>
<meta name="description" content="${e(description)}">
<meta property="og:site_name" content="${PRODUCT_NAME}">
<meta property="og:type" content="website">
<meta property="og:title" content="${e(title)}">
<meta property="og:description" content="${e(description)}">
<meta property="og:url" content="${e(input.pageUrl)}">
<meta property="og:image" content="${e(input.imageUrl)}">
<meta property="og:image:type" content="${e(input.imageType)}">
<meta property="og:image:alt" content="${e(alt)}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(title)}">
<meta name="twitter:description" content="${e(description)}">
<meta name="twitter:image" content="${e(input.imageUrl)}">`;
  const madeOn = dayFormat(locale).format(new Date(input.createdAt));
  const until = dayFormat(locale).format(new Date(input.expiresAt));
  const madeTime = `<time datetime="${e(input.createdAt)}">${e(madeOn)}</time>`;
  const untilTime = `<time datetime="${e(input.expiresAt)}">${e(until)}</time>`;
  const made =
    label === null
      ? htmlText(locale, 'share.madeNoCategory', {}, { date: madeTime })
      : htmlText(locale, 'share.made', { category: label }, { date: madeTime });
  const body = `<h1>${htmlText(locale, 'share.heading', {}, { brand: `<span class="accent">${PRODUCT_NAME}</span>` })}</h1>
<p class="sub">${made}</p>
<figure><img src="${e(input.imageUrl)}" alt="${e(alt)}"></figure>${
    input.preview
      ? `\n<p class="preview" data-testid="share-preview"><b>${htmlText(locale, 'tryon.result.previewBadge')}</b>${htmlText(locale, 'tryon.result.previewText')}</p>`
      : ''
  }
<a class="cta" href="/">${htmlText(locale, 'share.cta')}</a>
<p class="note">${htmlText(locale, 'share.until', { days: RESULT_RETENTION_DAYS }, { date: untilTime })}</p>`;
  return page(locale, head, body);
}

/** The answer for an unknown token, a result no longer shared, or one that has expired. */
export function renderShareNotFound(locale: Locale = DEFAULT_LOCALE): string {
  return page(
    locale,
    `<title>${htmlText(locale, 'share.notFound.title')}</title>`,
    `<h1>${htmlText(locale, 'share.notFound.heading')}</h1>
<p class="sub">${htmlText(locale, 'share.notFound.text', { days: RESULT_RETENTION_DAYS })}</p>
<a class="cta" href="/">${htmlText(locale, 'share.cta')}</a>`,
  );
}
