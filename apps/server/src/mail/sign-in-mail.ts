/** The sign-in mail: short and plain, with a text and an HTML part, in the shopper's language. */
import { DEFAULT_LOCALE, localeDirection, SIGN_IN_CODE_TTL_MINUTES, type Locale } from '@aidressup/contract';
import { escapeHtml } from '../html.js';
import type { Mail } from './mailer.js';
import { SIGN_IN_MAIL_TEXTS } from './mail-texts.js';

export function signInMail(input: { to: string; code: string; link: string; locale?: Locale }): Mail {
  const locale = input.locale ?? DEFAULT_LOCALE;
  const t = SIGN_IN_MAIL_TEXTS[locale];
  const minutes = SIGN_IN_CODE_TTL_MINUTES;
  const text = [t.codeLine(input.code), '', t.linkLine(input.link), '', t.validity(minutes), t.ignore].join('\n');
  // English keeps its original markup; another language names itself (and its direction).
  const htmlAttributes = locale === DEFAULT_LOCALE ? '' : ` lang="${locale}" dir="${localeDirection(locale)}"`;
  const html = `<!doctype html>
<html${htmlAttributes}><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">
<p>${escapeHtml(t.codeIntro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:8px 0">${escapeHtml(input.code)}</p>
<p><a href="${escapeHtml(input.link)}">${escapeHtml(t.linkLabel)}</a></p>
<p style="color:#555;font-size:14px">${escapeHtml(t.validity(minutes))}
${escapeHtml(t.ignore)}</p>
</body></html>`;
  return { to: input.to, subject: t.subject, text, html };
}
