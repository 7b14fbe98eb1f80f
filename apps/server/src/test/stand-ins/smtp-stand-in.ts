/**
 * A stand-in for a mail provider's SMTP server: a real SMTP server (the `smtp-server` package) on
 * 127.0.0.1 that accepts any login, parses each message it receives (mailparser) and keeps it, so
 * tests read the sign-in code from the mail the product really sent.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: Date;
}

export interface SmtpStandIn {
  /** `smtp://user:pass@127.0.0.1:port`, for SMTP_URL. */
  readonly url: string;
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** Resolves with the newest mail to `address` received after `since` (waits up to `timeoutMs`). */
  waitForMail(address: string, opts?: { since?: Date; timeoutMs?: number }): Promise<ReceivedMail>;
  /** Makes the next messages fail with a 4xx reply (a mail provider down). */
  setFailing(failing: boolean): void;
  close(): Promise<void>;
}

export async function startSmtpStandIn(
  opts: { port?: number; onMail?: (mail: ReceivedMail) => void } = {},
): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  /** Waiting waitForMail calls: each is told of every mail as it arrives. */
  const waiters = new Set<(mail: ReceivedMail) => void>();
  let failing = false;
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
      if (failing) {
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error('mailbox unavailable (stand-in set to fail)'), { responseCode: 451 })),
        );
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            receivedAt: new Date(),
          };
          mails.push(mail);
          opts.onMail?.(mail);
          for (const notify of waiters) notify(mail);
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  return {
    url: `smtp://stand-in:secret@127.0.0.1:${port}`,
    port,
    mails,
    waitForMail(address, o = {}) {
      const to = address.toLowerCase();
      const wanted = (m: ReceivedMail) => m.to.includes(to) && (!o.since || m.receivedAt >= o.since);
      const found = [...mails].reverse().find(wanted);
      if (found) return Promise.resolve(found);
      // Not here yet: resolves when it arrives.
      return new Promise<ReceivedMail>((resolve, reject) => {
        const notify = (mail: ReceivedMail) => {
          if (!wanted(mail)) return;
          waiters.delete(notify);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(notify);
          reject(new Error(`no mail to ${address} arrived`));
        }, o.timeoutMs ?? 10_000);
        waiters.add(notify);
      });
    },
    setFailing(f) {
      failing = f;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a sign-in mail. */
export function codeFromMail(mail: ReceivedMail): string {
  const m = /sign-in code is (\d{6})/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no code in mail: ${mail.text}`);
  return m[1];
}

/** The magic link of a sign-in mail. */
export function linkFromMail(mail: ReceivedMail): URL {
  const m = /(https?:\/\/\S+\/sign-in\/verify#\S+)/.exec(mail.text);
  if (!m?.[1]) throw new Error(`no link in mail: ${mail.text}`);
  return new URL(m[1]);
}
