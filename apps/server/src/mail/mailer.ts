/**
 * Outgoing mail behind one interface: SMTP through nodemailer when SMTP_URL is set (loaded only
 * then), else the mail is written to the server log, clearly marked, so a newcomer running the
 * embedded defaults can still sign in.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

export async function createMailer(opts: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Promise<Mailer> {
  if (!opts.smtpUrl) {
    return {
      kind: 'log',
      async send(mail) {
        opts.log.warn(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'MAIL NOT SENT (no SMTP_URL is set): the sign-in mail is written here instead',
        );
      },
      async close() {},
    };
  }
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
