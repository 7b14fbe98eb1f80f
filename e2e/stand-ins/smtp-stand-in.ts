/**
 * SMTP STAND-IN for the browser tests (not a mail provider): a real SMTP server (the `smtp-server`
 * package) on 127.0.0.1 that accepts any login over plain SMTP (no STARTTLS, insecure auth allowed
 * on loopback), parses each message with mailparser and saves it as JSON in a folder, so a spec
 * reads the sign-in code and link from the mail the built server really sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

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
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'stand-in' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: SavedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date().toISOString(),
          };
          // Written under a temporary name, then renamed: a reader never sees half a file.
          const name = `${Date.now()}-${String(++seq).padStart(6, '0')}.json`;
          const tmp = path.join(opts.mailDir, `.${name}.tmp`);
          fs.writeFileSync(tmp, JSON.stringify(mail, null, 2));
          fs.renameSync(tmp, path.join(opts.mailDir, name));
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  return {
    port: opts.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
