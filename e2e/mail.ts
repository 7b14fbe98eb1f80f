import fs from 'node:fs';
import path from 'node:path';
import type { SavedMail } from './stand-ins/smtp-stand-in';

/** The e2e server's only operator (its ADMIN_EMAILS, playwright.config.ts); no other spec uses it. */
export const OPERATOR_EMAIL = 'operator.e2e@example.com';
/** The operator who sets up the widget's merchants (specs/embed.spec.ts), apart from the console's. */
export const MERCHANT_OPERATOR_EMAIL = 'merchants.e2e@example.com';

/** The folder the SMTP stand-in saves mails in (set by playwright.config.ts). */
function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set');
  return dir;
}

function readMails(): SavedMail[] {
  return fs
    .readdirSync(mailDir())
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(mailDir(), f), 'utf8')) as SavedMail);
}

/** Waits for the newest mail to `address` received at or after `since`. */
export async function newestMail(address: string, opts: { since?: Date; timeoutMs?: number } = {}): Promise<SavedMail> {
  const to = address.toLowerCase();
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const found = readMails()
      .reverse()
      .find((m) => m.to.includes(to) && (!opts.since || Date.parse(m.receivedAt) >= opts.since.getTime()));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} arrived`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 6-digit code of a sign-in mail. */
export function codeFromMail(mail: SavedMail): string {
  const m = /sign-in code is (\d{6})/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no code in mail: ${mail.text}`);
  return m[1];
}

/** The magic link of a sign-in mail. */
export function linkFromMail(mail: SavedMail): URL {
  const m = /(https?:\/\/\S+\/sign-in\/verify#\S+)/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no link in mail: ${mail.text}`);
  return new URL(m[1]);
}

/** A fresh address for one test (mail folders are shared by the whole run). */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
}
