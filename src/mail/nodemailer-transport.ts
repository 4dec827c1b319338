import type { createTransport } from 'nodemailer';
import type { MailMessage } from '../domain/mail/mail.ts';
import { MailSendError, type MailTransport } from '../domain/mail/mail-transport.ts';

type NodemailerError = Error & { code?: string; responseCode?: number; permanent?: boolean };

/**
 * Sends through the SMTP server of COFFER_SMTP_URL (nodemailer). `smtps://` is TLS from the
 * start; `smtp://` upgrades with STARTTLS whenever the server offers it, and a failed upgrade
 * fails the attempt rather than send in clear. Certificates are verified. Nodemailer answers
 * every socket error through the send's promise: nothing here can crash the process.
 */
export class NodemailerTransport implements MailTransport {
  readonly #options: { smtpUrl: string; timeoutSeconds: number };
  readonly #from: string;
  #transporter: Promise<ReturnType<typeof createTransport>> | undefined;

  constructor(options: { smtpUrl: string; from: string; timeoutSeconds: number }) {
    this.#from = options.from;
    this.#options = options;
  }

  /**
   * The transporter, made by the first send: nodemailer (about 0.15 s of CPU to load) is loaded
   * only by a process that sends mail, not by every worker and command that could.
   */
  #transport(): Promise<ReturnType<typeof createTransport>> {
    this.#transporter ??= import('nodemailer').then(({ createTransport }) => {
      // Bounded waits: a server that stops answering fails the attempt, it never holds the deliverer.
      const timeoutMs = this.#options.timeoutSeconds * 1000;
      return createTransport({
        url: this.#options.smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      });
    });
    return this.#transporter;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      const transporter = await this.#transport();
      await transporter.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined && { html: message.html }),
      });
    } catch (error) {
      throw toMailSendError(error as NodemailerError);
    }
  }

  close(): void {
    // A transporter that never loaded has nothing to let go of (its send already failed).
    void this.#transporter?.then(
      (transporter) => transporter.close(),
      () => {},
    );
  }
}

/**
 * Permanent only when the server refused this message (RFC 5321 §4.2.1, 5yz, which nodemailer
 * marks `permanent`) for its envelope or its data: a refused login (EAUTH) is the operator's to
 * fix, and the mail goes once it is fixed.
 */
function toMailSendError(error: NodemailerError): MailSendError {
  const refusedMessage = error.code === 'EENVELOPE' || error.code === 'EMESSAGE';
  const permanent = refusedMessage && error.permanent === true;
  const code = error.responseCode ? `${error.responseCode} ` : error.code ? `${error.code}: ` : '';
  return new MailSendError(`${code}${error.message}`, { permanent, cause: error });
}
