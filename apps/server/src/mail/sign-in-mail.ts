/**
 * The sign-in mail: short and plain, with a text and an HTML part, in the shopper's language. Its
 * words are the `mail.signIn.*` messages of the contract's catalogs (through `texts.ts`); its
 * subject is the page's `msg.signInMailSubject` (in English, the contract's `MESSAGES.signInMailSubject`).
 */
import { DEFAULT_LOCALE, localeDirection, SIGN_IN_CODE_TTL_MINUTES, type Locale } from '@aidressup/contract';
import { escapeHtml } from '../html.js';
import { htmlText, text, type TextId, type TextValues } from '../texts.js';
import type { Mail } from './mailer.js';

export function signInMail(input: { to: string; code: string; link: string; locale?: Locale }): Mail {
  const locale = input.locale ?? DEFAULT_LOCALE;
  const t = (id: TextId, values?: TextValues) => text(locale, id, values);
  const h = (id: TextId, values?: TextValues) => htmlText(locale, id, values);
  const minutes = { minutes: SIGN_IN_CODE_TTL_MINUTES };
  const body = [
    t('mail.signIn.codeLine', { code: input.code }),
    '',
    t('mail.signIn.linkLine', { link: input.link }),
    '',
    t('mail.signIn.validity', minutes),
    t('mail.signIn.ignore'),
  ].join('\n');
  // English keeps its original markup; another language names itself (and its direction).
  const htmlAttributes = locale === DEFAULT_LOCALE ? '' : ` lang="${locale}" dir="${localeDirection(locale)}"`;
  const html = `<!doctype html>
<html${htmlAttributes}><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">
<p>${h('mail.signIn.codeIntro')}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:8px 0">${escapeHtml(input.code)}</p>
<p><a href="${escapeHtml(input.link)}">${h('mail.signIn.linkLabel')}</a></p>
<p style="color:#555;font-size:14px">${h('mail.signIn.validity', minutes)}
${h('mail.signIn.ignore')}</p>
</body></html>`;
  return { to: input.to, subject: t('msg.signInMailSubject'), text: body, html };
}
