import type { MailMessage } from './mail.ts';

/** Sends one message; resolves once the receiving server accepted it. */
export interface MailTransport {
  /** Throws a MailSendError when the message was not accepted. */
  send(message: MailMessage): Promise<void>;
  /** Lets go of connections (a pooled transport); the transport is not used afterwards. */
  close(): void;
}

/**
 * A send that did not go through. `permanent` when sending the same message again would be
 * refused again (RFC 5321 §4.2.1: a 5yz reply to the recipient or the data), so no retry;
 * anything else (unreachable server, timeout, 4yz, a rejected login) may pass later.
 */
export class MailSendError extends Error {
  readonly permanent: boolean;

  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'MailSendError';
    this.permanent = options.permanent;
  }
}
