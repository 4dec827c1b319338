import type { MailMessage } from '../domain/mail/mail.ts';
import type { MailTransport } from '../domain/mail/mail-transport.ts';

type Log = { info(details: object, message: string): void };

/**
 * Without COFFER_SMTP_URL, mails go to the log, so `npm start` works with no mail server: the
 * text body is written (it holds the links a flow sends). security: this is the only place a
 * mail's body is logged; a production setup sets COFFER_SMTP_URL.
 */
export class LogTransport implements MailTransport {
  readonly #log: Log;

  constructor(log: Log) {
    this.#log = log;
  }

  async send(message: MailMessage): Promise<void> {
    this.#log.info(
      { mail: { to: message.to, subject: message.subject, text: message.text } },
      `mail to ${message.to} (no COFFER_SMTP_URL, so written here): ${message.subject}`,
    );
  }

  close(): void {}
}
