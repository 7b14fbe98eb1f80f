/**
 * SMTP STAND-IN for the browser tests (not a mail provider): the server tests' SMTP stand-in (a
 * real SMTP server on 127.0.0.1, any login, each message parsed with mailparser), with every mail
 * also saved as JSON in a folder, so a spec in another process reads the sign-in code and link
 * from the mail the built server really sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startSmtpStandIn as startServerSmtpStandIn } from '@aidressup/server/testing/stand-ins/smtp-stand-in';

/** One received message, as saved in the mail folder. */
export interface SavedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** ISO time the stand-in received it. */
  receivedAt: string;
}

export interface SmtpStandIn {
  readonly port: number;
  close(): Promise<void>;
}

export async function startSmtpStandIn(opts: { port: number; mailDir: string }): Promise<SmtpStandIn> {
  fs.mkdirSync(opts.mailDir, { recursive: true });
  let seq = 0;
  const smtp = await startServerSmtpStandIn({
    port: opts.port,
    onMail(mail) {
      const saved: SavedMail = { ...mail, receivedAt: mail.receivedAt.toISOString() };
      // Written under a temporary name, then renamed: a reader never sees half a file.
      const name = `${Date.now()}-${String(++seq).padStart(6, '0')}.json`;
      const tmp = path.join(opts.mailDir, `.${name}.tmp`);
      fs.writeFileSync(tmp, JSON.stringify(saved, null, 2));
      fs.renameSync(tmp, path.join(opts.mailDir, name));
    },
  });
  return { port: smtp.port, close: () => smtp.close() };
}
