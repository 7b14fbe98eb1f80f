/**
 * Starts the SMTP stand-in for the whole run; the returned function stops it.
 *
 * Ordering: Playwright starts the `webServer` before globalSetup and stops it after globalSetup's
 * teardown. That is fine here: the built server reads SMTP_URL at start but only connects when it
 * sends a mail, which happens during the tests, after this setup has finished.
 */
import { startSmtpStandIn } from './stand-ins/smtp-stand-in';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(process.env.E2E_SMTP_PORT ?? 3125);
  const mailDir = process.env.E2E_MAIL_DIR;
  if (!mailDir) throw new Error('E2E_MAIL_DIR is not set (playwright.config.ts creates it)');
  const smtp = await startSmtpStandIn({ port, mailDir });
  return () => smtp.close();
}
