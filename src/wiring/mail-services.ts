import { parseRetrySchedule } from '../config/config.ts';
import { MailDeliverer } from '../domain/mail/mail-deliverer.ts';
import type { MailTransport } from '../domain/mail/mail-transport.ts';
import { LogTransport } from '../mail/log-transport.ts';
import { NodemailerTransport } from '../mail/nodemailer-transport.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import type { WiringContext } from './wiring-context.ts';

type Log = { info(details: object, message: string): void };

/** Outgoing mail (issue 23): the queue is `repositories.mail`; this builds what sends it. */
export type MailServices = {
  /**
   * The deliverer `serve`'s background work runs (start-mail-delivery.ts), over SMTP when
   * COFFER_SMTP_URL is set, else over `log`.
   */
  createMailDeliverer(log: Log): MailDeliverer;
};

const concurrency = 4;

export function buildMailServices(context: WiringContext, shared: { metrics: ServiceMetrics }): MailServices {
  const { config, repositories, clock } = context;
  shared.metrics.mail.watchQueue(() => repositories.mail.measure(clock.now()));
  return {
    createMailDeliverer(log) {
      const transport: MailTransport = config.smtpUrl
        ? new NodemailerTransport({
            smtpUrl: config.smtpUrl,
            from: config.mailFrom,
            timeoutSeconds: config.mailTimeoutSeconds,
          })
        : new LogTransport(log);
      return new MailDeliverer({
        queue: repositories.mail,
        transport,
        clock,
        retrySeconds: parseRetrySchedule(config.mailRetrySeconds) ?? [],
        concurrency,
        // Longer than an attempt takes (connect, greeting, then each command within the limit):
        // a lease lapses when its holder is gone. A server slower still may get the mail twice.
        leaseMs: (config.mailTimeoutSeconds * 4 + 5) * 1000,
        onOutcome: (outcome) => shared.metrics.mail.attempted(outcome),
      });
    },
  };
}
