/** The sign-in mail: short and plain, with a text and an HTML part. */
import { MESSAGES, SIGN_IN_CODE_TTL_MINUTES } from '@aidressup/contract';
import type { Mail } from './mailer.js';

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

export function signInMail(input: { to: string; code: string; link: string }): Mail {
  const text = [
    `Your AI Dress Up sign-in code is ${input.code}`,
    '',
    `Or sign in with one click: ${input.link}`,
    '',
    `The code and the link work once, for ${SIGN_IN_CODE_TTL_MINUTES} minutes.`,
    'If you did not ask to sign in, you can ignore this mail.',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">
<p>Your AI Dress Up sign-in code is</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:8px 0">${escapeHtml(input.code)}</p>
<p><a href="${escapeHtml(input.link)}">Sign in with one click</a></p>
<p style="color:#555;font-size:14px">The code and the link work once, for ${SIGN_IN_CODE_TTL_MINUTES} minutes.
If you did not ask to sign in, you can ignore this mail.</p>
</body></html>`;
  return { to: input.to, subject: MESSAGES.signInMailSubject, text, html };
}
