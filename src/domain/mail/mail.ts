import { newEventId } from '../events/event-id.ts';

/** What a mail says: one recipient, a subject, a text body and, optionally, an HTML one. */
export type MailMessage = {
  to: string;
  subject: string;
  /** The plain text body: every flow puts its links here too (the log transport prints it). */
  text: string;
  html?: string | undefined;
};

/** A mail for the queue: the message, the project it is sent for, and why. */
export type NewMail = MailMessage & {
  id: string;
  projectId: string;
  /** What sent it (`password-reset`, `verify-email`, `mail-test`…): free text for now. */
  purpose: string;
  createdAt: Date;
};

export type MailStatus = 'pending' | 'sent' | 'failed';

/** A queued mail taken for an attempt, with what sending it needs. */
export type DueMail = NewMail & { attempts: number };

/** A mail as the queue keeps it; `text` and `html` are null once it was sent or given up. */
export type QueuedMail = Omit<NewMail, 'text' | 'html'> & {
  text: string | null;
  html: string | null;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
};

/** What an attempt leaves: sent, to retry at a time, or given up. */
export type MailAttemptResult = {
  status: MailStatus;
  nextAttemptAt: Date | null;
  lastError: string | null;
};

/** A new mail for the queue, with a time-ordered id (`mail_` and a ULID). */
export function toNewMail(
  message: MailMessage,
  options: { projectId: string; purpose: string; now: Date },
): NewMail {
  return {
    ...message,
    id: `mail_${newEventId(options.now).slice('evt_'.length)}`,
    projectId: options.projectId,
    purpose: options.purpose,
    createdAt: options.now,
  };
}
