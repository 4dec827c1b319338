import { ConfigError } from '../config-error.ts';
import { maxTimerSeconds, type Setting } from '../setting.ts';

/** Outgoing mail (issue 23): the SMTP server, the sender, the retries. */
export const mailSettings = {
  smtpUrl: {
    env: 'COFFER_SMTP_URL',
    kind: 'string',
    secret: true,
    doc: 'The SMTP server mail leaves through: smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465 (TLS from the start). Unset: mails are written to the log instead.',
  },
  mailFrom: {
    env: 'COFFER_MAIL_FROM',
    kind: 'string',
    defaultValue: 'Coffer <no-reply@localhost>',
    doc: "The sender of Coffer's mails (`From`), such as `Example <no-reply@example.com>`.",
  },
  mailRetrySeconds: {
    env: 'COFFER_MAIL_RETRY_SECONDS',
    kind: 'string',
    defaultValue: '10,60,300,1800,7200,21600,43200,86400',
    doc: 'Seconds before each retry of a mail the SMTP server did not take, comma-separated (default about 2 days in all; each jittered ±20%); past the last, or on a permanent refusal (5xx), the mail is given up.',
  },
  mailTimeoutSeconds: {
    env: 'COFFER_MAIL_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    max: 300,
    doc: 'How long the SMTP server may take to accept a connection, to greet, and to answer each command; past it the attempt failed (and is retried).',
  },
  mailDeliveryIntervalMs: {
    env: 'COFFER_MAIL_DELIVERY_INTERVAL_MS',
    kind: 'integer',
    defaultValue: 1000,
    min: 10,
    max: maxTimerSeconds * 1000,
    doc: 'How often an idle mail deliverer looks for queued mails.',
  },
} as const satisfies Record<string, Setting>;

/**
 * Checks what the mail settings' kinds cannot: the URL's scheme (never repeating the URL, which
 * holds a password) and the retry schedule. Runs in loadConfig, so `serve` refuses to start.
 */
export function assertMailSettings(
  values: { smtpUrl?: unknown; mailRetrySeconds?: unknown },
  isRetrySchedule: (text: string) => boolean,
): void {
  const smtpUrl = values.smtpUrl as string | undefined;
  if (smtpUrl !== undefined) {
    const url = URL.parse(smtpUrl);
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
      throw new ConfigError('COFFER_SMTP_URL: must be smtp://[user:pass@]host[:port] or smtps://…');
  }
  const retry = values.mailRetrySeconds as string;
  if (!isRetrySchedule(retry))
    throw new ConfigError(
      `COFFER_MAIL_RETRY_SECONDS=${JSON.stringify(retry)}: must be whole seconds separated by commas, such as 1,2,5`,
    );
}
